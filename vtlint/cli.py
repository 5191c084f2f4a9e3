"""The `vtlint` command line, in the Ruff tradition.

Exit codes: 0 no findings at or above the fail level; 1 findings; 2 a usage,
configuration or internal error (a path that does not exist, an invalid
`[tool.vtlint]`, a report that cannot be written); 130 interrupted (Ctrl-C); 141
the reader of standard output stopped reading (`vtlint check . | head -3`), quietly.
A standard error that cannot be written changes none of these."""

from __future__ import annotations

import errno
import gc
import io
import os
import shlex
import sys
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.text import Text

from vtlint import __version__
from vtlint.analyzer.project import UNMATCHED_ENTRY
from vtlint.check import CheckResult, RuntimeInput, exit_code, run_check, why_empty
from vtlint.config import Config, ConfigError, load_config
from vtlint.findings import Level
from vtlint.report.github import render_github
from vtlint.report.groups import is_note, lists_constants
from vtlint.report.json_format import render_json
from vtlint.report.shareable import openable, shareable
from vtlint.report.output import printable, refuse_inputs, write_atomic
from vtlint.report.terminal import escape, for_terminal, one_line
from vtlint.report.text import render, statistics
from vtlint.rules.registry import all_rules, get_rule, unknown_selectors

if TYPE_CHECKING:
    from vtlint.report.shard import Shard

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a command stopped by Ctrl-C
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as a shell reports a command whose reader went away
FORMATS = ("text", "json", "sarif", "github", "html")


class UsageFault(click.ClickException):
    """A user mistake: one clear line on stderr, exit 2, never a traceback."""

    exit_code = EXIT_ERROR

    def show(self, file: Any = None) -> None:
        click.echo(f"vtlint: error: {one_line(self.format_message())}", err=True)


class StdoutError(Exception):
    """Standard output cannot be written (a full disk, a closed pipe). Not an OSError: Click
    would take a closed pipe's for its own and exit 1."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error.strerror)
        self.errno, self.strerror = error.errno, error.strerror


class _Stdout:
    """sys.stdout while a command runs: UTF-8-safe text (see `printable`), and a
    failed write told apart from every other OSError."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(printable(text))
        except OSError as exc:
            raise StdoutError(exc) from None

    def flush(self) -> None:
        if self._stream.closed:
            return  # closed on purpose: the language server closes its stdout at `exit`
        try:
            self._stream.flush()
        except OSError as exc:
            raise StdoutError(exc) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _Stderr:
    """sys.stderr while a command runs: a message that cannot be written is dropped (there is
    nowhere to say so), and the exit code stays the run's own."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.failed = False

    def write(self, text: str) -> int:
        try:
            return self._stream.write(printable(text))
        except OSError:
            self.failed = True
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except (OSError, ValueError):
            self.failed = True

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _discard_pending(stream: Any) -> None:
    """Point a failed stdout at /dev/null: the interpreter's last flush then cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, io.UnsupportedOperation):
        pass


class DefaultCheckGroup(click.Group):
    """`vtlint PATH...` means `vtlint check PATH...`, as `ruff PATH` once did."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ("--help", "-h", "--version")):
            args = ["check", *args]
        return super().parse_args(ctx, args)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """The streams of the whole command, its parsing too (`--help` writes): an unwritable
        stdout exits 2 with one line, not a traceback (141 and quiet when its reader went away);
        an unwritable stderr is dropped."""
        real_out, real_err = sys.stdout, sys.stderr
        err = _Stderr(real_err)
        sys.stdout, sys.stderr = _Stdout(real_out), err
        try:
            try:
                return super().main(*args, **kwargs)
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
        except StdoutError as exc:
            _discard_pending(real_out)
            if exc.errno == errno.EPIPE:
                sys.exit(EXIT_BROKEN_PIPE)
            click.echo(f"vtlint: error: cannot write to standard output: {exc.strerror}", err=True)
            sys.exit(EXIT_ERROR)
        finally:
            if err.failed:
                _discard_pending(real_err)
            sys.stdout, sys.stderr = real_out, real_err

    def invoke(self, ctx: click.Context) -> Any:
        """Ctrl-C exits 130 with one line."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("vtlint: interrupted", err=True)
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (StdoutError, ValueError):
                    pass
            # leave now: the interpreter's exit would join the analysis pool's manager thread, which
            # can wait forever on a worker stopped mid-message (the workers are already stopped)
            os._exit(EXIT_INTERRUPTED)


def _split_codes(values: tuple[str, ...]) -> list[str]:
    return [code.strip().upper() for value in values for code in value.split(",") if code.strip()]


def _console(color: str, stream: Any) -> Console:
    force = {"always": True, "never": False}.get(color)
    no_color = color == "never" or (color == "auto" and "NO_COLOR" in os.environ)
    return Console(file=stream, force_terminal=force, no_color=no_color, highlight=False, soft_wrap=True)


def _entry_from_here(target: str, root: Path) -> str:
    """`--entry sub/model.py:D.forward` names a file as the checked paths do: from the current
    folder. The analyzer names files from the project root."""
    where, sep, qual = target.rpartition(":")
    if not sep or not where.endswith((".py", ".pyi")) or not Path(where).is_file():
        return target
    try:
        return f"{Path(where).resolve().relative_to(root.resolve()).as_posix()}:{qual}"
    except ValueError:
        return target


def _apply_overrides(config: Config, **opts: Any) -> Config:
    changes: dict[str, Any] = {}
    if opts["select"]:
        changes["select"] = tuple(_split_codes(opts["select"]))
    if opts["extend_select"]:
        changes["extend_select"] = (*config.extend_select, *_split_codes(opts["extend_select"]))
    if opts["ignore"]:
        changes["ignore"] = (*config.ignore, *_split_codes(opts["ignore"]))
    if opts["entry"]:
        changes["entry_points"] = (*config.entry_points, *(_entry_from_here(e, config.root) for e in opts["entry"]))
    if opts["assume_compiled"]:
        changes["assume_compiled"] = (*config.assume_compiled, *opts["assume_compiled"])
    if opts["fail_level"]:
        changes["fail_level"] = Level(opts["fail_level"])
    return config.with_(**changes) if changes else config


def _render(result: CheckResult, fmt: str, show_notes: bool, root: Path | None = None, each_constant: bool = False,
            **sarif: Any) -> str:
    if fmt == "json":
        return render_json(result)
    if fmt == "github":
        return render_github(result, show_notes, root=root, each_constant=each_constant)
    if fmt == "html":
        from vtlint.report.html import render_html

        return render_html(result)
    if fmt == "sarif":
        from vtlint.report.sarif import render_sarif

        return render_sarif(result, root=root, **sarif)
    raise AssertionError(fmt)


PROGRESS_AFTER_S = 2.0  # a run shorter than this shows no bar at all


def _progress(enabled: bool) -> tuple[Callable[[int, int], None] | None, Callable[[], None]]:
    """A progress bar on stderr, only when stderr is a terminal and the run has already
    taken a few seconds: the files read and summarized, then the walk of the compiled
    entries (the analyzer reports the end of each phase, so the bar pulses within one)."""
    if not enabled:
        return None, lambda: None
    import threading

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=Console(file=sys.stderr), transient=True,
    )
    task = bar.add_task("reading and summarizing files", total=None)
    timer = threading.Timer(PROGRESS_AFTER_S, bar.start)
    timer.daemon = True
    timer.start()

    def advance(done: int, total: int) -> None:
        walking = done >= total
        bar.update(task, completed=done, total=total,
                   description="walking compiled entries after the files" if walking else "summarizing files")

    def stop() -> None:
        timer.cancel()
        bar.stop()

    return advance, stop


@click.group(cls=DefaultCheckGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="vtlint", message="%(prog)s %(version)s")
def main() -> None:
    """vtlint: what torch.compile's tracer (Dynamo) will do with your code.

    Run `vtlint PATH...` (same as `vtlint check PATH...`). Exit codes: 0 no
    findings at or above the fail level, 1 findings, 2 usage/config/internal error.
    """


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True, help="Output format.")
@click.option("--output", "-o", type=click.Path(path_type=Path, dir_okay=False), help="Write the report to FILE (atomically).")
@click.option("--select", multiple=True, help="Enable these codes or prefixes (comma-separated); replaces the default.")
@click.option("--extend-select", multiple=True, help="Enable these codes or prefixes in addition.")
@click.option("--ignore", multiple=True, help="Disable these codes or prefixes.")
@click.option("--entry", multiple=True, metavar="TARGET:Qual.name", help="Analyze this function or method as if compiled (TARGET: a file path or a dotted module). Repeatable.")
@click.option("--assume-compiled", multiple=True, type=click.Choice(["forward"]), help="Treat every `forward` of an nn.Module subclass as compiled.")
@click.option("--fail-level", type=click.Choice([lvl.value for lvl in Level]), help="Exit 1 only for findings at or above this level [default: warning].")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--allow-empty", is_flag=True, help="Exit 0 when no Python file is analyzed (all given paths excluded or empty) instead of 2.")
@click.option("--statistics", "show_statistics", is_flag=True, help="Print the number of findings per code.")
@click.option("--show-notes", "-v", "--verbose", "show_notes", is_flag=True, help="Also print notes: inlined calls, and what the static pass cannot resolve (counted in the summary otherwise).")
@click.option("--quiet", "-q", is_flag=True, help="Print findings only: no summary, no notifications.")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=0, help="Parallel workers, at most one per core; 0 means one per core.")
@click.option("--no-cache", is_flag=True, help="Do not read or write the analysis cache.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True)
@click.option("--config", "config_file", type=click.Path(path_type=Path, dir_okay=False), help="Use this pyproject.toml instead of the nearest one.")
@click.option("--shard", metavar="K/N", help="Report only the findings in the K-th of N disjoint slices of the files; the whole tree is analyzed (CI matrices; combine with `vtlint merge`).")
@click.option("--baseline", type=click.Path(path_type=Path, dir_okay=False), help="Report only findings not in this SARIF baseline.")
@click.option("--write-baseline", type=click.Path(path_type=Path, dir_okay=False), help="Write every finding of this run as a SARIF baseline to FILE.")
@click.option("--sarif-category", default="vtlint", show_default=True, help="GitHub code scanning category (runAutomationDetails.id) of --format sarif.")
@click.option("--runtime", is_flag=True, help="Also run the harness ([tool.vtlint.runtime] command) under torch.compile's structured trace and merge what Dynamo really did.")
@click.option("--runtime-command", metavar="CMD", help="Run CMD as the harness (implies --runtime); split like a shell would, run without one, in the project root.")
@click.option("--runtime-timeout", type=float, metavar="SECONDS", help="Stop the harness (its whole process group) after SECONDS [default: [tool.vtlint.runtime] timeout, 600].")
@click.option("--runtime-facts", type=click.Path(path_type=Path, dir_okay=False), help="Merge runtime facts saved by `vtlint trace` instead of running a harness.")
@click.option("--probe", is_flag=True, help="With --runtime: after the harness, change each predicted baked constant once and record the guard that fails.")
def check(paths: tuple[Path, ...], fmt: str, output: Path | None, config_file: Path | None, jobs: int, no_cache: bool,
          color: str, quiet: bool, exit_zero: bool, show_statistics: bool, show_notes: bool, **opts: Any) -> None:
    """Analyze PATHS (default: the current folder) and report findings."""
    try:
        with _run_collector():
            sys.exit(_check(list(paths) or [Path(".")], fmt, output, config_file, jobs, no_cache, color, quiet,
                            exit_zero, show_statistics, show_notes, opts))
    except (ConfigError, UsageFault) as exc:
        raise UsageFault(str(exc.format_message() if isinstance(exc, click.ClickException) else exc)) from None


@contextmanager
def _run_collector() -> Iterator[None]:
    """The collector's thresholds for one run. Its parsed trees and summaries live until it ends, and the
    default thresholds have the collector scan them whole again and again (5 full collections, 1.7 s of a
    15 s cold run on transformers' model files [a-b]*). The language server's first two thresholds; a full
    collection still comes after every 10 second-generation ones, for a long run's cyclic garbage (each
    entry's walker)."""
    before = gc.get_threshold()
    gc.set_threshold(100_000, 50, 10)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _check(paths: list[Path], fmt: str, output: Path | None, config_file: Path | None, jobs: int, no_cache: bool,
           color: str, quiet: bool, exit_zero: bool, show_statistics: bool, show_notes: bool, opts: dict[str, Any]) -> int:
    if config_file is not None and not config_file.is_file():
        raise UsageFault(f"config file not found: {config_file}")
    config = _apply_overrides(load_config(paths, config_file), **opts)
    unknown = unknown_selectors([*config.select, *config.extend_select, *config.ignore])
    if unknown:
        raise UsageFault(f"unknown rule selector(s): {', '.join(unknown)} (see `vtlint rules`)")
    shard = _parse_shard(opts["shard"])
    err = _console(color, sys.stderr)
    advance, stop = _progress(sys.stderr.isatty() and not quiet and fmt == "text" and output is None)
    try:
        runtime = _runtime(config, opts, sys.stderr.isatty() and not quiet, paths)
        result = _run(paths, config, shard, jobs=_workers(jobs), use_cache=not no_cache, progress=advance,
                      runtime=runtime)
    except UsageFault:
        stop()
        raise
    except Exception as exc:  # an internal fault: a short message, the traceback only on request
        stop()
        return _internal_error(exc)
    stop()
    on_terminal = fmt == "text" and output is None and sys.stdout.isatty()
    # a terminal opens an installed file by its path; reports are shared: the path inside site-packages
    terminal = for_terminal(openable(result) if on_terminal else shareable(result))
    result = shareable(result)
    prints = _baselines(result, config, opts)
    shown = for_terminal(result)  # what text, annotations and stderr show: control characters escaped
    each_constant = show_notes or lists_constants([*config.select, *config.extend_select])
    for missing in shown.missing:
        err.print(Text.assemble(("error", "bold red"), f": {missing}: no such file or directory"))
    empty = not result.files and not result.missing and shard is None  # a shard may fairly be empty
    if empty:
        _say_empty(err, paths, config, opts["allow_empty"])
    if not quiet:
        for note in shown.notifications:
            if is_note(note) and not show_notes:
                continue  # counted in the summary
            where = f"{note.location.path}:{note.location.line}:{note.location.column}: " if note.location else ""
            err.print(Text.assemble((note.level.value, "yellow"), f": {where}{note.message}"), soft_wrap=True,
                      highlight=False)
    if fmt == "text" and output is None:
        out = _console(color, sys.stdout)
        render(terminal, out, show_notes=show_notes, grouped=out.is_terminal and not quiet, quiet=quiet,
               each_constant=each_constant)
        if show_statistics:
            statistics(terminal, out, show_notes)
    else:
        sarif = {"category": opts["sarif_category"], "prints": prints, "shard": str(shard) if shard else None}
        # GitHub's log shows annotations as a terminal would; JSON, SARIF and HTML escape what they carry
        text = _plain_text(shown, show_notes, each_constant) if fmt == "text" else \
            _render(shown if fmt == "github" else result, fmt, show_notes, config.root, each_constant, **sarif)
        if output is None:
            sys.stdout.write(text)
        else:
            try:
                write_atomic(output, text, _inputs(result, config, opts))
            except OSError as exc:
                raise UsageFault(f"cannot write {output}: {exc.strerror}") from None
    unmatched = any(note.kind == UNMATCHED_ENTRY for note in result.notifications)
    if result.missing or unmatched or (empty and not opts["allow_empty"]):
        return EXIT_ERROR  # never an all-clear for a run that did not analyze what it was asked to
    return EXIT_OK if exit_zero else exit_code(result, config.fail_level)


def _say_empty(err: Console, paths: list[Path], config: Config, allowed: bool) -> None:
    """No file analyzed is not an all-clear: say why (the exclusion that applied)."""
    level = ("warning", "yellow") if allowed else ("error", "bold red")
    hint = "" if allowed else " (--allow-empty exits 0)"
    err.print(Text.assemble(level, f": no Python files analyzed{hint}"), highlight=False)
    for reason in why_empty(paths, config):
        err.print(Text(f"  {escape(reason)}"), highlight=False, soft_wrap=True)


def _workers(jobs: int) -> int:
    """--jobs, at most one worker per core this process may use (0: one per core)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return min(jobs, cores) if jobs else cores


def _inputs(result: CheckResult, config: Config, opts: dict[str, Any]) -> list[Path]:
    """The files this run read: a report never overwrites one."""
    given = (opts["baseline"], opts["runtime_facts"], config.config_file)
    return [*(config.root / display for display in result.files), *(p for p in given if p is not None)]


def _parse_shard(text: str | None) -> Shard | None:
    from vtlint.report.shard import Shard

    try:
        return None if text is None else Shard.parse(text)
    except ValueError as exc:
        raise UsageFault(f"--shard: {exc}") from None


def _runtime(config: Config, opts: dict[str, Any], show_progress: bool, paths: list[Path]) -> RuntimeInput | None:
    """The runtime step, only when asked for (it runs the user's code)."""
    if not (opts["runtime"] or opts["runtime_command"] or opts["runtime_facts"] or opts["probe"]):
        return None
    from vtlint.runtime.cli_support import RuntimeUsageError, request_from, runtime_input

    try:
        request = request_from(config, runtime=opts["runtime"], command=opts["runtime_command"],
                               timeout=opts["runtime_timeout"], facts_file=opts["runtime_facts"], probe=opts["probe"])
        return runtime_input(request, config, show_progress=show_progress, paths=paths)
    except RuntimeUsageError as exc:
        raise UsageFault(str(exc)) from None


def _run(paths: list[Path], config: Config, shard: Shard | None, **options: Any) -> CheckResult:
    if shard is None:
        return run_check(paths, config, **options)
    from vtlint.report.shard import run_shard

    return run_shard(paths, config, shard, **options)


def _baselines(result: CheckResult, config: Config, opts: dict[str, Any]) -> list[str] | None:
    """--write-baseline writes every finding; --baseline then keeps the new ones and
    returns their fingerprints, numbered as in the baseline."""
    if opts["write_baseline"] is None and opts["baseline"] is None:
        return None
    from vtlint.report.baseline import BaselineError, apply_baseline
    from vtlint.report.sarif import render_sarif

    if opts["write_baseline"] is not None:
        try:
            write_atomic(opts["write_baseline"], render_sarif(result, root=config.root, category=opts["sarif_category"]),
                         _inputs(result, config, opts))
        except OSError as exc:
            raise UsageFault(f"cannot write {opts['write_baseline']}: {exc.strerror}") from None
    if opts["baseline"] is None:
        return None
    try:
        return apply_baseline(result, opts["baseline"], config.root)
    except BaselineError as exc:
        raise UsageFault(str(exc)) from None


def _plain_text(result: CheckResult, show_notes: bool, each_constant: bool = False) -> str:
    from io import StringIO

    buffer = StringIO()
    render(result, Console(file=buffer, no_color=True, force_terminal=False, soft_wrap=True, width=10_000),
           show_notes=show_notes, grouped=False, each_constant=each_constant)
    return buffer.getvalue()


def _internal_error(exc: BaseException) -> int:
    try:  # an exception's text may be the repr of a deeply nested tree: made under the recursion limit
        said = str(exc)
    except Exception:  # noqa: BLE001 - that text is not worth a second fault
        said = "(its message could not be shown)"
    said = said if len(said) <= 500 else f"{said[:500]}..."
    click.echo(f"vtlint: internal error: {type(exc).__name__}: {one_line(said)}", err=True)
    if os.environ.get("VTLINT_DEBUG"):
        traceback.print_exc()
    else:
        click.echo("Set VTLINT_DEBUG=1 to see the traceback, and please report it.", err=True)
    return EXIT_ERROR


@main.command("trace", context_settings={"ignore_unknown_options": True})
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
@click.option("--output", "-o", type=click.Path(path_type=Path, dir_okay=False), default=Path("vtlint-facts.json"), show_default=True, help="Write the runtime facts (versioned JSON) to FILE.")
@click.option("--timeout", type=float, metavar="SECONDS", help="Stop the harness after SECONDS [default: [tool.vtlint.runtime] timeout, 600].")
@click.option("--probe", is_flag=True, help="After the harness, change each scalar argument of each compiled call once and record the guard that fails.")
@click.option("--config", "config_file", type=click.Path(path_type=Path, dir_okay=False), help="Use this pyproject.toml instead of the nearest one.")
def trace_cmd(command: tuple[str, ...], output: Path, timeout: float | None, probe: bool, config_file: Path | None) -> None:
    """Run a harness under torch.compile's structured trace and save what Dynamo
    did, to merge later with `vtlint check --runtime-facts FILE`:

        vtlint trace --output facts.json -- python train.py --steps 10

    Without COMMAND, runs [tool.vtlint.runtime] command. Exit 0 when the harness
    succeeded, 1 when it failed (the facts traced so far are still saved)."""
    from vtlint.runtime.cli_support import RuntimeUsageError, collect, request_from

    try:
        config = load_config([Path(".")], config_file)
        request = request_from(config, runtime=True, command=" ".join(shlex.quote(c) for c in command) or None,
                               timeout=timeout, facts_file=None, probe=probe)
        assert request is not None and request.command is not None
        inputs = _trace_inputs(request.command, config)
        refuse_inputs(output, inputs)  # before the harness runs, which may take long
        facts = collect(request, config, show_progress=sys.stderr.isatty())
        facts.save(output, inputs)
    except (ConfigError, RuntimeUsageError) as exc:
        raise UsageFault(str(exc)) from None
    except OSError as exc:
        raise UsageFault(f"cannot write {output}: {exc.strerror}") from None
    for note in facts.notifications:
        click.echo(f"{note.level.value}: {escape(note.message)}", err=True)
    entries = len(facts.coverage)
    click.echo(f"{output}: {len(facts.events)} runtime facts from {entries} compiled entr{'y' if entries == 1 else 'ies'}.", err=True)
    sys.exit(EXIT_OK if facts.harness.get("exit_code") == 0 else EXIT_FINDINGS)


def _trace_inputs(command: str, config: Config) -> list[Path]:
    """What a traced run reads, which its facts never overwrite: the files its command names
    (the harness runs in the project root), the config, and the project's Python sources."""
    from vtlint.analyzer.files import discover

    try:
        words = shlex.split(command)
    except ValueError:
        words = []
    named = [base / word for word in words for base in (Path.cwd(), config.root)]
    sources = [f.path for f in discover([config.root], config).files]
    return [*named, *sources, *([config.config_file] if config.config_file else [])]


@main.command("merge")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path, dir_okay=False))
@click.option("--output", "-o", type=click.Path(path_type=Path, dir_okay=False), help="Write the merged log to FILE (atomically) instead of stdout.")
@click.option("--category", help="Category of the merged run [default: the runs' own, which must agree].")
def merge_cmd(files: tuple[Path, ...], output: Path | None, category: str | None) -> None:
    """Merge vtlint SARIF logs (shards, static and runtime runs) into one run,
    without duplicates; runtime evidence upgrades a static prediction."""
    from vtlint.report.sarif_merge import MergeError, merge_files

    try:
        text = merge_files(files, category)
    except MergeError as exc:
        raise UsageFault(str(exc)) from None
    if output is None:
        sys.stdout.write(text)
        return
    try:
        write_atomic(output, text, files)
    except OSError as exc:
        raise UsageFault(f"cannot write {output}: {exc.strerror}") from None


@main.command("rules")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--refresh", is_flag=True, help="Rebuild the trace_rules snapshot from the installed torch first.")
def rules_cmd(fmt: str, refresh: bool) -> None:
    """List every rule: code, name, default level, what it predicts."""
    if refresh:
        _refresh_trace_rules()
    rules = all_rules()
    if fmt == "json":
        import json

        rows = [{"code": c, "name": r.name, "kind": r.kind.value, "level": r.level.value,
                 "default_enabled": r.default_enabled, "summary": r.summary, "url": r.doc_url()}
                for c, r in rules.items()]
        click.echo(json.dumps(rows, indent=2))
        return
    from rich.table import Table

    table = Table(show_edge=False, box=None, pad_edge=False)
    for column in ("code", "name", "level", "kind", "what it predicts"):
        table.add_column(column, no_wrap=column != "what it predicts")
    for code, rule in rules.items():
        level = rule.level.value + ("" if rule.default_enabled else " (opt-in)")
        table.add_row(code, rule.name, level, rule.kind.value, rule.summary)
    Console(width=max(120, Console().width)).print(table)


def _refresh_trace_rules() -> None:
    """Rebuild the snapshot of torch's trace_rules and graph-break registry (imports torch in a subprocess)."""
    from vtlint.rules.trace_rules.snapshot import refresh

    try:
        snap = refresh()
    except RuntimeError as exc:
        raise UsageFault(str(exc)) from None
    data = snap.data
    click.echo(f"trace_rules snapshot for torch {snap.torch_version}: {len(data['torch_functions'])} torch functions, "
               f"{len(data['registry'])} graph-break types -> {snap.path}", err=True)
    for piece, why in sorted(data.get("lost", {}).items()):  # what this torch lacks: the rest is its own
        click.echo(f"  lost {piece}: {why}", err=True)


@main.command("rule")
@click.argument("code")
def rule_cmd(code: str) -> None:
    """Print the whole documentation of the rule CODE."""
    rule = get_rule(code)
    if rule is None:
        raise UsageFault(f"unknown rule code {code!r} (see `vtlint rules`)")
    click.echo(rule.documentation(), nl=False)


@main.command("lsp")
@click.option("--stdio", is_flag=True, help="Talk LSP over stdin/stdout (the default and only transport).")
def lsp_cmd(stdio: bool) -> None:
    """Run the language server (used by the VS Code extension)."""
    from vtlint.lsp.server import serve

    serve()

"""The runtime part of the text report: which entries the harness exercised,
how many times each compiled, and what Inductor generated."""

from __future__ import annotations

from typing import Any


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _entry_line(entry: dict[str, Any]) -> str:
    frames = entry.get("frames") or {}
    resumes = sum(n for name, n in frames.items() if name.startswith("torch_dynamo_resume_in_"))
    parts = [_plural(int(entry.get("compiles", 0)), "compile")
             + (f" (+{_plural(resumes, 'resume-frame compile')})" if resumes else ""),
             _plural(int(entry.get("graph_count", 0)), "graph")]
    if entry.get("graph_breaks"):
        parts.append(_plural(int(entry["graph_breaks"]), "graph break"))
    if entry.get("recompile_limit_hit"):
        parts.append("hit the recompile limit: falls back to eager")
    elif entry.get("frame_skipped"):
        parts.append("frame skipped: runs eagerly")
    via = entry.get("via") or {}
    shown = "; ".join(f"compiled as `{code}` of {where}" for code, where in via.items())
    return f"  {entry['entry']}: {', '.join(parts)}" + (f" ({shown})" if shown else "")


def _unlinked_line(item: dict[str, Any]) -> str:
    return (f"  not linked: `{item.get('code')}` of {item.get('file')}, "
            f"{_plural(int(item.get('compiles') or 0), 'compile')}: {item.get('why')}")


def coverage_lines(runtime: dict[str, Any]) -> list[str]:
    harness = runtime.get("harness") or {}
    entries = runtime.get("entries") or []
    if harness.get("command"):
        if harness.get("not_started"):
            status = "could not start"
        elif harness.get("timed_out"):
            status = "timed out"
        else:
            status = f"exited {harness.get('exit_code')}"
        head = f"Runtime: `{harness['command']}` {status} after {float(harness.get('duration_s') or 0):.1f} s"
    else:
        head = "Runtime: saved facts"
    version = runtime.get("torch_version")
    head += f" (torch {version})" if version else ""
    head += f"; exercised {len(entries)} compiled entr{'y' if len(entries) == 1 else 'ies'}"
    head += f", {_plural(int(runtime.get('compiles') or 0), 'compile')}" + (":" if entries else ".")
    unlinked = runtime.get("unlinked") or []
    if unlinked and not entries:
        head = head.rstrip(".") + ": the compiled code could not be linked to a project function:"
    lines = [head, *(_entry_line(e) for e in entries), *(_unlinked_line(u) for u in unlinked)]
    kernels = runtime.get("kernels") or {}
    if kernels.get("triton"):
        lines.append(f"Kernels: {_plural(int(kernels['triton']), 'Triton kernel')} on the GPU")
    elif kernels.get("cpp"):
        lines.append(f"Kernels: {_plural(int(kernels['cpp']), 'C++ kernel')} for the CPU (Triton kernels need a GPU)")
    return lines

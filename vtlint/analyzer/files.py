"""Which files a run analyzes, and reading them: Ruff's discovery rules
(include/exclude globs, .gitignore via pathspec) and Python's own encoding rules."""

from __future__ import annotations

import codecs
import io
import os
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

import pathspec

from vtlint.bounded import MAX_SOURCE_BYTES, MiB, kind_of, read_bytes, read_lines
from vtlint.config import Config
from vtlint.findings import Level, Location, Notification

# A .gitignore is a few hundred patterns; pathspec compiles each into a regex and tries them all on
# every path (5,000 patterns: 0.5 s to compile, 0.7 ms a path), so one far past that is not applied.
MAX_GITIGNORE_BYTES = 1 * MiB
MAX_GITIGNORE_LINE = 4096
MAX_GITIGNORE_PATTERNS = 5000


@dataclass(frozen=True)
class SourceFile:
    path: Path  # absolute
    display: str  # POSIX path relative to the project root (or as given when outside it)


@dataclass(frozen=True)
class Discovery:
    files: list[SourceFile]
    missing: list[str]  # paths given on the command line that do not exist
    notifications: list[Notification]


def resolved(path: Path) -> Path:
    """`path.resolve()`, or its absolute spelling for a symlink loop (which
    Python 3.11 reports as RuntimeError, later versions as OSError)."""
    try:
        return path.resolve()
    except (RuntimeError, OSError):
        return Path(os.path.abspath(path))


def display_path(path: Path, root: Path) -> str:
    try:
        return resolved(path).relative_to(root).as_posix()
    except ValueError:
        return Path(os.path.relpath(resolved(path), root)).as_posix() if path.is_absolute() else path.as_posix()


def gitignore_spec(folder: Path, root: Path) -> tuple[pathspec.GitIgnoreSpec | None, Notification | None]:
    """The patterns of `folder`'s .gitignore, read bounded; a file that cannot be read,
    is too large to apply or holds a pattern pathspec cannot compile is skipped, with a
    notification saying so (the files it would hide are analyzed)."""
    ignore_file = folder / ".gitignore"
    if not ignore_file.is_file():
        return None, None
    try:
        lines = read_lines(ignore_file, MAX_GITIGNORE_BYTES, MAX_GITIGNORE_LINE)
    except OSError as exc:
        return None, _skipped(ignore_file, root, exc.strerror or str(exc))
    patterns = sum(1 for line in lines if line.strip() and not line.startswith("#"))
    if patterns > MAX_GITIGNORE_PATTERNS:
        return None, _skipped(ignore_file, root, f"{patterns:,} patterns (vtlint applies at most "
                                                 f"{MAX_GITIGNORE_PATTERNS:,})")
    try:
        return pathspec.GitIgnoreSpec.from_lines(lines), None
    except (ValueError, re.error) as exc:  # pathspec's GitIgnorePatternError is a ValueError
        return None, _skipped(ignore_file, root, f"invalid pattern: {exc}")


def _skipped(ignore_file: Path, root: Path, why: str) -> Notification:
    return Notification("io-error", f"{display_path(ignore_file, root)}: skipped, its patterns are not applied: {why}",
                        Level.WARNING)


class _Filter:
    """Exclude globs (matched against the path below the root and against each
    name, as Ruff does) plus the .gitignore files met on the way down."""

    def __init__(self, config: Config) -> None:
        self.root = config.root
        patterns = [*config.exclude, *config.extend_exclude]
        self.exclude = pathspec.GitIgnoreSpec.from_lines(patterns)
        self.include = pathspec.GitIgnoreSpec.from_lines(config.include)
        self.respect_gitignore = config.respect_gitignore
        self._gitignores: dict[Path, pathspec.GitIgnoreSpec | None] = {}
        self.notes: list[Notification] = []  # the .gitignore files skipped

    def _rel(self, path: Path) -> str | None:
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return None

    def excluded(self, path: Path, is_dir: bool) -> bool:
        rel = self._rel(path)
        probe = (rel or path.name) + ("/" if is_dir else "")
        if self.exclude.match_file(probe) or self.exclude.match_file(path.name + ("/" if is_dir else "")):
            return True
        if self.respect_gitignore:
            for folder in self._ignore_folders(path):
                spec = self._gitignore(folder)
                if spec is None:
                    continue
                below = path.relative_to(folder).as_posix() + ("/" if is_dir else "")
                if spec.match_file(below):
                    return True
        return False

    def _gitignore(self, folder: Path) -> pathspec.GitIgnoreSpec | None:
        if folder not in self._gitignores:
            self._gitignores[folder], note = gitignore_spec(folder, self.root)
            self.notes.extend([note] if note else [])
        return self._gitignores[folder]

    def _ignore_folders(self, path: Path) -> list[Path]:
        """The folders from the root down to `path`'s parent that may hold a .gitignore."""
        if self._rel(path) is None:
            return [path.parent]
        folders = [self.root]
        for part in path.relative_to(self.root).parts[:-1]:
            folders.append(folders[-1] / part)
        return folders

    def included(self, path: Path) -> bool:
        return self.include.match_file(path.name)


def discover(paths: list[Path], config: Config) -> Discovery:
    """Every Python file under `paths`, sorted, without duplicates. Files named
    explicitly are analyzed even when excluded (as Ruff does without --force-exclude)."""
    filt = _Filter(config)
    seen: set[Path] = set()
    files: list[SourceFile] = []
    missing: list[str] = []
    notes: list[Notification] = []

    def add(path: Path) -> None:
        resolved = path.resolve()
        if resolved not in seen:
            seen.add(resolved)
            files.append(SourceFile(resolved, display_path(resolved, config.root)))

    for given in paths:
        if not given.exists() and not given.is_symlink():
            missing.append(str(given))
            continue
        absolute = Path(os.path.abspath(given))
        if absolute.is_file():
            add(absolute)
            continue
        if not absolute.is_dir():
            notes.append(Notification("io-error", f"{given}: {_not_a_file(absolute)}"))
            continue
        for folder, dirnames, filenames in os.walk(absolute, onerror=lambda e: notes.append(_walk_error(e, config))):
            here = Path(folder)
            dirnames[:] = sorted(d for d in dirnames if not filt.excluded(here / d, is_dir=True))
            for name in sorted(filenames):
                candidate = here / name
                if filt.included(candidate) and not filt.excluded(candidate, is_dir=False):
                    link = (Path(display_path(here, config.root)) / name).as_posix()  # the link, not its target
                    if candidate.is_file() and candidate.is_symlink() and _leaves(candidate, (config.root, absolute)):
                        notes.append(Notification("io-error", f"{link}: a symlink to a file outside the project, "
                                                              "not read"))
                    elif candidate.is_file():
                        add(candidate)
                    elif candidate.is_symlink() or candidate.exists():
                        notes.append(Notification("io-error", f"{link}: {_not_a_file(candidate)}, skipped"))
    files.sort(key=lambda f: f.display)
    return Discovery(files, missing, notes + filt.notes)


def _leaves(link: Path, folders: tuple[Path, ...]) -> bool:
    """Whether a symlink met while walking points outside every one of `folders` (the project
    root and the folder walked): its target is not the project's to read (`x.py -> /etc/passwd`)."""
    target = resolved(link)
    return not any(target == folder or folder in target.parents for folder in map(resolved, folders))


def _not_a_file(path: Path) -> str:
    """Why `path` is not analyzed: a broken symlink, or what it is instead of a file."""
    try:
        return f"not a file or directory ({kind_of(path.stat().st_mode)})"
    except (OSError, RuntimeError):
        return "broken symlink (missing target or a loop)"


def _walk_error(error: OSError, config: Config) -> Notification:
    where = display_path(Path(error.filename), config.root) if error.filename else "?"
    return Notification("io-error", f"{where}: cannot list directory: {error.strerror}")


class SourceError(Exception):
    """A file that cannot be read or decoded; carries a located message."""

    def __init__(self, message: str, location: Location) -> None:
        super().__init__(message)
        self.location = location


def read_source(file: SourceFile) -> str:
    """The file's text, decoded as Python decodes it (BOM, coding cookie, UTF-8); a file
    that is not regular or is over MAX_SOURCE_BYTES is a SourceError, never read."""
    try:
        data = read_bytes(file.path, MAX_SOURCE_BYTES)
    except OSError as exc:
        raise SourceError(f"cannot read file: {exc.strerror}", Location(file.display, 1, 1)) from None
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):  # also the UTF-32 BOMs
            raise SourceError("UTF-16/UTF-32 byte-order mark: Python reads source as UTF-8 or the codec "
                              "of a coding cookie", Location(file.display, 1, 1)) from None
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            encoding = "utf-8"  # no cookie and not UTF-8: the decode below names the bad byte and its line
        else:
            raise SourceError(f"bad encoding declaration: {exc.msg}", Location(file.display, 1, 1)) from None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise SourceError(
            f"not valid {encoding}: byte 0x{data[exc.start]:02x} at offset {exc.start}",
            Location(file.display, line, 1),
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text

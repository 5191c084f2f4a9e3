"""Analyze a set of files as one project (entries may inline across modules)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import libcst as cst

from vtlint.analyzer.api import FileProblem, Prediction
from vtlint.analyzer.files import SourceError, SourceFile, read_source
from vtlint.config import Config
from vtlint.findings import Kind, Location


def parse_error_location(exc: cst.ParserSyntaxError, display: str) -> Location:
    return Location(display, exc.raw_line, exc.raw_column + 1)


def analyze(
    files: list[SourceFile],
    config: Config,
    *,
    jobs: int = 1,
    use_cache: bool = True,
    progress: Callable[[int, int], None] | None = None,
    overrides: dict[Path, str] | None = None,
) -> Prediction:
    """`overrides` maps absolute paths to unsaved text (the editor's buffers)."""
    prediction = Prediction()
    for done, file in enumerate(files, 1):
        if progress:
            progress(done, len(files))
        try:
            text = overrides[file.path] if overrides and file.path in overrides else read_source(file)
        except SourceError as exc:
            prediction.problems.append(FileProblem(Kind.IO_ERROR, exc.location, str(exc)))
            continue
        prediction.texts[file.display] = text
        try:
            cst.parse_module(text)
        except cst.ParserSyntaxError as exc:
            prediction.problems.append(
                FileProblem(Kind.SYNTAX_ERROR, parse_error_location(exc, file.display), f"SyntaxError: {exc.message}")
            )
    return prediction

"""Static analysis of program folders, one project each.

A program is `model.py` + `train.py` that import each other as scripts do
(`from model import GPT`). Several such folders in one project would share the
module name `model`, which no real project does; so each folder is analyzed as
its own project (as `cd NAME && vtlint check .` would), and its events are
moved back under the folder's path so they join with the runtime facts."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from vtlint.analyzer import Prediction, analyze
from vtlint.analyzer.files import discover
from vtlint.config import Config
from vtlint.findings import Related
from vtlint.trace import Event

CRASHED: list[str] = []  # what the static pass crashed on: "group: error" (their facts count as misses)


def _move(path: str, prefix: str) -> str:
    return path if path.startswith("/") else prefix + path


def _move_entry(name: str, prefix: str) -> str:
    path, sep, qual = name.rpartition(":")
    return f"{_move(path, prefix)}{sep}{qual}" if sep and path.endswith(".py") else name


def _move_related(items: tuple[Related, ...], prefix: str) -> tuple[Related, ...]:
    return tuple(replace(r, location=replace(r.location, path=_move(r.location.path, prefix))) for r in items)


def rebase(event: Event, prefix: str) -> Event:
    """The same event with project paths under `prefix` (e.g. `programs/nanogpt/`)."""
    return event.with_(location=replace(event.location, path=_move(event.location.path, prefix)),
                       entry=_move_entry(event.entry, prefix),
                       callee=_move_entry(event.callee, prefix) if event.callee else None,
                       chain=_move_related(event.chain, prefix), related=_move_related(event.related, prefix))


def analyze_each(folders: list[Path], base: Path) -> Prediction:
    """Analyze every folder as its own project, with the entries the static pass discovers."""
    merged = Prediction()
    for folder in folders:
        prefix = folder.relative_to(base).as_posix() + "/"
        config = Config(root=folder)
        files = discover([folder], config).files
        try:
            prediction = analyze(files, config, jobs=1, use_cache=True)
        except Exception as exc:  # noqa: BLE001 - an analyzer crash is a result to report
            CRASHED.append(f"{prefix.rstrip('/')}: {type(exc).__name__}: {str(exc)[:120]}")
            continue
        merged.events += [rebase(e, prefix) for e in prediction.events]
        merged.texts.update({_move(k, prefix): v for k, v in prediction.texts.items()})
        merged.entries += [replace(i, entry=_move_entry(i.entry, prefix),
                                   location=replace(i.location, path=_move(i.location.path, prefix)))
                           for i in prediction.entries]
        merged.notifications += prediction.notifications
        merged.problems += prediction.problems
    return merged


def save_prediction(prediction: Prediction, path: Path) -> None:
    """The predicted events and texts, to score later against another run's facts
    (e.g. an older analyzer's predictions against the current runtime's truth)."""
    path.write_text(json.dumps({"events": [e.to_dict() for e in prediction.events], "texts": prediction.texts,
                                "crashed": CRASHED}), encoding="utf-8")


def load_prediction(path: Path) -> Prediction:
    data = json.loads(path.read_text(encoding="utf-8"))
    CRASHED.extend(data.get("crashed", []))
    return Prediction(events=[Event.from_dict(e) for e in data["events"]], texts=data["texts"])

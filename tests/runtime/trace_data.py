"""Structured-trace logs as test data: their entries, and moving them between roots
(checksums kept valid)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator


def log_entries(text: str) -> Iterator[tuple[str, str, list[str]]]:
    """(prefix, JSON header, payload lines) of each entry: a header line `PREFIX] {...}`
    followed by its payload, one tab-indented line each."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        head = lines[i]
        i += 1
        payload = []
        while i < len(lines) and lines[i].startswith("\t"):
            payload.append(lines[i][1:])
            i += 1
        if head:
            prefix, _, body = head.partition("] ")
            yield prefix, body, payload


def relocate_log(text: str, old: str, new: str) -> str:
    """Rewrite a root in a structured-trace log, keeping payload checksums valid."""
    out: list[str] = []
    for prefix, body, payload in log_entries(text):
        data = json.loads(body.replace(old, new))
        if "has_payload" in data:
            moved = "\n".join(payload).replace(old, new)
            data["has_payload"] = hashlib.md5(moved.encode()).hexdigest()
            out.append(f"{prefix}] {json.dumps(data)}")
            out.extend("\t" + line for line in moved.split("\n"))
        else:
            out.append(f"{prefix}] {json.dumps(data)}")
    return "\n".join(out) + "\n"

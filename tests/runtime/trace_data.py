"""Moving captured structured traces between roots (checksums kept valid)."""

from __future__ import annotations

import hashlib
import json


def relocate_log(text: str, old: str, new: str) -> str:
    """Rewrite a root in a structured-trace log, keeping payload checksums valid."""
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        head = lines[i]
        i += 1
        payload = []
        while i < len(lines) and lines[i].startswith("\t"):
            payload.append(lines[i][1:])
            i += 1
        if not head:
            continue
        prefix, _, body = head.partition("] ")
        data = json.loads(body.replace(old, new))
        if "has_payload" in data:
            moved = "\n".join(payload).replace(old, new)
            data["has_payload"] = hashlib.md5(moved.encode()).hexdigest()
            out.append(f"{prefix}] {json.dumps(data)}")
            out.extend("\t" + line for line in moved.split("\n"))
        else:
            out.append(f"{prefix}] {json.dumps(data)}")
    return "\n".join(out) + "\n"

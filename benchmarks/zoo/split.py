"""The zoo's held-out discipline: every model family (a transformers model_type, a diffusers
module) falls deterministically in the development part (about a third) or the held-out part,
by a hash of its name, never by a choice. The analyzer's work is driven from the development
part; the held-out part is scored only as a whole (`run.py` prints its totals first and never
its cases)."""

from __future__ import annotations

import hashlib

DEVELOPMENT, HELD_OUT = "development", "held-out"


def part(family: str) -> str:
    digest = int(hashlib.sha256(family.encode()).hexdigest(), 16)
    return DEVELOPMENT if digest % 3 == 0 else HELD_OUT

"""Where a finding's display path (relative to the project root) lands in the
repository: GitHub resolves SARIF URIs and annotation paths against the checkout,
which may be above the project root (a pyproject.toml in a subfolder)."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import sarif_om as om

SRCROOT = "%SRCROOT%"


@dataclass(frozen=True)
class Paths:
    """Where display paths (relative to the project root) land in the repository."""

    root: Path  # the project root: display paths are relative to it
    checkout: Path  # the repository root GitHub resolves %SRCROOT% against

    @classmethod
    def for_root(cls, root: Path) -> Paths:
        root = root.resolve()
        checkout = next((p for p in [root, *root.parents] if (p / ".git").exists()), root)
        return cls(root, checkout)

    def repo_relative(self, display: str) -> str | None:
        """`display` relative to the checkout, or None when it lies outside it."""
        absolute = Path(display) if Path(display).is_absolute() else self.root / display
        joined = posixpath.normpath(Path(absolute).as_posix())
        try:
            return Path(joined).relative_to(self.checkout).as_posix()
        except ValueError:
            return None

    def artifact(self, display: str) -> om.ArtifactLocation:
        relative = self.repo_relative(display)
        if relative is not None:
            return om.ArtifactLocation(uri=quote(relative, safe="/"), uri_base_id=SRCROOT)
        absolute = Path(display) if Path(display).is_absolute() else self.root / display
        return om.ArtifactLocation(uri=Path(posixpath.normpath(absolute.as_posix())).as_uri())

    def checkout_uri(self) -> str:
        return self.checkout.as_uri().rstrip("/") + "/"

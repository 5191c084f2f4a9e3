"""Where a finding's display path (relative to the project root) lands in the
repository: GitHub resolves SARIF URIs and annotation paths against the checkout,
which may be above the project root (a pyproject.toml in a subfolder). A file of an
installed package (`<site-packages>/pkg/mod.py`) has its own URI base, SITE_PACKAGES,
left unresolved: the machine's virtualenv path is nobody else's."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import sarif_om as om

SRCROOT = "%SRCROOT%"
SITE_PACKAGES = "SITE_PACKAGES"
INSTALLED = "<site-packages>/"  # how reports name a file inside an install folder (report/shareable.py)


def installed(display: str) -> str | None:
    """The path inside site-packages of an installed file's display path, else None."""
    return display[len(INSTALLED):] if display.startswith(INSTALLED) else None


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
        """`display` relative to the checkout, or None when it lies outside it (an
        installed file is never inside it)."""
        if installed(display) is not None:
            return None
        absolute = Path(display) if Path(display).is_absolute() else self.root / display
        joined = posixpath.normpath(Path(absolute).as_posix())
        try:
            return Path(joined).relative_to(self.checkout).as_posix()
        except ValueError:
            return None

    def artifact(self, display: str) -> om.ArtifactLocation:
        inside = installed(display)
        if inside is not None:
            return om.ArtifactLocation(uri=quote(inside, safe="/"), uri_base_id=SITE_PACKAGES)
        relative = self.repo_relative(display)
        if relative is not None:
            return om.ArtifactLocation(uri=quote(relative, safe="/", errors="surrogateescape"), uri_base_id=SRCROOT)
        absolute = Path(display) if Path(display).is_absolute() else self.root / display
        return om.ArtifactLocation(uri=Path(posixpath.normpath(absolute.as_posix())).as_uri())

    def outside(self, display: str) -> bool:
        """A project file outside the repository: an absolute `file:` URI (not an installed one)."""
        return installed(display) is None and self.repo_relative(display) is None

    def checkout_uri(self) -> str:
        return self.checkout.as_uri().rstrip("/") + "/"


def uri_base_ids(paths: Paths, displays: list[str]) -> dict[str, om.ArtifactLocation]:
    """`originalUriBaseIds`: the checkout, and SITE_PACKAGES (described, without a URI)
    when a location lies in an installed package."""
    bases = {SRCROOT: om.ArtifactLocation(uri=paths.checkout_uri())}
    if any(installed(d) is not None for d in displays):
        bases[SITE_PACKAGES] = om.ArtifactLocation(description=om.Message(
            text="The site-packages folder of the Python environment vtlint analyzed with."))
    return bases

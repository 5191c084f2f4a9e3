"""The static pass: files -> a predicted trace. Never imports or runs user code."""

from vtlint.analyzer.api import EntryInfo, FileProblem, Prediction
from vtlint.analyzer.project import analyze

__all__ = ["EntryInfo", "FileProblem", "Prediction", "analyze"]

"""vtlint: what torch.compile (Dynamo) will do with your code, before and after you run it."""

__version__ = "0.1.0"

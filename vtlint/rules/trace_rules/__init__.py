"""The trace_rules adapter: `torch/_dynamo/trace_rules.py` and the graph-break
registry of the installed torch, as a JSON snapshot the static pass reads without
importing torch (see `snapshot` and `build`)."""

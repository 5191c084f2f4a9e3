"""The rule catalog (VTL codes and the graph-break registry) and the trace_rules adapter."""

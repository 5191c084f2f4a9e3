"""The runtime half of vtlint: run a harness under Dynamo's structured trace
(TORCH_TRACE), parse the trace into facts, and turn the facts into the same
kind of events the static analyzer predicts."""

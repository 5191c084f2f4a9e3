"""Reliability and security: bad input, injected faults and fuzzing (CI runs all of
it as part of `make test`). What it covers, by count of cases:

- Bad inputs (about 145): 29 broken source files (corpus.py) and sparse, FIFO and
  device "sources" (test_bad_input.py); 8 hostile config values and 4 bad timeout
  options (test_config_values.py); 12 schema-breaking and 6 raw-junk SARIF logs for
  `merge`/`--baseline` plus FIFO and /dev/zero inputs (test_sarif_inputs.py); 5
  hostile traces, 5 malformed probe records and 3 hostile facts files
  (test_hostile_traces.py); forged, moved, FIFO, device, folder and oversized cache
  entries (test_cache.py); 45 malformed frames and JSON-RPC messages sent to the
  language server: bad headers, bad JSON, wrong param types, unknown methods, bad ids,
  requests on unopened and non-file URIs, a second initialize (test_lsp_fuzz.py).
- Faults (about 37): a harness killed, flooding or writing junk, a full disk
  (test_faults.py); a harness's child left running after it exits, vtlint stopped
  by SIGTERM or SIGINT mid-harness, a harness ignoring SIGTERM past its timeout, a
  parent folder's harness command named with where it runs
  (test_processes.py); report destinations that are inputs, symlinks, FIFOs, devices,
  a full device, a full or closed stdout, Ctrl-C with and without workers
  (test_output.py); budgets and limits (test_limits.py); shards losing nothing on a
  200-file cross-file tree (test_shards.py); concurrent runs and caches
  (test_determinism.py); the static pass never running user code (test_safety.py);
  the language server's `exit` with and without `shutdown` (test_lsp_fuzz.py).
- Fuzz cases (191 by default, VTLINT_FUZZ_EXAMPLES=N for more): 40 generated
  programs and 25 mutated examples through the analyzer (test_fuzz.py), 60 SARIF
  logs with one node replaced by arbitrary JSON through `merge` and `--baseline`
  (test_sarif_inputs.py); against the real `vtlint lsp` process, 6 seeded edit
  sequences of 40 edits each (random unicode, out-of-range and reversed ranges,
  whole-text changes, 40,000-character lines, then a check that the edited buffer lints
  as the same text opened fresh) and 60 LSP messages with one node replaced by
  arbitrary JSON (test_lsp_fuzz.py)."""

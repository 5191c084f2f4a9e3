"""Reliability and security: bad input, injected faults and fuzzing (CI runs all of
it as part of `make test`). What it covers, by count of cases:

- Bad inputs (about 215): 30 source files, 21 broken and 9 valid but unusual (corpus.py), and
  sparse, FIFO and device "sources" (test_bad_input.py); 8 hostile config values and 4 bad timeout
  options, 12 values of the wrong type or depth anywhere in [tool] (each in the
  project's pyproject.toml and in a parent's), a huge and a FIFO config
  (test_config_values.py); 6 hostile .gitignore files, a FIFO one (test_gitignore.py);
  5 unusable cached trace_rules snapshots (FIFO, /dev/zero, 100,000 `[`, over the size
  cap, wrong types), each rebuilt and said, 3 of them through a real run
  (test_snapshot_reading.py); 13 saved facts files with a field of the wrong type
  (test_hostile_facts.py); a symlink leaving the project, a fake torch/ in it, a
  baseline whose results are not a list, terminal escapes, a newline and rich markup
  in file names, secrets in harness output (test_edges.py); 12 schema-breaking and 6
  raw-junk SARIF logs for `merge`/`--baseline` plus FIFO and /dev/zero inputs
  (test_sarif_inputs.py); 5 hostile traces, 5 malformed probe records, 3 hostile
  facts files and 4 files a trace names (a FIFO, one over the size cap, a link to /dev/zero,
  one outside the project) (test_hostile_traces.py); the files the language server reads
  on its own: 4 broken pyproject.toml files it locates (`tool = 5`, a date, a 100,000-deep
  array, one over the size cap), and a FIFO, an oversized file and a link to /dev/zero a
  finding points into (test_lsp_reading.py); forged, moved, FIFO, device, folder and
  oversized cache entries (test_cache.py); the cold/warm comparison: the 30 corpus
  files, 2 unreadable ones and the 23 denial-of-service inputs of test_sandbox.py, each
  checked after a run that cached another set of files, warm and with --no-cache, byte
  for byte, plus walks cached without an unreadable file and a changed installed source
  (test_cache_truth.py); 45 malformed
  frames and JSON-RPC messages sent to the language server: bad headers, bad JSON,
  wrong param types, unknown methods, bad ids, requests on unopened and non-file URIs,
  a second initialize (test_lsp_fuzz.py); the abstract interpreter's 23 denial-of-service
  inputs (values grown without bound in a script's `__main__` and in compiled code, ranges of
  10**12, string blow-ups, a YAML alias bomb, 2,000-term sums and 5,000-term `and` chains),
  each run in a child under 2 s of CPU and 500 MB, plus 9 tests of how they are noted and
  cut (a 1,000-deep nn.Module class chain, a 20,000-element literal, the 200,000-element one
  refused at the token bound, a 10,000-term chain LibCST cannot parse) (test_sandbox.py).
- Faults (about 45): a harness killed, flooding or writing junk, a full disk
  (test_faults.py); a harness's child left running after it exits, vtlint stopped by
  SIGTERM or SIGINT mid-harness, a harness ignoring SIGTERM past its timeout, a parent
  folder's harness command named with where it runs (test_processes.py); report
  destinations that are inputs, symlinks, FIFOs, devices, a full device, a full or
  closed stdout, Ctrl-C with and without workers (test_output.py); `trace -o` onto its
  inputs, `--help` into a full stdout, an unwritable stderr, `| head -3`, `-j 64` on
  fewer cores (test_output.py, test_edges.py); a harness flooding the trace folder
  with 20 M lines (test_hostile_traces.py); the GitHub action's install step in a
  checkout holding pip/__main__.py (test_action_isolation.py); budgets and limits
  (test_limits.py); shards losing nothing on a 200-file cross-file tree
  (test_shards.py); concurrent runs and caches (test_determinism.py); the static pass
  never running user code (test_safety.py); the language server's `exit` with and
  without `shutdown` (test_lsp_fuzz.py), and under its budgets: a slow lint cancelled by
  the next edit, another file's lint going first, `exit` during a lint, the first hover,
  settings of the wrong type, a buffer that is a device, a 2,000-term sum and a 5,000-term
  `and` chain shown as a diagnostic (8 tests, test_lsp_budget.py).
- Fuzz cases (291 by default, VTLINT_FUZZ_EXAMPLES=N for more): 40 generated programs
  and 25 mutated examples through the analyzer, and 40 generated programs run by the
  abstract interpreter as a script's `__main__` and a compiled body in a child under a
  memory cap, the count tried checked (test_fuzz.py, sandbox_fuzz.py), 60 SARIF logs with one
  node replaced by arbitrary JSON through `merge` and `--baseline`
  (test_sarif_inputs.py); 60 saved facts files, real ones with one node replaced by
  arbitrary JSON, through `--runtime-facts` in every format (test_hostile_facts.py);
  against the real `vtlint lsp` process, 6 seeded edit sequences of 40 edits each
  (random unicode, out-of-range and reversed ranges, whole-text changes,
  40,000-character lines, then a check that the edited buffer lints as the same text
  opened fresh) and 60 LSP messages with one node replaced by arbitrary JSON
  (test_lsp_fuzz.py)."""

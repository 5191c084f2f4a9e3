# The two set-up commands of the README: `make demo` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# torch first and pinned: the CPU build from the local wheel, never a multi-GB CUDA download.
TORCH  ?= torch==2.13.0
STAMP  := $(VENV)/.installed

.PHONY: install demo test test-fast e2e bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check $(TORCH)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# Static analysis of the bundled examples (exit 1 = findings, as expected), then
# the same with runtime confirmation from the examples' harness.
demo: $(STAMP)
	cd examples && ../$(BIN)/vtlint check . ; test $$? -le 1

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q

test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -m 'not torch'

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache

# Two commands do all the set-up: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# torch is pinned to the CPU build first, so sentence-transformers does not pull a CUDA build.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/gumshoe demo

test: $(STAMP)
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check reasoning formalize provers games benchmarks tests examples

typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/gumshoe bench provers --out bench-results

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis bench-results runs

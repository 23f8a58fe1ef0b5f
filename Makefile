# prp: two commands for a fresh machine — `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Tracing stays off unless the user turns it on: with tracing on and no network, LangSmith
# stalls process exit by about 100 s.
export LANGSMITH_TRACING ?= false
export LANGSMITH_TEST_TRACKING ?= false
export HF_HUB_OFFLINE ?= 1

.PHONY: setup demo test bench clean

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

test: setup
	$(BIN)/python -m pytest -q -ra

bench: setup
	$(BIN)/python benchmarks/ingest_throughput.py
	$(BIN)/python benchmarks/retrieval_qasper.py
	$(BIN)/python benchmarks/citation_resolution.py
	$(BIN)/python benchmarks/report_runs.py

clean:
	rm -rf $(VENV) .prp .pytest_cache demo-report.md demo-report.json

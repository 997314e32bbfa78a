# One task runner, used by people and by CI alike.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup ingest serve run test check check-repeatable check-audit bench bench-import bench-load bench-smoke bench-soak bench-overload

$(BIN)/isnad-graphql: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

setup: $(BIN)/isnad-graphql

ingest: setup
	$(BIN)/isnad-graphql ingest

serve: setup
	$(BIN)/isnad-graphql serve

# Build the database from ../shared/data, then serve it on http://127.0.0.1:8000/graphql
run: ingest serve

test: setup
	$(BIN)/pytest -q

check: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/isnad-graphql persisted-manifest --check
	$(BIN)/isnad-graphql check-readonly --code-only

# The same request gets the same answer, on the full database under concurrent load (CI runs it after
# the import): every tool's benchmark arguments, three rounds in shuffled orders; fails on any difference
check-repeatable: setup
	$(BIN)/python -m bench.repeatability

# The audit of the full database (CI runs it after the import): prints every measure, and fails where the import
# breaks a bar (no link a notice denies; the hand-checked rijal samples still LINKED and the same man)
check-audit: setup
	$(BIN)/isnad-graphql audit --check

bench-import: setup
	$(BIN)/python -m bench.import_bench

bench: setup
	$(BIN)/python -m bench.api_bench

# wrk on the eight tools and the anchor request, beside the floor and PostGraphile 4 (needs the full
# database from `make ingest`, wrk, and postgraphile@4 under /tmp/pg4); the searches also beside tantivy
# over the same texts (the search anchor)
bench-load: setup
	$(BIN)/python -m bench.load --search-anchor

# The same, short, for CI: prints the table; fails only when a server does not start or answers wrong
# data, never for speed; without wrk it checks the data only, without PostGraphile it runs the rest
bench-smoke: setup
	$(BIN)/python -m bench.load --smoke

# Memory under load: the API under 10 minutes of wrk mixing its nine requests, its RSS read every 15 s;
# prints the figures (RSS at the start, largest, at the end, growth, slope), judges none of them
bench-soak: setup
	$(BIN)/python -m bench.soak

# Overload: wrk at 32 then 1,000 connections on the production server, /healthz and /readyz probed every
# 100 ms, /metrics scraped; prints statuses (200/503/429/other), the refusals' envelope and Retry-After,
# the probes' p50/p99/max and admitted p99 at 1,000 against 32; judges none of them
bench-overload: setup
	$(BIN)/python -m bench.overload

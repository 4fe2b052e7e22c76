# The two commands a newcomer types: `make play` and `make test`.
# Both bootstrap .venv on a clean clone and are quick once it is set up.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: play test lint typecheck unit services bench peers native clean

$(STAMP): pyproject.toml
	@$(PY) -m venv $(VENV) 2>/dev/null || { apt-get update -q && apt-get install -y -q python3-venv && $(PY) -m venv $(VENV); }
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[dev]"
	@touch $(STAMP)

# MammuZ's hot modules compiled with mypyc (tools/compile.py); without a C compiler they stay
# pure Python (correct, slower), see tiergarten/core/native.py.
NATIVE_DIR := src/tiergarten/games/mammuz
NATIVE := $(NATIVE_DIR)/.native.json
$(NATIVE): $(STAMP) tools/compile.py src/tiergarten/core/native.py \
           $(wildcard $(NATIVE_DIR)/*.py $(NATIVE_DIR)/*.c)
	-$(BIN)/python tools/compile.py

native: $(NATIVE)

# The main job: the server with the browser client on http://127.0.0.1:8000 (Ctrl-C stops);
# it prints the addresses to open. `make play LAN=1` lets phones and laptops on the local
# network join: invite links and QR codes then use this machine's network address.
# In a terminal instead: .venv/bin/tiergarten play maumau --players me,heuristic,heuristic
play: $(STAMP) $(NATIVE)
	$(BIN)/tiergarten serve$(if $(filter 1 yes true,$(LAN)), --lan)

test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples tools

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP) $(NATIVE) services
	$(BIN)/pytest -n auto

# The tests start (and stop) a throwaway PostgreSQL, a headless chromium and tmux sessions (the
# terminal seen at 80x24) themselves; here we only make sure their binaries exist, installing
# Debian's packages when they do not (never a downloaded browser: Playwright drives
# /usr/bin/chromium).
services:
	@command -v pg_ctl >/dev/null || ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || \
	  { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql; }
	@test -x /usr/bin/chromium || { apt-get update -q && DEBIAN_FRONTEND=noninteractive \
	  apt-get install -y -q chromium fonts-noto-color-emoji fonts-dejavu; }
	@command -v tmux >/dev/null || { apt-get update -q && DEBIAN_FRONTEND=noninteractive \
	  apt-get install -y -q tmux; }

# Benchmarks (not part of `make test`): engine next to the peers, bots, the server under load
# on SQLite and PostgreSQL (when its binaries are installed, see `services`); writes
# benchmarks/results/latest.{json,md} and plots (~12 min).
# The peers (OpenSpiel, RLCard) live in their own venv, never in the project's.
PEERS := benchmarks/.peers
PEERS_STAMP := $(PEERS)/.installed-stamp

$(PEERS_STAMP):
	$(PY) -m venv $(PEERS)
	$(PEERS)/bin/python -m pip install -q --upgrade pip
	$(PEERS)/bin/python -m pip install -q open-spiel rlcard numpy
	@touch $(PEERS_STAMP)

peers: $(PEERS_STAMP)

bench: $(STAMP) $(NATIVE) $(PEERS_STAMP)
	$(BIN)/python benchmarks/bench.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build $(NATIVE)
	find src -name '*.so' -delete

# The two commands a newcomer types: `make play` and `make test`.
# Both bootstrap .venv on a clean clone and are quick once it is set up.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: play test lint typecheck unit services offline bench peers clean

# The editable install also builds MammuZ's optional C kernel (hatch_build.py) into the package,
# in place beside its source (src/tiergarten/games/mammuz/_kernel.*.so, ignored by git), so it
# is redone when the kernel's source or the hook changes; without a C compiler MammuZ is pure
# Python (the same games, slower). Every compiled file in src/ is removed first: the kernel's
# last build (the install builds it again, if it can) and any that older builds left there,
# which would shadow the sources.
KERNEL := src/tiergarten/games/mammuz/_kernel.c
$(STAMP): pyproject.toml hatch_build.py $(KERNEL)
	@$(PY) -m venv $(VENV) 2>/dev/null || { apt-get update -q && apt-get install -y -q python3-venv && $(PY) -m venv $(VENV); }
	find src \( -name '*.so' -o -name '.native.json' \) -delete
	$(BIN)/python -m pip install -q --upgrade pip
	@# PyICU (look-alike names, server/players/names.py) builds against the system's ICU
	@pkg-config --exists icu-uc icu-i18n 2>/dev/null && command -v g++ >/dev/null || \
	  { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q libicu-dev \
	    pkg-config g++; }
	$(BIN)/python -m pip install -q -e ".[dev]"
	@touch $(STAMP)

# Offline play (docs/web.md, "Offline"): Pyodide from the npm registry, the version and integrity
# hash pinned by tools/pyodide/package-lock.json (`npm ci`), its five files copied where the
# server serves them (src/tiergarten/web/offline/pyodide/, ignored by git). Never a CDN at run
# time. Redone only when the lock file changes.
PYODIDE_DIR := src/tiergarten/web/offline/pyodide
PYODIDE_STAMP := $(PYODIDE_DIR)/.stamp
PYODIDE_FILES := pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json
$(PYODIDE_STAMP): tools/pyodide/package.json tools/pyodide/package-lock.json
	@command -v npm >/dev/null || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm; }
	cd tools/pyodide && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
	mkdir -p $(PYODIDE_DIR)
	cd tools/pyodide/node_modules/pyodide && cp $(PYODIDE_FILES) $(CURDIR)/$(PYODIDE_DIR)/
	@touch $(PYODIDE_STAMP)

offline: $(PYODIDE_STAMP)

# The main job: the server with the browser client on http://127.0.0.1:8000 (Ctrl-C stops);
# it prints the addresses to open. `make play LAN=1` lets phones and laptops on the local
# network join: invite links and QR codes then use this machine's network address.
# In a terminal instead: .venv/bin/tiergarten play maumau --players me,heuristic,heuristic
play: $(STAMP) $(PYODIDE_STAMP)
	$(BIN)/tiergarten serve$(if $(filter 1 yes true,$(LAN)), --lan)

test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples hatch_build.py

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP) $(PYODIDE_STAMP) services
	$(BIN)/pytest -n auto --durations=30

# The tests start (and stop) a throwaway PostgreSQL, redis-server, Caddy, nginx, a headless chromium
# and tmux sessions (the terminal seen at 80x24) themselves, and check deploy/'s alert rules with
# promtool (Debian's prometheus package, never started); here we only make sure their
# binaries exist, installing Debian's packages when they do not (never a downloaded browser:
# Playwright drives /usr/bin/chromium).
services:
	@command -v pg_ctl >/dev/null || ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || \
	  { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql; }
	@command -v redis-server >/dev/null && command -v caddy >/dev/null && \
	  test -x /usr/sbin/nginx || \
	  { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
	    redis-server caddy nginx-light; }
	@test -x /usr/bin/chromium || { apt-get update -q && DEBIAN_FRONTEND=noninteractive \
	  apt-get install -y -q chromium fonts-noto-color-emoji fonts-dejavu; }
	@command -v tmux >/dev/null || { apt-get update -q && DEBIAN_FRONTEND=noninteractive \
	  apt-get install -y -q tmux; }
	@command -v promtool >/dev/null || { apt-get update -q && DEBIAN_FRONTEND=noninteractive \
	  apt-get install -y -q --no-install-recommends prometheus; }

# Benchmarks (not part of `make test`): engine next to the peers, bots, the server under load
# on SQLite and PostgreSQL (when its binaries are installed, see `services`); writes
# benchmarks/results/latest.{json,md} and plots (~12 min).
# The peers (OpenSpiel, RLCard) live in their own venv, never in the project's.
PEERS := benchmarks/.peers
PEERS_STAMP := $(PEERS)/.installed-stamp

$(PEERS_STAMP):
	$(PY) -m venv $(PEERS)
	$(PEERS)/bin/python -m pip install -q --upgrade pip
	$(PEERS)/bin/python -m pip install -q open-spiel rlcard numpy pettingzoo pygame
	@touch $(PEERS_STAMP)

peers: $(PEERS_STAMP)

bench: $(STAMP) $(PEERS_STAMP)
	$(BIN)/python benchmarks/bench.py
	$(BIN)/python benchmarks/levels_vs_openspiel.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build tools/pyodide/node_modules src/tiergarten/web/offline
	find src \( -name '*.so' -o -name '.native.json' \) -delete

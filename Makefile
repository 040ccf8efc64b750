# make run   set up .venv, migrate, load demo data if available, start the dev server
# make test  ruff, the whole pytest suite on SQLite, then its database-sensitive tests on PostgreSQL
# make lint  ruff, the import contracts and mypy; make format: apply ruff's fixes and formatting
# make lock  pin the dependencies again, within pyproject.toml's ranges, in requirements.lock
#
# Opt-outs for `make test`: SKIP_BROWSER_TESTS=1 (no Chromium), SKIP_POSTGRES=1 (SQLite only),
# SKIP_REDIS=1 (no redis-server).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

VENV := .venv
PYTHON := $(VENV)/bin/python
# The exact versions of every dependency, development tools included (make lock writes it).
LOCK := requirements.lock
# Records that the venv holds what the lock pins; reinstall when it or pyproject.toml changes.
INSTALLED := $(VENV)/.installed
ADDR ?= 127.0.0.1:8000
# pytest-xdist processes for `make test`: much of the suite waits on a browser or a server
# process, so two keep even a 2-core machine busy (`-n auto` may count only one core there).
TEST_WORKERS ?= 2

.PHONY: help run test lint format lock chromium redis icu deploy-check

help:
	@sed -n 's/^# \{0,1\}//p' Makefile | sed -n '1,6p'

$(PYTHON):
	python3 -m venv $(VENV)

# The pinned versions first, then the project itself without letting pip pick any other; a
# dependency pyproject.toml asks for that the lock lacks stops here.
$(INSTALLED): $(LOCK) pyproject.toml | $(PYTHON) icu
	$(PYTHON) -m pip install --requirement $(LOCK)
	$(PYTHON) -m pip install --no-deps --editable .
	$(PYTHON) -m pip check || { echo "$(LOCK) is behind pyproject.toml: run make lock" >&2; exit 1; }
	touch $@

# For any platform and Python 3.11 or newer, so one lock serves every machine.
lock: | $(PYTHON)
	$(PYTHON) -m pip install --quiet 'uv>=0.13,<0.14'
	$(VENV)/bin/uv pip compile pyproject.toml --extra dev --universal --python-version 3.11 \
	    --annotation-style line --custom-compile-command 'make lock' --output-file $(LOCK)

run: export DJANGO_DEBUG := 1
run: $(INSTALLED)
	$(PYTHON) manage.py migrate
	$(PYTHON) manage.py createcachetable
	if $(PYTHON) manage.py help demo >/dev/null 2>&1; then $(PYTHON) manage.py demo; fi
	$(PYTHON) manage.py runserver $(ADDR)

# Every test on SQLite; then, on PostgreSQL, those marked `postgres` (tests/conftest.py lists
# them): where the two databases differ. docs/development.md says what runs where. The second
# run empties a folder of its own, leaving the first run's screenshots in test-results/. Each
# run ends with its slowest tests (where the suite's time goes: docs/development.md).
test: $(INSTALLED) chromium redis lint deploy-check
	$(PYTHON) -m pytest -n $(TEST_WORKERS) --durations=15
ifeq ($(SKIP_POSTGRES),1)
	@echo "SKIP_POSTGRES=1: not running the tests marked postgres on PostgreSQL"
else
	tests/with-postgres.sh $(PYTHON) -m pytest -n $(TEST_WORKERS) -m postgres \
	    --durations=15 --output test-results/postgresql
endif

# PyICU (look-alike names) is built from source against the system's ICU; as root, install what
# the build needs when it is missing, so that `make run` stays one command on a fresh machine.
icu:
	@if ! pkg-config --exists icu-uc 2>/dev/null || ! command -v g++ >/dev/null \
	    || ! python3 -c 'import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then \
	    if [ "$$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then \
	        export DEBIAN_FRONTEND=noninteractive; \
	        packages="python3-dev libicu-dev pkg-config g++"; \
	        apt-get install -y $$packages || { apt-get update && apt-get install -y $$packages; }; \
	    else \
	        echo "PyICU needs ICU's headers, pkg-config, a C++ compiler and Python's headers:" \
	            "sudo apt-get install python3-dev libicu-dev pkg-config g++" >&2; \
	        exit 1; \
	    fi; \
	fi

# The browser tests drive the system Chromium; as root, install it when it is missing.
chromium:
ifeq ($(SKIP_BROWSER_TESTS),1)
	@echo "SKIP_BROWSER_TESTS=1: browser tests will be skipped"
else
	@if [ -z "$${CHROMIUM:-}" ] && ! command -v chromium >/dev/null \
	    && ! command -v chromium-browser >/dev/null; then \
	    if [ "$$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then \
	        export DEBIAN_FRONTEND=noninteractive; \
	        apt-get install -y chromium || { apt-get update && apt-get install -y chromium; }; \
	    else \
	        echo "Chromium not found: install it, set CHROMIUM=/path/to/chromium," \
	            "or run with SKIP_BROWSER_TESTS=1" >&2; \
	        exit 1; \
	    fi; \
	fi
endif

# The cache's Redis test starts a private redis-server; as root, install it when it is missing.
redis:
ifeq ($(SKIP_REDIS),1)
	@echo "SKIP_REDIS=1: the Redis test will be skipped"
else
	@if ! command -v redis-server >/dev/null; then \
	    if [ "$$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then \
	        export DEBIAN_FRONTEND=noninteractive; \
	        apt-get install -y redis-server || { apt-get update && apt-get install -y redis-server; }; \
	    else \
	        echo "redis-server not found: install it, or run with SKIP_REDIS=1" >&2; \
	        exit 1; \
	    fi; \
	fi
endif

# Production settings must pass Django's deployment checks with no warning at all.
deploy-check: $(INSTALLED)
	DJANGO_SECRET_KEY="$$($(PYTHON) -c 'import secrets; print(secrets.token_urlsafe(50))')" \
	DJANGO_HTTPS=1 DJANGO_ALLOWED_HOSTS=scores.example.com \
	    $(PYTHON) manage.py check --deploy --fail-level WARNING

lint: $(INSTALLED)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

format: $(INSTALLED)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

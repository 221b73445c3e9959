# Hive: `make run` starts everything on this machine; `make test` runs the whole suite.
# Both install what is missing first (Debian packages, the virtualenv, the dashboard build, migrations)
# and are cheap when it is already there.

SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
# Each port is a Hive of its own, with its own Redis (6390 beside port 8000, 6391 beside 8001 ...) and its own state:
# database, media, supervisord's socket, pid and log in var/ on port 8000, in var/<port>/ on another.
REDIS_PORT ?= $(shell echo $$((6390 + $(PORT) % 1000)))
STATE := $(if $(filter 8000,$(PORT)),var,var/$(PORT))
WORKER_CONCURRENCY ?= 16
HIVE_BIND ?= 127.0.0.1
export REDIS_URL ?= redis://127.0.0.1:$(REDIS_PORT)/0
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
FRONTEND_SOURCES := $(shell find frontend/src -type f 2>/dev/null) frontend/index.html frontend/vite.config.ts frontend/tsconfig.json

.PHONY: run test lint typecheck system venv frontend static migrate admin bench clean free-ports protocol

run: free-ports system venv frontend static migrate
	@echo ""
	@echo "  Hive is starting at http://localhost:$(PORT)/  (sign up there; admin: make admin PORT=$(PORT))"
	@echo ""
	HIVE_PORT=$(PORT) HIVE_REDIS_PORT=$(REDIS_PORT) WORKER_CONCURRENCY=$(WORKER_CONCURRENCY) \
		HIVE_BIND=$(HIVE_BIND) HIVE_VAR=$(CURDIR)/$(STATE) DJANGO_SETTINGS_MODULE=webapp.settings.local \
		PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/supervisord -c supervisord.conf

# A port already taken (another `make run`, or anything else) is named with the variable that moves it.
free-ports:
	@taken() { (exec 3<>/dev/tcp/127.0.0.1/$$1) 2>/dev/null; }; \
	port=$(PORT); redis=$(REDIS_PORT); busy=""; \
	if taken $$port; then busy="$$busy PORT=$$port"; port=$$((port + 1)); fi; \
	if taken $$redis; then busy="$$busy REDIS_PORT=$$redis"; redis=$$((redis + 1)); fi; \
	if [ -n "$$busy" ]; then \
		echo "make run: already in use (by another Hive, or another program):$$busy"; \
		echo "Run this one on free ports, e.g.: make run PORT=$$port REDIS_PORT=$$redis"; \
		exit 1; \
	fi

# The suite runs on PostgreSQL, the database compose deploys (a server the tests start themselves); SQLite, what
# `make run` uses, keeps the web app's own tests without a browser (models, services, APIs, migrations), which is
# where the two engines differ.
SQLITE_TESTS = tests/webapp -m "not browser and not slow"
# Test files are shared out among this many pytest processes, a file at a time (its fixtures start once), each with
# its own database server, Redis, web server and worker: the suite mostly waits on browsers and servers.
TEST_WORKERS ?= 2

test: system venv frontend static
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy agents browser_pool workers webapp bench tests
	$(VENV)/bin/lint-imports
	cd frontend && npm test --silent
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile
	HIVE_TEST_DB=sqlite $(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile $(SQLITE_TESTS)

lint: venv frontend/node_modules/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	cd frontend && npm run lint --silent

typecheck: venv
	$(VENV)/bin/mypy agents browser_pool workers webapp bench tests
	$(VENV)/bin/lint-imports

# Debian's Chromium, Redis, libmagic (which tells a downloaded file's type from its bytes) and PostgreSQL (for the
# tests), installed only when missing (never `playwright install`). Started as root, the worker runs Chromium as the
# system user hive-browser (browser_pool/sandbox.py), made here when missing.
system:
	@missing=""; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v redis-server >/dev/null || missing="$$missing redis-server"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	command -v node >/dev/null || missing="$$missing nodejs npm"; \
	command -v setpriv >/dev/null || missing="$$missing util-linux"; \
	ldconfig -p 2>/dev/null | grep -q 'libmagic\.so\.1 ' || missing="$$missing libmagic1"; \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
	@if [ "$$(id -u)" = 0 ] && ! getent passwd hive-browser >/dev/null; then \
		echo "Creating the system user hive-browser (Chromium runs as it when the worker runs as root)"; \
		useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin hive-browser; \
	fi

venv: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $@

frontend: frontend/dist/index.html

frontend/node_modules/.installed: frontend/package.json frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund --loglevel=error
	touch $@

frontend/dist/index.html: frontend/node_modules/.installed $(FRONTEND_SOURCES)
	cd frontend && npm run build --silent

# The dashboard's types of the websocket events (frontend/src/api/types/events.ts), generated from their Python
# definitions in webapp/core/events.py; a test fails when the committed file differs from what this writes.
protocol: venv frontend/node_modules/.installed
	$(PY) -m webapp.core.protocol_ts

# The dashboard build and Django's own static files, collected (and compressed) where WhiteNoise serves them.
static: staticfiles/.collected

staticfiles/.collected: $(VENV)/.installed frontend/dist/index.html
	DJANGO_SETTINGS_MODULE=webapp.settings.local $(PY) manage.py collectstatic --noinput --clear -v 0
	touch $@

migrate: venv
	mkdir -p $(STATE)
	HIVE_VAR=$(CURDIR)/$(STATE) DJANGO_SETTINGS_MODULE=webapp.settings.local $(PY) manage.py migrate --noinput

# Create the administrator (Django admin at /admin/): `make admin` prompts for a password (PORT=… for another stack).
admin: venv migrate
	HIVE_VAR=$(CURDIR)/$(STATE) DJANGO_SETTINGS_MODULE=webapp.settings.local $(PY) manage.py hive_admin

bench: venv
	@for script in $(filter-out bench/__init__.py bench/stack.py bench/stats.py,$(wildcard bench/*.py)); do \
		echo "== $$script"; $(PY) $$script || exit 1; done

clean:
	rm -rf $(VENV) frontend/node_modules frontend/dist staticfiles var/test-*.sqlite3*

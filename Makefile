# Hive: `make run` starts everything on this machine; `make test` runs the whole suite.
# Both install what is missing first (Debian packages, the virtualenv, the dashboard build, migrations)
# and are cheap when it is already there.

SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
REDIS_PORT ?= 6390
WORKER_CONCURRENCY ?= 16
HIVE_BIND ?= 127.0.0.1
export REDIS_URL ?= redis://127.0.0.1:$(REDIS_PORT)/0
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
FRONTEND_SOURCES := $(shell find frontend/src -type f 2>/dev/null) frontend/index.html frontend/vite.config.ts frontend/tsconfig.json

.PHONY: run test lint typecheck system venv frontend migrate admin bench clean

run: system venv frontend migrate
	@echo ""
	@echo "  Hive is starting at http://localhost:$(PORT)/  (sign up there; admin: make admin)"
	@echo ""
	HIVE_PORT=$(PORT) HIVE_REDIS_PORT=$(REDIS_PORT) WORKER_CONCURRENCY=$(WORKER_CONCURRENCY) \
		HIVE_BIND=$(HIVE_BIND) HIVE_VAR=$(CURDIR)/var DJANGO_SETTINGS_MODULE=webapp.settings.local \
		PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/supervisord -c supervisord.conf

test: system venv frontend
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy agents browser_pool workers webapp bench tests
	$(VENV)/bin/lint-imports
	cd frontend && npm test --silent
	$(PY) -m pytest

lint: venv frontend/node_modules/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	cd frontend && npm run lint --silent

typecheck: venv
	$(VENV)/bin/mypy agents browser_pool workers webapp bench tests
	$(VENV)/bin/lint-imports

# Debian's Chromium, Redis and libmagic (which tells a downloaded file's type from its bytes), installed only when
# missing (never `playwright install`). Started as root, the
# worker runs Chromium as the system user hive-browser (browser_pool/sandbox.py), made here when missing.
system:
	@missing=""; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v redis-server >/dev/null || missing="$$missing redis-server"; \
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

migrate: venv
	DJANGO_SETTINGS_MODULE=webapp.settings.local $(PY) manage.py migrate --noinput

# Create the administrator (Django admin at /admin/): `make admin` prompts for a password.
admin: venv migrate
	DJANGO_SETTINGS_MODULE=webapp.settings.local $(PY) manage.py hive_admin

bench: venv
	@for script in $(filter-out bench/__init__.py bench/stack.py bench/stats.py,$(wildcard bench/*.py)); do \
		echo "== $$script"; $(PY) $$script || exit 1; done

clean:
	rm -rf $(VENV) frontend/node_modules frontend/dist staticfiles var/test-*.sqlite3*

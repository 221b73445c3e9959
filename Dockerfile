# One image for the web and worker services (docker-compose.yml). Debian's Chromium, never `playwright install`.
FROM node:20-bookworm-slim AS frontend
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

FROM python:3.11-slim-bookworm
ENV PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 DJANGO_SETTINGS_MODULE=webapp.settings.production
RUN apt-get update \
    && apt-get install -y --no-install-recommends chromium fonts-liberation fonts-noto-cjk curl \
    && rm -rf /var/lib/apt/lists/*
# Hive's processes run as `hive`, and Chromium with them, inside its own sandbox (browser_pool/sandbox.py). A
# container started as root instead runs Chromium as `hive-browser`; neither account can log in.
RUN getent passwd hive >/dev/null \
        || useradd --system --user-group --create-home --home-dir /home/hive --shell /usr/sbin/nologin hive; \
    getent passwd hive-browser >/dev/null \
        || useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin hive-browser
WORKDIR /app
COPY pyproject.toml README.md ./
COPY webapp/ webapp/
COPY agents/ agents/
COPY workers/ workers/
COPY browser_pool/ browser_pool/
COPY manage.py ./
RUN pip install --upgrade pip && pip install .
COPY --from=frontend /src/frontend/dist frontend/dist
# Collected with the settings every environment shares: production's refuse to load without the secrets that only the
# running containers get (and no secret may be baked into the image).
RUN DJANGO_SETTINGS_MODULE=webapp.settings.base DJANGO_SECRET_KEY=collectstatic-only \
    HIVE_ENCRYPTION_KEYS=collectstatic-only python manage.py collectstatic --noinput
RUN mkdir -p /data/media var && chown hive:hive /data/media var
USER hive
EXPOSE 8000
CMD ["daphne", "-b", "0.0.0.0", "-p", "8000", "webapp.asgi:application"]

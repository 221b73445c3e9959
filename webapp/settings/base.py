"""Settings shared by every environment. Values come from the environment (django-environ)."""

from __future__ import annotations

from pathlib import Path

import environ

from webapp.settings.database import database_config

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = BASE_DIR / "var"
VAR_DIR.mkdir(exist_ok=True)

env = environ.Env()
if (BASE_DIR / ".env").exists():  # optional: without it django-environ would log that it is missing in every process
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

from webapp.settings.security import kept_secret  # noqa: E402

# Without DJANGO_SECRET_KEY a key is generated on first start and kept in var/ (readable by its owner only);
# production settings refuse to start without one from the environment.
SECRET_KEY = env("DJANGO_SECRET_KEY", default="") or kept_secret(VAR_DIR / "secret_key", "key")
# Fernet keys for secrets at rest (model API keys, saved browser state), newest first; never derived from SECRET_KEY.
HIVE_ENCRYPTION_KEYS = env.list("HIVE_ENCRYPTION_KEYS", default=[]) or [
    kept_secret(VAR_DIR / "encryption_key", "fernet")
]
DEBUG = env.bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "axes",
    "channels",
    "webapp.core",
    "webapp.accounts",
    "webapp.conversations",
    "webapp.runs",
    "webapp.llm",
    "webapp.memory",
    "webapp.skills",
    "webapp.sharing",
    "webapp.demo",
    "webapp.workflows",
    "webapp.profiles",
    "webapp.vault",
    "django_celery_beat",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "webapp.core.logging.RequestContextMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "webapp.urls"
ASGI_APPLICATION = "webapp.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": database_config(env.str("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'hive.sqlite3'}"))}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
FRONTEND_DIST = BASE_DIR / "frontend" / "dist"
STATICFILES_DIRS = [FRONTEND_DIST] if FRONTEND_DIST.exists() else []
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
MEDIA_ROOT = env.path("HIVE_MEDIA_ROOT", default=str(VAR_DIR / "media"))
MEDIA_URL = "/media/"

# Oversized request bodies are refused before they reach a view.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024

LOGIN_URL = "/login"


from webapp.settings.api import *  # noqa: E402,F403
from webapp.settings.browser import *  # noqa: E402,F403
from webapp.settings.cache import *  # noqa: E402,F403
from webapp.settings.celery import *  # noqa: E402,F403
from webapp.settings.channels import *  # noqa: E402,F403
from webapp.settings.egress import *  # noqa: E402,F403
from webapp.settings.llm import *  # noqa: E402,F403
from webapp.settings.mcp import *  # noqa: E402,F403
from webapp.settings.observability import *  # noqa: E402,F403
from webapp.settings.profiles import *  # noqa: E402,F403
from webapp.settings.security import *  # noqa: E402,F403

"""For docker compose and real deployments: secrets must come from the environment, and the browser talks TLS."""

from django.core.exceptions import ImproperlyConfigured

from webapp.settings.base import *  # noqa: F403

DEBUG = False
SECRET_KEY = env("DJANGO_SECRET_KEY", default="")  # noqa: F405
if len(SECRET_KEY) < 40 or SECRET_KEY.startswith(("django-insecure", "dev-only")) or len(set(SECRET_KEY)) < 8:
    raise ImproperlyConfigured(
        "Set DJANGO_SECRET_KEY to a long random value (e.g. `openssl rand -hex 32`): production refuses a missing, "
        "short or default key."
    )
HIVE_ENCRYPTION_KEYS = env.list("HIVE_ENCRYPTION_KEYS", default=[])  # noqa: F405
if not HIVE_ENCRYPTION_KEYS:
    raise ImproperlyConfigured(
        "Set HIVE_ENCRYPTION_KEYS to one Fernet key or more, newest first (python -c 'from cryptography.fernet "
        "import Fernet; print(Fernet.generate_key().decode())')."
    )
WHITENOISE_USE_FINDERS = False

# Behind a TLS-terminating proxy, tell Django which header says the request was https.
if env.bool("HIVE_BEHIND_TLS_PROXY", default=False):  # noqa: F405
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("HIVE_SSL_REDIRECT", default=True)  # noqa: F405
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]  # container health checks speak plain http inside
SECURE_HSTS_SECONDS = env.int("HIVE_HSTS_SECONDS", default=31_536_000)  # noqa: F405
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = env.bool("HIVE_HSTS_PRELOAD", default=True)  # noqa: F405
SESSION_COOKIE_SECURE = env.bool("HIVE_SECURE_COOKIES", default=True)  # noqa: F405
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE

"""For docker compose and real deployments: secrets must come from the environment."""

from webapp.settings.base import *  # noqa: F403

DEBUG = False
SECRET_KEY = env("DJANGO_SECRET_KEY")  # noqa: F405
WHITENOISE_USE_FINDERS = False
SESSION_COOKIE_SECURE = env.bool("HIVE_SECURE_COOKIES", default=True)  # noqa: F405
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE

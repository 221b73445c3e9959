"""For `make run` on a developer's machine."""

from webapp.settings.base import *  # noqa: F403

DEBUG = env.bool("DJANGO_DEBUG", default=True)  # noqa: F405
HIVE_BLOCK_PRIVATE_NETWORKS = env.bool("HIVE_BLOCK_PRIVATE_NETWORKS", default=False)  # noqa: F405

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "webapp.accounts"
    label = "accounts"

    def ready(self) -> None:
        from webapp.accounts import receivers, schema  # noqa: F401 - signal receivers; the token scheme for drf-spectacular

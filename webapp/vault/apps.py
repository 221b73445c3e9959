from django.apps import AppConfig


class VaultConfig(AppConfig):
    name = "webapp.vault"
    label = "vault"
    verbose_name = "Vault"

"""The vault in Django admin: by name and owner only. Values, and even which fields a credential holds or where it
may be typed, are not an administrator's to read."""

from django.contrib import admin
from django.http import HttpRequest

from webapp.vault.models import VaultCredential


@admin.register(VaultCredential)
class VaultCredentialAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "updated_at")
    search_fields = ("name", "owner__username")
    fields = ("owner", "name", "created_at", "updated_at")
    readonly_fields = ("owner", "created_at", "updated_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

"""Browser profiles in Django admin: by name and owner only. The state (cookies, storage) is never shown, not even
its list of origins: reading a user's browser is not an administrator's task."""

from django.contrib import admin
from django.http import HttpRequest

from webapp.profiles.models import BrowserProfile


@admin.register(BrowserProfile)
class BrowserProfileAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "updated_at")
    search_fields = ("name", "owner__username")
    fields = ("owner", "name", "created_at", "updated_at")
    readonly_fields = ("owner", "created_at", "updated_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

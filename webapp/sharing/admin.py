from django.contrib import admin

from webapp.sharing.models import Share


@admin.register(Share)
class ShareAdmin(admin.ModelAdmin):
    list_display = ["id", "conversation", "user", "role", "expires_at", "revoked_at", "created_by"]
    list_filter = ["role"]
    search_fields = ["user__username", "conversation__title", "created_by__username"]
    raw_id_fields = ["conversation", "user", "via_link", "created_by"]
    readonly_fields = ["token", "created_at"]

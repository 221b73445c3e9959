from django.contrib import admin

from webapp.llm.models import ModelProfile


@admin.register(ModelProfile)
class ModelProfileAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "provider", "model", "supports_tools", "supports_vision"]
    list_filter = ["provider"]
    exclude = ["api_key_encrypted"]

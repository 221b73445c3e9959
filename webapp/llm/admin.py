from django.contrib import admin

from webapp.llm.models import ModelProfile


@admin.register(ModelProfile)
class ModelProfileAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "provider", "model", "price_input_per_mtok", "price_output_per_mtok"]
    list_filter = ["provider"]
    exclude = ["api_key_encrypted"]

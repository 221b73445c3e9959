from django.contrib import admin

from webapp.runs.models import Run, Step


class StepInline(admin.TabularInline):
    model = Step
    extra = 0
    fields = ("index", "kind", "action", "status", "duration_ms", "error")
    readonly_fields = fields


@admin.register(Run)
class RunAdmin(admin.ModelAdmin):
    list_display = ["id", "conversation", "number", "kind", "status", "started_by", "worker_id", "created_at"]
    list_filter = ["status"]
    inlines = [StepInline]

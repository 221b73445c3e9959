from django.contrib import admin

from webapp.workflows.models import Workflow, WorkflowVersion


class VersionInline(admin.TabularInline):
    model = WorkflowVersion
    extra = 0
    fields = ("number", "note", "source_run", "created_at")
    readonly_fields = ("number", "note", "source_run", "created_at")


@admin.register(Workflow)
class WorkflowAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "updated_at")
    search_fields = ("name", "owner__username")
    inlines = [VersionInline]

"""The SKILL library in Django admin: edit with validation, switch on and off, export and import files."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse

from webapp.skills.files import SkillFileError, dump_documents, load_json
from webapp.skills.models import ConversationSkillSetting, Skill, SkillTool
from webapp.skills.services import skill_enabled_set, skill_import

MAX_IMPORT_BYTES = 1024 * 1024


class PrettyJSONField(forms.JSONField):
    """JSON edited as indented text (Django's default is one long line)."""

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, forms.fields.InvalidJSONInput):
            return value
        return json.dumps(value, ensure_ascii=False, indent=2, cls=self.encoder)


def _code(rows: int) -> forms.Textarea:
    return forms.Textarea(
        attrs={"rows": rows, "cols": 100, "spellcheck": "false", "style": "font-family: monospace; width: 90%;"}
    )


class SkillForm(forms.ModelForm):
    class Meta:
        model = Skill
        fields = ["name", "version", "description", "match_patterns", "priority", "enabled", "health_check"]
        field_classes = {"match_patterns": PrettyJSONField}
        widgets = {
            "match_patterns": _code(4),
            "health_check": _code(8),
            "description": forms.Textarea(attrs={"rows": 3}),
        }


class SkillToolForm(forms.ModelForm):
    class Meta:
        model = SkillTool
        fields = ["name", "title", "description", "input_schema", "annotations", "handler"]
        field_classes = {"input_schema": PrettyJSONField, "annotations": PrettyJSONField}
        widgets = {
            "description": forms.Textarea(attrs={"rows": 2}),
            "input_schema": _code(8),
            "annotations": _code(3),
            "handler": _code(12),
        }


class SkillToolInline(admin.StackedInline):
    model = SkillTool
    form = SkillToolForm
    extra = 0


class SkillImportForm(forms.Form):
    file = forms.FileField(help_text="A hive-skill/1 JSON file: one SKILL, or a list of SKILLs.")
    replace = forms.BooleanField(
        required=False,
        label="Replace installed SKILLs",
        help_text="A SKILL already installed under the same name is replaced when the file's version is the same "
        "or higher (its conversations' switches are kept). Unticked, installed SKILLs are left alone. "
        "A lower version is never imported over a higher one.",
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(f"The file is larger than {MAX_IMPORT_BYTES // 1024} KB.")
        return upload


@admin.register(Skill)
class SkillAdmin(admin.ModelAdmin):
    form = SkillForm
    inlines = [SkillToolInline]
    list_display = ["name", "version", "enabled", "priority", "patterns", "tool_count", "updated_at"]
    list_filter = ["enabled"]
    search_fields = ["name", "description"]
    actions = ["enable_selected", "disable_selected", "export_selected"]
    change_list_template = "admin/skills/skill/change_list.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Skill]:
        return super().get_queryset(request).annotate(tool_total=Count("tools"))

    @admin.display(description="Match patterns")
    def patterns(self, skill: Skill) -> str:
        return ", ".join(skill.match_patterns)

    @admin.display(description="Tools", ordering="tool_total")
    def tool_count(self, skill: Any) -> int:
        return skill.tool_total

    @admin.action(description="Enable selected SKILLs", permissions=["change"])
    def enable_selected(self, request: HttpRequest, queryset: QuerySet[Skill]) -> None:
        changed = skill_enabled_set(skills=queryset, enabled=True)
        self.message_user(request, f"Enabled {changed} SKILL(s).", messages.SUCCESS)

    @admin.action(description="Disable selected SKILLs", permissions=["change"])
    def disable_selected(self, request: HttpRequest, queryset: QuerySet[Skill]) -> None:
        changed = skill_enabled_set(skills=queryset, enabled=False)
        self.message_user(request, f"Disabled {changed} SKILL(s).", messages.SUCCESS)

    @admin.action(description="Export selected SKILLs (JSON file)", permissions=["view"])
    def export_selected(self, request: HttpRequest, queryset: QuerySet[Skill]) -> HttpResponse:
        skills = list(queryset.order_by("name").prefetch_related("tools"))
        filename = f"{skills[0].name}-{skills[0].version}.json" if len(skills) == 1 else "skills.json"
        response = HttpResponse(dump_documents(skills), content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response

    def get_urls(self) -> list[URLPattern]:
        extra = [path("import/", self.admin_site.admin_view(self.import_view), name="skills_skill_import")]
        return extra + super().get_urls()

    def import_view(self, request: HttpRequest) -> HttpResponse:
        if not (self.has_add_permission(request) and self.has_change_permission(request)):
            raise PermissionDenied
        errors: list[str] = []
        form = SkillImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            try:
                document = load_json(form.cleaned_data["file"].read())
                outcomes = skill_import(document=document, replace=form.cleaned_data["replace"])
            except SkillFileError as exc:
                errors = exc.errors
            else:
                for outcome in outcomes:
                    level = messages.WARNING if outcome.action == "skipped" else messages.SUCCESS
                    self.message_user(request, outcome.describe(), level)
                return HttpResponseRedirect(reverse("admin:skills_skill_changelist"))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": "Import SKILLs",
            "form": form,
            "errors": errors,
        }
        return TemplateResponse(request, "admin/skills/skill/import.html", context)


@admin.register(ConversationSkillSetting)
class ConversationSkillSettingAdmin(admin.ModelAdmin):
    list_display = ["conversation", "skill", "enabled", "updated_at"]
    list_filter = ["enabled", "skill"]
    raw_id_fields = ["conversation"]

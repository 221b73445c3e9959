"""Load the shipped demo-shop SKILL (webapp/skills/shipped/demo-shop.json). `manage.py skill_import FILE
--replace` loads it again, e.g. after the file changes; this migration only adds it when it is missing."""

import json
from pathlib import Path

from django.db import migrations

SHIPPED = Path(__file__).resolve().parent.parent / "shipped" / "demo-shop.json"


def load(apps, schema_editor):
    Skill = apps.get_model("skills", "Skill")
    SkillTool = apps.get_model("skills", "SkillTool")
    document = json.loads(SHIPPED.read_text(encoding="utf-8"))
    if Skill.objects.filter(name=document["name"]).exists():
        return
    tools = document.pop("tools")
    document.pop("format")
    skill = Skill.objects.create(**document)
    SkillTool.objects.bulk_create(SkillTool(skill=skill, **tool) for tool in tools)


def unload(apps, schema_editor):
    apps.get_model("skills", "Skill").objects.filter(name="demo-shop").delete()


class Migration(migrations.Migration):
    dependencies = [("skills", "0001_initial")]

    operations = [migrations.RunPython(load, unload)]

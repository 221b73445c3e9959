"""Write SKILLs to a hive-skill/1 file: ``manage.py skill_export demo-shop -o demo-shop.json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from webapp.skills.files import dump_documents
from webapp.skills.models import Skill


class Command(BaseCommand):
    help = "Export SKILLs by name as a hive-skill/1 JSON file (one name: its document; several: a list)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("names", nargs="+", metavar="name", help="SKILL name(s)")
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(self, *args: Any, names: list[str], output: str | None, **options: Any) -> None:
        found = {skill.name: skill for skill in Skill.objects.filter(name__in=names).prefetch_related("tools")}
        missing = [name for name in names if name not in found]
        if missing:
            raise CommandError(f"No SKILL named {', '.join(map(repr, missing))}.")
        text = dump_documents([found[name] for name in dict.fromkeys(names)])
        if output is None:
            self.stdout.write(text, ending="")
            return
        Path(output).write_text(text, encoding="utf-8")
        self.stderr.write(f"Wrote {len(found)} SKILL(s) to {output}.")

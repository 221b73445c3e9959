"""Load SKILLs from a hive-skill/1 file: ``manage.py skill_import webapp/skills/shipped/demo-shop.json --replace``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from webapp.skills.files import SkillFileError, load_json
from webapp.skills.services import skill_import


class Command(BaseCommand):
    help = (
        "Import SKILLs from a hive-skill/1 JSON file, all or nothing. New names are created; installed names are "
        "left alone unless --replace is given, which replaces them when the file's version is the same or higher."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the JSON file")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="replace installed SKILLs of the same name when the file's version is the same or higher",
        )

    def handle(self, *args: Any, file: str, replace: bool, **options: Any) -> None:
        try:
            raw = Path(file).read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc.strerror}.") from exc
        try:
            outcomes = skill_import(document=load_json(raw), replace=replace)
        except SkillFileError as exc:
            raise CommandError("Nothing was imported:\n" + "\n".join(f"  - {e}" for e in exc.errors)) from exc
        for outcome in outcomes:
            style = self.style.WARNING if outcome.action == "skipped" else self.style.SUCCESS
            self.stdout.write(style(outcome.describe()))

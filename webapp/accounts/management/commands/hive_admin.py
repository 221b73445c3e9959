"""Create the administrator (or reset its password): `manage.py hive_admin --username admin`.

The password comes from --password, the HIVE_ADMIN_PASSWORD environment variable, or a prompt.
"""

from __future__ import annotations

import getpass
import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from webapp.accounts.services import admin_ensure


class Command(BaseCommand):
    help = "Create Hive's administrator account, or reset its password if it exists."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", default=os.environ.get("HIVE_ADMIN_USERNAME", "admin"))
        parser.add_argument("--email", default=os.environ.get("HIVE_ADMIN_EMAIL", ""))
        parser.add_argument("--password", default=os.environ.get("HIVE_ADMIN_PASSWORD", ""))

    def handle(self, *args: Any, **options: Any) -> None:
        password = options["password"] or (getpass.getpass("Password: ") if os.isatty(0) else "")
        if not password:
            raise CommandError("Give a password with --password or HIVE_ADMIN_PASSWORD.")
        user, created = admin_ensure(username=options["username"], password=password, email=options["email"])
        verb = "Created" if created else "Updated"
        self.stdout.write(self.style.SUCCESS(f"{verb} administrator '{user.get_username()}'. Sign in at /admin/."))

"""Writes for notes and personas."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from webapp.core.exceptions import ApplicationError
from webapp.memory.models import Note, Persona


@transaction.atomic
def note_create(*, owner: User, title: str, body: str) -> Note:
    return Note.objects.create(owner=owner, title=title.strip(), body=body.strip())


@transaction.atomic
def note_update(*, note: Note, **changes: Any) -> Note:
    for field, value in changes.items():
        setattr(note, field, str(value).strip())
    note.save()
    return note


@transaction.atomic
def note_delete(*, note: Note) -> None:
    note.delete()


@transaction.atomic
def persona_create(*, owner: User, name: str, voice: str, instructions: str = "") -> Persona:
    try:
        with transaction.atomic():
            return Persona.objects.create(
                owner=owner, name=name.strip(), voice=voice.strip(), instructions=instructions
            )
    except IntegrityError as exc:
        raise ApplicationError("You already have a persona with that name.") from exc


@transaction.atomic
def persona_update(*, persona: Persona, **changes: Any) -> Persona:
    for field, value in changes.items():
        setattr(persona, field, value)
    try:
        with transaction.atomic():
            persona.save()
    except IntegrityError as exc:
        raise ApplicationError("You already have a persona with that name.") from exc
    return persona


@transaction.atomic
def persona_delete(*, persona: Persona) -> None:
    persona.delete()

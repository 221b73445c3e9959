"""Reads for notes and personas: only ever the user's own."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from agents.tools.memory import MemoryNote
from agents.tools.reply import Persona as PersonaData
from webapp.memory.models import Note, Persona


def note_list(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Note]:
    return Note.objects.filter(owner_id=user.pk)


def note_get(*, user: AbstractBaseUser | AnonymousUser, note_id: int) -> Note:
    return get_object_or_404(note_list(user=user), pk=note_id)


def persona_list(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Persona]:
    return Persona.objects.filter(owner_id=user.pk)


def persona_get(*, user: AbstractBaseUser | AnonymousUser, persona_id: int) -> Persona:
    return get_object_or_404(persona_list(user=user), pk=persona_id)


def memory_for_user(*, user_id: int) -> tuple[list[MemoryNote], list[PersonaData]]:
    """The notes and personas the agent's memory and reply tools work with, as plain data."""
    notes = [MemoryNote(id=n.pk, title=n.title, body=n.body) for n in Note.objects.filter(owner_id=user_id)]
    personas = [
        PersonaData(id=p.pk, name=p.name, voice=p.voice, instructions=p.instructions)
        for p in Persona.objects.filter(owner_id=user_id)
    ]
    return notes, personas

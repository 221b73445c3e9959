from django.contrib import admin

from webapp.memory.models import Note, Persona


@admin.register(Note)
class NoteAdmin(admin.ModelAdmin):
    list_display = ["title", "owner", "updated_at"]
    search_fields = ["title", "body"]


@admin.register(Persona)
class PersonaAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "voice"]

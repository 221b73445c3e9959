from django.urls import path

from webapp.memory import apis

urlpatterns = [
    path("notes/", apis.NoteListApi.as_view(), name="note-list"),
    path("notes/<int:note_id>/", apis.NoteDetailApi.as_view(), name="note-detail"),
    path("personas/", apis.PersonaListApi.as_view(), name="persona-list"),
    path("personas/<int:persona_id>/", apis.PersonaDetailApi.as_view(), name="persona-detail"),
]

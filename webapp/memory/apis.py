"""Notes (the agent's memory) and personas (voices for generate_reply)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from webapp.core.users import request_user
from webapp.memory.models import Note, Persona
from webapp.memory.selectors import note_get, note_list, persona_get, persona_list
from webapp.memory.services import (
    note_create,
    note_delete,
    note_update,
    persona_create,
    persona_delete,
    persona_update,
)


class NoteOutput(serializers.ModelSerializer[Note]):
    class Meta:
        model = Note
        fields = ["id", "title", "body", "created_at", "updated_at"]


class NoteInput(serializers.Serializer):
    title = serializers.CharField(max_length=200)
    body = serializers.CharField(max_length=20_000)


class NoteListApi(APIView):
    @extend_schema(responses={200: NoteOutput(many=True)})
    def get(self, request: Request) -> Response:
        return Response(NoteOutput(note_list(user=request.user), many=True).data)

    @extend_schema(request=NoteInput, responses={201: NoteOutput})
    def post(self, request: Request) -> Response:
        data = NoteInput(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(NoteOutput(note_create(owner=request_user(request), **data.validated_data)).data, status=201)


class NoteDetailApi(APIView):
    @extend_schema(responses={200: NoteOutput})
    def get(self, request: Request, note_id: int) -> Response:
        return Response(NoteOutput(note_get(user=request.user, note_id=note_id)).data)

    @extend_schema(request=NoteInput, responses={200: NoteOutput})
    def patch(self, request: Request, note_id: int) -> Response:
        note = note_get(user=request.user, note_id=note_id)
        data = NoteInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        return Response(NoteOutput(note_update(note=note, **data.validated_data)).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, note_id: int) -> Response:
        note_delete(note=note_get(user=request.user, note_id=note_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class PersonaOutput(serializers.ModelSerializer[Persona]):
    class Meta:
        model = Persona
        fields = ["id", "name", "voice", "instructions", "created_at", "updated_at"]


class PersonaInput(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    voice = serializers.CharField(max_length=300)
    instructions = serializers.CharField(max_length=5_000, required=False, allow_blank=True)


class PersonaListApi(APIView):
    @extend_schema(responses={200: PersonaOutput(many=True)})
    def get(self, request: Request) -> Response:
        return Response(PersonaOutput(persona_list(user=request.user), many=True).data)

    @extend_schema(request=PersonaInput, responses={201: PersonaOutput})
    def post(self, request: Request) -> Response:
        data = PersonaInput(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(
            PersonaOutput(persona_create(owner=request_user(request), **data.validated_data)).data, status=201
        )


class PersonaDetailApi(APIView):
    @extend_schema(responses={200: PersonaOutput})
    def get(self, request: Request, persona_id: int) -> Response:
        return Response(PersonaOutput(persona_get(user=request.user, persona_id=persona_id)).data)

    @extend_schema(request=PersonaInput, responses={200: PersonaOutput})
    def patch(self, request: Request, persona_id: int) -> Response:
        persona = persona_get(user=request.user, persona_id=persona_id)
        data = PersonaInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        return Response(PersonaOutput(persona_update(persona=persona, **data.validated_data)).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, persona_id: int) -> Response:
        persona_delete(persona=persona_get(user=request.user, persona_id=persona_id))
        return Response(status=status.HTTP_204_NO_CONTENT)

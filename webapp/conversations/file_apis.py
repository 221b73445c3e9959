"""A conversation's files: the list (uploads and downloads alike), uploading one, and serving one's bytes.

A file is served to whoever may read its conversation (the owner, and teammates it is shared with), always as an
attachment: the browser saves it and never shows it inline on Hive's origin, whatever a page put in it. It goes with
`X-Content-Type-Options: nosniff`, a sandboxing Content-Security-Policy, and a Content-Disposition whose name is
given both plainly and as RFC 6266's `filename*`.
"""

from __future__ import annotations

from typing import Any

from django.http import FileResponse
from django.utils.http import content_disposition_header
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from webapp.conversations.browser_services import FILE_ADD_NEEDS, conversation_file_add
from webapp.conversations.file_selectors import conversation_file_get, conversation_files, file_payload
from webapp.conversations.selectors import conversation_get


class FileOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    size = serializers.IntegerField()
    content_type = serializers.CharField(help_text="Sniffed from the file's bytes.")
    origin = serializers.ChoiceField(choices=["upload", "download"])
    created_at = serializers.DateTimeField()
    url = serializers.CharField(help_text="Where the file's bytes are served, as an attachment.")
    source_url = serializers.CharField(help_text="Where a download came from; empty for an upload.")
    run = serializers.IntegerField(allow_null=True, help_text="The run whose step downloaded it.")
    step = serializers.IntegerField(allow_null=True)


class FileListApi(APIView):
    parser_classes = [MultiPartParser]

    @extend_schema(responses={200: FileOutput(many=True)})
    def get(self, request: Request, conversation_id: int) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id)
        return Response([file_payload(file) for file in conversation_files(conversation=conversation)])

    @extend_schema(
        request=inline_serializer("FileUpload", {"file": serializers.FileField()}),
        responses={201: FileOutput},
    )
    def post(self, request: Request, conversation_id: int) -> Response:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id, need=FILE_ADD_NEEDS)
        upload = request.FILES.get("file")
        if upload is None:
            return Response({"detail": "Send the file as multipart form data in a field named 'file'."}, status=400)
        stored = conversation_file_add(conversation=conversation, upload=upload)
        return Response(file_payload(stored), status=status.HTTP_201_CREATED)


class AnyAccept(BaseContentNegotiation):
    """The bytes are what they are whatever the client accepts (a browser's download asks for HTML first); an
    error answers JSON."""

    def select_parser(self, request: Request, parsers: Any) -> Any:
        return parsers[0] if parsers else None

    def select_renderer(self, request: Request, renderers: Any, format_suffix: str | None = None) -> Any:
        return renderers[0], renderers[0].media_type


class FileDownloadApi(APIView):
    content_negotiation_class = AnyAccept

    @extend_schema(
        responses={
            (200, "application/octet-stream"): OpenApiResponse(
                OpenApiTypes.BINARY, description="The file, as an attachment (Content-Disposition with its name)."
            )
        }
    )
    def get(self, request: Request, conversation_id: int, file_id: int) -> FileResponse:
        conversation = conversation_get(user=request.user, conversation_id=conversation_id)
        stored = conversation_file_get(conversation=conversation, file_id=file_id)
        response = FileResponse(stored.file.open("rb"), content_type=stored.content_type or "application/octet-stream")
        response["Content-Disposition"] = content_disposition_header(as_attachment=True, filename=stored.name)
        response["Content-Length"] = str(stored.file.size)
        response["X-Content-Type-Options"] = "nosniff"
        response["Content-Security-Policy"] = "sandbox; default-src 'none'"
        response["Cache-Control"] = "private, no-store"
        return response

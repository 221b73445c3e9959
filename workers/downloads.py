"""The worker's keeper of what the browser downloads: each file is stored with its conversation (beside the run and
step that caused it), within the size limit and the owner's quota, and the agent reads it back by id.

The pool asks `keeper` for a ticket when a page begins a download (browser_pool.downloads): the ticket allows what
is left of the limit or the quota, stores the finished file with `download_keep` (which checks both again, where
they are kept) and says what the agent is told; a refusal is told to whoever watches the conversation too.
"""

from __future__ import annotations

from pathlib import Path

from channels.db import database_sync_to_async

from agents.tools.files import FileReader, StoredFile, readable
from browser_pool.downloads import DownloadRefusedError, DownloadStart, DownloadTicket, size_text
from webapp.conversations.file_selectors import Allowance, download_allowance
from webapp.conversations.file_services import download_keep
from webapp.conversations.models import ConversationFile
from webapp.core.events import SessionNoticeEvent, publish_now
from webapp.core.exceptions import ApplicationError
from webapp.runs.models import Run, Step

_Cause = tuple[int | None, int | None]  # the run and step that began a download


def _cause(conversation_id: int) -> tuple[int | None, int | None]:
    """The run of the conversation now running and its latest step, asked when a download begins: what began it
    (none for a person's input on the live view outside any run)."""
    run = Run.objects.filter(conversation_id=conversation_id, status__in=Run.ACTIVE).order_by("-pk").only("pk").first()
    if run is None:
        return None, None
    step = Step.objects.filter(run=run).order_by("-index").only("pk").first()
    return run.pk, step.pk if step is not None else None


class _Ticket:
    def __init__(self, conversation_id: int, start: DownloadStart, allowance: Allowance, cause: _Cause) -> None:
        self.conversation_id = conversation_id
        self.start = start
        self._max_bytes = allowance.max_bytes
        self._limit = allowance.limit
        self._run_id, self._step_id = cause

    @property
    def max_bytes(self) -> int:
        return self._max_bytes

    @property
    def limit(self) -> str:
        return self._limit

    async def keep(self, path: Path, size: int) -> str:
        def store() -> ConversationFile:
            return download_keep(
                conversation_id=self.conversation_id,
                name=self.start.suggested_name,
                source_url=self.start.url,
                path=path,
                size=size,
                run_id=self._run_id,
                step_id=self._step_id,
            )

        try:
            stored = await database_sync_to_async(store)()
        except ApplicationError as exc:
            raise DownloadRefusedError(exc.message) from exc
        return (
            f"{stored.name} ({stored.content_type}, {size_text(stored.size)}) was downloaded and kept with the "
            f'conversation as file "{stored.pk}"; the user can download it from the chat. '
            + (
                f'Read it with get_page_content(file_id="{stored.pk}").'
                if readable(stored.content_type)
                else "Its contents cannot be read as text."
            )
        )

    async def refused(self, message: str) -> None:
        event: SessionNoticeEvent = {"type": "session.notice", "kind": "download", "text": message, "tab_id": ""}
        publish_now(self.conversation_id, event)


async def keeper(key: str, start: DownloadStart) -> DownloadTicket:
    """A ticket for a download of the session `key` (a conversation's id)."""
    conversation_id = int(key)

    def look_up() -> tuple[Allowance, _Cause]:
        return download_allowance(conversation_id=conversation_id), _cause(conversation_id)

    allowance, cause = await database_sync_to_async(look_up)()
    return _Ticket(conversation_id, start, allowance, cause)


def _stored(conversation_id: int, file_id: str) -> StoredFile | None:
    if not file_id.isdigit():
        return None
    found = ConversationFile.objects.filter(conversation_id=conversation_id, pk=int(file_id)).first()
    if found is None:
        return None
    return StoredFile(str(found.pk), found.name, found.content_type, found.size, Path(found.file.path))


def file_reader(conversation_id: int) -> FileReader:
    """Reads the conversation's files (downloads and uploads) for the agent's content tools, looked up when asked."""

    async def find(file_id: str) -> StoredFile | None:
        found: StoredFile | None = await database_sync_to_async(_stored)(conversation_id, file_id)
        return found

    return FileReader(find)

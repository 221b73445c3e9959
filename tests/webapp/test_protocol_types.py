"""The dashboard's types of the websocket events are generated from their Python definitions: the committed file is
what `make protocol` writes from the Python as it is, so a change to an event on either side alone fails here."""

from __future__ import annotations

from pathlib import Path

from webapp.core import protocol_ts


def test_the_committed_event_types_are_generated_from_the_python_definitions(tmp_path: Path) -> None:
    fresh = tmp_path / "events.ts"
    protocol_ts.write(fresh)
    committed = protocol_ts.OUTPUT
    assert fresh.read_text() == committed.read_text(), (
        f"{committed.relative_to(protocol_ts.ROOT)} differs from the event definitions in webapp/core/events.py: "
        f"run `{protocol_ts.COMMAND}` and commit the result"
    )


def test_every_event_the_server_sends_is_typed_for_the_dashboard() -> None:
    typed = protocol_ts.OUTPUT.read_text()
    for name in ("HelloEvent", "LiveUpdatedEvent", "SessionNoticeEvent", "StepEvent", "ConversationSharedEvent"):
        assert f"export interface {name} " in typed
    assert 'import type { PageTools } from "./tools";' in typed  # a shared shape is the dashboard's own type

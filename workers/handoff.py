"""The worker's side of ask_person: the agent asks a person to take over the browser, and waits.

The request is a confirmation of the run (action `ask_person`, the agent's reason): the run is `waiting`, the
dashboard shows a card with the reason and "Take control", and the wait is the one a confirmation has (answered over
the command channel or read back from the database, expiring after HIVE_HANDOFF_TIMEOUT_S). The owner is told by
e-mail and, for a workflow's replay, by its webhook. A person with control rights answers it by handing the browser
back (webapp.runs.handoff) or with "Done" / "Can't help" on the card. After a hand-back the session is saved at once,
into the conversation's browser profile too when it writes one, so a login the person did survives whatever follows.
"""

from __future__ import annotations

import logging

from channels.db import database_sync_to_async
from django.conf import settings

from agents.events import ConfirmationRequest
from agents.tools.base import Tool
from agents.tools.handoff import HandOff, handoff_tools
from webapp.runs.handoff import HANDOFF_ACTION, handoff_outcome
from webapp.workflows.notify import person_wanted
from workers.sink import WorkerSink

log = logging.getLogger(__name__)


def ask_person_tools(sink: WorkerSink) -> list[Tool]:
    """ask_person for the run `sink` records, waiting at most HIVE_HANDOFF_TIMEOUT_S."""
    wait_s = float(settings.HIVE_HANDOFF_TIMEOUT_S)

    async def ask(reason: str, url: str) -> HandOff:
        try:
            await database_sync_to_async(person_wanted)(run_id=sink.run_id, reason=reason, url=url, timeout_s=wait_s)
        except Exception:  # a mail server or webhook that fails must not leave the agent without its answer
            log.exception("could not notify the owner of run %s that a person is wanted", sink.run_id)
        request = ConfirmationRequest(
            step_id=0, action=HANDOFF_ACTION, arguments={"reason": reason}, reason=reason, url=url, timeout_s=wait_s
        )
        await sink.confirm(request)
        outcome, person = await database_sync_to_async(handoff_outcome)(run_id=sink.run_id)
        if outcome == "handed_back":
            await sink.save_session()
        return HandOff(outcome=outcome, person=person)

    return handoff_tools(ask=ask, wait_s=wait_s)

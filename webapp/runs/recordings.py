"""A run's recording: kept when the run ends (one file of JPEG frames and their index), read back frame by frame,
each frame placed in the step it shows (the last step that had started when it was captured)."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypedDict

from django.core.files.base import ContentFile
from django.db import transaction

from webapp.runs.models import Recording, Run

if TYPE_CHECKING:
    from browser_pool.recording import RecordedFrame


class FrameIndex(TypedDict):
    at_ms: int
    offset: int
    size: int
    width: int
    height: int


class FrameOut(TypedDict):
    index: int
    at_ms: int
    width: int
    height: int
    step: int | None  # the index of the step it shows (the last one started by then); None: before the first step
    step_id: int | None
    url: str


@transaction.atomic
def recording_save(*, run_id: int, frames: Sequence[RecordedFrame], truncated: bool = False) -> Recording | None:
    """Keep a run's frames (in the order they were captured); nothing is kept for no frames."""
    if not frames:
        return None
    ordered = sorted(frames, key=lambda f: f.ts_ms)
    index: list[FrameIndex] = []
    offset = 0
    for frame in ordered:
        index.append({"at_ms": frame.ts_ms, "offset": offset, "size": len(frame.data),
                      "width": frame.width, "height": frame.height})  # fmt: skip
        offset += len(frame.data)
    recording = Recording(run_id=run_id, frames=index, bytes=offset, truncated=truncated)
    recording.file.save(f"run-{run_id}.frames", ContentFile(b"".join(f.data for f in ordered)), save=False)
    recording.save()
    return recording


def recording_of(*, run: Run) -> Recording | None:
    return Recording.objects.filter(run=run).first()


def recording_frames(*, recording: Recording, frame_url: str) -> list[FrameOut]:
    """The frames with the step each shows; `frame_url` has `{n}` where the frame's number goes."""
    steps = list(recording.run.steps.order_by("index").values_list("index", "pk", "started_at"))
    starts = [int(started.timestamp() * 1000) for _, _, started in steps]
    out: list[FrameOut] = []
    for n, frame in enumerate(recording.frames):
        at = bisect.bisect_right(starts, frame["at_ms"]) - 1
        out.append({"index": n, "at_ms": frame["at_ms"], "width": frame["width"], "height": frame["height"],
                    "step": steps[at][0] if at >= 0 else None,
                    "step_id": steps[at][1] if at >= 0 else None, "url": frame_url.format(n=n)})  # fmt: skip
    return out


def recording_frame(*, recording: Recording, n: int) -> bytes | None:
    """Frame `n`'s JPEG, None when there is no such frame (or its file was pruned)."""
    if not 0 <= n < len(recording.frames) or not recording.file:
        return None
    frame = recording.frames[n]
    try:
        with recording.file.open("rb") as f:
            f.seek(frame["offset"])
            data: bytes = f.read(frame["size"])
    except OSError:
        return None
    return data

"""A run's recording: kept when the run ends (one file of JPEG frames and their index), read back frame by frame,
each frame placed in the step it shows (the last step that had started when it was captured). The steps' own
pictures, taken as each step ended, are part of it: they show the pages the frames leave out (those with a password
field, masked in the step's picture) and the page as each step left it."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, TypedDict

from django.core.files.base import ContentFile
from django.db import transaction
from django.urls import reverse

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
    source: str  # "frame": recorded between and during steps; "step": the step's own picture as it ended
    width: int  # 0: not known (a step's picture)
    height: int
    step: int | None  # the index of the step it shows (the last one started by then); None: before the first step
    step_id: int | None
    url: str


@transaction.atomic
def recording_save(*, run_id: int, frames: Sequence[RecordedFrame], truncated: bool = False) -> Recording:
    """Keep a run's frames (in the order they were captured); with none, the recording is its steps' pictures."""
    ordered = sorted(frames, key=lambda f: f.ts_ms)
    index: list[FrameIndex] = []
    offset = 0
    for frame in ordered:
        index.append({"at_ms": frame.ts_ms, "offset": offset, "size": len(frame.data),
                      "width": frame.width, "height": frame.height})  # fmt: skip
        offset += len(frame.data)
    recording = Recording(run_id=run_id, frames=index, bytes=offset, truncated=truncated)
    if ordered:
        recording.file.save(f"run-{run_id}.frames", ContentFile(b"".join(f.data for f in ordered)), save=False)
    recording.save()
    return recording


def recording_of(*, run: Run) -> Recording | None:
    return Recording.objects.filter(run=run).first()


def recording_frames(*, recording: Recording, frame_url: str) -> list[FrameOut]:
    """The frames and the steps' pictures in the order they were taken, each with the step it shows; `frame_url`
    has `{n}` where a frame's number goes."""
    steps = list(recording.run.steps.order_by("index"))
    starts = [_ms(step.started_at) for step in steps]
    shots: list[tuple[int, str, int, int, str]] = [
        (_ms(step.started_at) + (step.duration_ms or 0), "step", 0, 0, reverse("step-screenshot", args=[step.pk]))
        for step in steps
        if step.screenshot
    ]
    kept = [
        (f["at_ms"], "frame", f["width"], f["height"], frame_url.format(n=n)) for n, f in enumerate(recording.frames)
    ]
    out: list[FrameOut] = []
    for n, (at_ms, source, width, height, url) in enumerate(sorted(kept + shots, key=lambda item: item[0])):
        at = bisect.bisect_right(starts, at_ms) - 1
        step = steps[at] if at >= 0 else None
        out.append({"index": n, "at_ms": at_ms, "source": source, "width": width, "height": height,
                    "step": step.index if step else None, "step_id": step.pk if step else None, "url": url})  # fmt: skip
    return out


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


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

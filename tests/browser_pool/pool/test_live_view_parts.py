"""The browser-free parts of the live view: frame headers, the latest-frame slot, validating viewer input."""

from __future__ import annotations

import asyncio

import pytest

from browser_pool.input import InputError, InputEvent, key_definition
from browser_pool.screencast import Frame, LatestFrameSlot, jpeg_size


def _frame(n: int) -> Frame:
    return Frame(data=bytes([n]), width=1, height=1, tab_id="t1", ts_ms=n)


def test_jpeg_size_reads_the_frame_header() -> None:
    # SOI, an APP0 segment of 16 bytes, then SOF0 with height 400 and width 640.
    header = b"\xff\xd8" + b"\xff\xe0\x00\x10" + b"\x00" * 14 + b"\xff\xc0\x00\x11\x08\x01\x90\x02\x80"
    assert jpeg_size(header) == (640, 400)
    assert jpeg_size(b"not a jpeg") is None


@pytest.mark.asyncio
async def test_the_slot_hands_out_only_the_newest_frame_and_counts_the_skipped() -> None:
    slot = LatestFrameSlot()
    for n in range(3):
        slot.put(_frame(n))

    assert (await slot.take()).ts_ms == 2
    assert slot.dropped == 2
    waiting = asyncio.ensure_future(slot.take())
    await asyncio.sleep(0)
    assert not waiting.done(), "an empty slot waits for the next frame"
    slot.put(_frame(7))
    assert (await asyncio.wait_for(waiting, 1)).ts_ms == 7


def test_untrusted_input_is_validated_with_readable_errors() -> None:
    with pytest.raises(InputError, match="kind"):
        InputEvent.from_dict({"kind": "explode"})
    with pytest.raises(InputError, match="x must be a number"):
        InputEvent.from_dict({"kind": "click", "x": "left", "y": 0.5})
    with pytest.raises(InputError, match="x must be a number"):
        InputEvent.from_dict({"kind": "click", "x": float("nan"), "y": 0.5})
    with pytest.raises(InputError, match="y must be a number"):
        InputEvent.from_dict({"kind": "click", "x": 0.5, "y": True})
    with pytest.raises(InputError, match="modifiers"):
        InputEvent.from_dict({"kind": "key", "key": "a", "modifiers": ["hyper"]})
    with pytest.raises(InputError, match="needs a key"):
        InputEvent.from_dict({"kind": "key"})
    with pytest.raises(InputError, match="text"):
        InputEvent.from_dict({"kind": "text", "text": "x" * 10_001})
    # A drag that leaves the picture ends at its edge.
    assert InputEvent.from_dict({"kind": "move", "x": 1.7, "y": -0.2}).x == 1.0


def test_keys_held_with_ctrl_type_nothing() -> None:
    assert key_definition("a") == ("KeyA", 65, "a")
    assert key_definition("a", modifier_bits=2) == ("KeyA", 65, "")
    assert key_definition("Enter") == ("Enter", 13, "\r")
    with pytest.raises(InputError, match="unknown key"):
        key_definition("Hyper")

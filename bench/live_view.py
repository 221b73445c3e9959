"""Live view through the whole stack: Chromium screencast → worker → Redis channel layer → Daphne → websocket.

Measures, for 1 and 5 viewers: the latency from a page change to the frame's arrival at each viewer, the
frame rate and bytes per second on an animating page; then 4 fast viewers beside one slow viewer (it
acknowledges each frame only after 1 s) to show the slow one does not slow the others.

    .venv/bin/python bench/live_view.py
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import websockets  # noqa: E402

from bench.stack import cookie_header, running_stack, signed_in_client  # noqa: E402
from bench.stats import percentile  # noqa: E402
from tests.support.static_server import serve_directory  # noqa: E402

PHASE_S = 10.0  # --smoke shortens it


def run_action(client, headers, conversation_id: int, action: str, **arguments) -> dict:
    run = client.post(
        f"/api/conversations/{conversation_id}/actions/",
        json={"action": action, "arguments": arguments},
        headers=headers,
    ).json()
    for _ in range(1200):
        state = client.get(f"/api/runs/{run['id']}/").json()
        if state["status"] not in ("queued", "running", "waiting"):
            assert state["status"] == "succeeded", state
            return state
        time.sleep(0.02)
    raise TimeoutError(action)


STEPS = 20  # --smoke shortens it


def step_times(client, headers, conversation_id: int, pages: str) -> list[float]:
    """Duration of a browser step (a click on the animating page, with its screenshot), as the worker recorded it."""
    run_action(client, headers, conversation_id, "navigate", url=f"{pages}/animated.html")
    return [
        float(run_action(client, headers, conversation_id, "click", x=640, y=100)["steps"][0]["duration_ms"])
        for _ in range(STEPS)
    ]


async def steps_while_watched(client, headers, conversation_id, pages, url, cookie, origin, count) -> list[float]:
    viewers = [asyncio.create_task(viewer(url, cookie, origin, 120)) for _ in range(count)]
    await asyncio.sleep(2)
    try:
        return await asyncio.to_thread(step_times, client, headers, conversation_id, pages)
    finally:
        for task in viewers:
            task.cancel()
        await asyncio.gather(*viewers, return_exceptions=True)


async def viewer(
    url: str, cookie: str, origin: str, duration_s: float, ack_delay_s: float = 0.0
) -> list[tuple[float, int]]:
    frames: list[tuple[float, int]] = []
    async with websockets.connect(url, additional_headers={"Cookie": cookie, "Origin": origin}, max_size=None) as ws:
        deadline = time.time() + duration_s
        while True:
            left = deadline - time.time()
            if left <= 0:
                break
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=left)
            except TimeoutError:
                break
            event = json.loads(raw)
            if event.get("type") != "frame":
                continue
            frames.append((time.time(), len(base64.b64decode(event["data"]))))
            if ack_delay_s:
                await asyncio.sleep(ack_delay_s)
            await ws.send(json.dumps({"type": "frame.ack"}))
    return frames


def change_latencies_ms(frames: list[tuple[float, int]]) -> list[float]:
    """The first frame after each 500 ms boundary shows that boundary's change."""
    latencies, seen = [], set()
    for arrival, _ in frames:
        boundary = int(arrival * 1000) // 500 * 500
        if boundary in seen:
            continue
        seen.add(boundary)
        latencies.append(arrival * 1000 - boundary)
    return latencies[1:]  # the first one may predate the viewer's first complete interval


async def watch(url: str, cookie: str, origin: str, count: int, slow: int = 0) -> list[list[tuple[float, int]]]:
    tasks = [viewer(url, cookie, origin, PHASE_S) for _ in range(count)]
    tasks += [viewer(url, cookie, origin, PHASE_S, ack_delay_s=1.0) for _ in range(slow)]
    return list(await asyncio.gather(*tasks))


def main() -> None:
    global PHASE_S, STEPS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: check that the benchmark still runs")
    smoke = parser.parse_args().smoke
    if smoke:
        PHASE_S, STEPS = 1.0, 2
    counts, watchers = ((1, 2), 2) if smoke else ((1, 5, 20), 20)
    with serve_directory(Path(__file__).parent / "pages") as pages, running_stack() as stack:
        client, headers = signed_in_client(stack.base_url, "bench")
        conversation = client.post("/api/conversations/", json={"title": "live view"}, headers=headers).json()["id"]
        ws_url = stack.base_url.replace("http://", "ws://") + f"/ws/conversations/{conversation}/"
        cookie = cookie_header(client)
        rows = []
        idle_steps = step_times(client, headers, conversation, pages)
        for count in counts:
            run_action(client, headers, conversation, "navigate", url=f"{pages}/stepper.html")
            results = asyncio.run(watch(ws_url, cookie, stack.base_url, count))
            latencies = [lat for frames in results for lat in change_latencies_ms(frames)]
            run_action(client, headers, conversation, "navigate", url=f"{pages}/animated.html")
            results = asyncio.run(watch(ws_url, cookie, stack.base_url, count))
            fps = [len(frames) / PHASE_S for frames in results]
            bps = [sum(size for _, size in frames) / PHASE_S for frames in results]
            rows.append(
                (
                    count,
                    percentile(latencies, 0.5),
                    percentile(latencies, 0.95),
                    statistics.mean(fps),
                    statistics.mean(bps) / 1024,
                )
            )
        run_action(client, headers, conversation, "navigate", url=f"{pages}/animated.html")
        mixed = asyncio.run(watch(ws_url, cookie, stack.base_url, 4, slow=1))
        watched_steps = asyncio.run(
            steps_while_watched(client, headers, conversation, pages, ws_url, cookie, stack.base_url, watchers)
        )
        fast_fps: list[float] = [len(frames) / PHASE_S for frames in mixed[:4]]
        slow_fps = len(mixed[4]) / PHASE_S

    print("viewers | change→frame p50 ms | p95 ms | fps per viewer (animating) | KiB/s per viewer")
    for count, p50, p95, mean_fps, kib in rows:
        print(f"{count:7d} | {p50:19.0f} | {p95:6.0f} | {mean_fps:26.1f} | {kib:16.0f}")
    print(
        f"browser step (click + screenshot) on the animating page, {STEPS} steps: no viewers p50 "
        f"{percentile(idle_steps, 0.5):.0f} ms p95 {percentile(idle_steps, 0.95):.0f} ms; {watchers} viewers p50 "
        f"{percentile(watched_steps, 0.5):.0f} ms p95 {percentile(watched_steps, 0.95):.0f} ms"
    )
    print(
        f"4 fast + 1 slow viewer: fast viewers {statistics.mean(fast_fps):.1f} fps each "
        f"(min {min(fast_fps):.1f}), the slow viewer {slow_fps:.1f} fps"
    )


if __name__ == "__main__":
    main()

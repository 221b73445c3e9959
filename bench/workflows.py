"""Workflows: the same sign-up task as an agent run, as a replay, and as a replay on a redesigned page; then how
many of 22 page variations a replay gets through by finding its elements again, without a model.

The real stack (Redis, Daphne, a Celery worker with its Chromium, SQLite) and the scripted model (instant: the
agent's figures are a lower bound; a real model adds its latency to each of its calls). All runs are in one
conversation, so all use the same warm browser session; times are from the POST to the run's end.

    .venv/bin/python bench/workflows.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


from bench.stack import running_stack, signed_in_client  # noqa: E402
from bench.stats import percentile  # noqa: E402
from tests.agents.support import calls_made, find_index, user_request  # noqa: E402
from tests.support.llm_server import Reply, ScriptedLLM  # noqa: E402
from tests.support.static_server import serve_directory  # noqa: E402

TERMINAL = ("succeeded", "failed", "aborted")

SCRIPT = """<script>
  const pick = (f, name) => f.querySelector(`[name="${name}"]:not([type=hidden])`).value;
  document.querySelector("form").addEventListener("submit", (e) => {
    e.preventDefault();
    const f = e.target;
    document.getElementById("result").textContent =
      `Welcome ${pick(f, FULL)} <${pick(f, MAIL)}> on the ${pick(f, PLAN)} plan`;
  });
</script>"""


def page(v: dict[str, Any]) -> str:
    """The sign-up form with one variation applied (v names what changed)."""
    ids = v.get("ids", ("full-name", "mail", "plan", "join-btn"))
    cls = v.get("cls", "inp")
    names = v.get("names", ("fullname", "email", "plan"))
    labels = v.get("labels", ("Full name", "Email", "Plan"))
    id_attr = (lambda i: f' id="{i}"') if not v.get("no_ids") else (lambda i: "")

    def field(n: int, tag: str = "input", extra: str = "") -> str:
        label = f'<label for="{ids[n]}">{labels[n]}</label> ' if not v.get("aria") else ""
        aria = f' aria-label="{labels[n]}"' if v.get("aria") else ""
        placeholder = f' placeholder="{labels[n]}"' if v.get("placeholders") else ""
        if tag == "select":
            options = '<option value="free">Free</option><option value="pro">Pro</option>'
            if v.get("reorder_options"):
                options = '<option value="pro">Pro</option><option value="free">Free</option>'
            control = f'<select{id_attr(ids[n])} name="{names[n]}"{aria}>{options}</select>'
        else:
            kind = ' type="email"' if n == 1 else ""
            control = f'<{tag}{id_attr(ids[n])} name="{names[n]}"{kind} class="{cls}"{aria}{placeholder}>'
            if tag == "textarea":
                control = f'<textarea{id_attr(ids[n])} name="{names[n]}"{aria}></textarea>'
        body = f"{label}{control}"
        return f'<div class="row"><p>{body}</p></div>' if v.get("wrap") else f"<p>{body}</p>{extra}"

    if v.get("submit_input"):
        button = f'<p><input{id_attr(ids[3])} type="submit" value="{v.get("button", "Join")}"></p>'
    else:
        button = f'<p><button{id_attr(ids[3])} class="btn" type="submit">{v.get("button", "Join")}</button></p>'
    blocks = [field(0, v.get("name_tag", "input")), field(1), field(2, "select")]
    if v.get("swap"):
        blocks[0], blocks[1] = blocks[1], blocks[0]
    extra = '<p><label for="nick">Nickname</label> <input id="nick" name="nickname"></p>'
    if v.get("extra_first"):
        blocks.insert(0, extra)
    if v.get("extra_last"):
        blocks.append(extra)
    if v.get("hidden_twin"):
        blocks.append(f'<input type="hidden" name="{names[0]}" value="">')
    blocks = [button, *blocks] if v.get("button_first") else [*blocks, button]
    banner = '<div class="banner"><p>New here?</p><button type="button">Join</button></div>' if v.get("banner") else ""
    form = f'<form id="{v.get("form_id", "signup-form")}">{"".join(blocks)}</form>'
    if v.get("section"):
        form = f"<section><h2>Your details</h2>{form}</section>"
    script = SCRIPT.replace("FULL", json.dumps(names[0])).replace("MAIL", json.dumps(names[1]))
    script = script.replace("PLAN", json.dumps(names[2]))
    return (f'<!doctype html><html><head><meta charset="utf-8"><title>Join the club</title></head><body>'
            f'<h1>Join the club</h1>{banner}{form}<p id="result"></p>{script}</body></html>')  # fmt: skip


VARIATIONS: list[tuple[str, dict[str, Any]]] = [
    ("ids renamed", {"ids": ("a1", "a2", "a3", "a4")}),
    ("classes renamed", {"cls": "field-2"}),
    ("ids and classes renamed", {"ids": ("b1", "b2", "b3", "b4"), "cls": "x"}),
    ("button moved first", {"button_first": True}),
    ("a field added first", {"extra_first": True}),
    ("a field added last", {"extra_last": True}),
    ("fields wrapped in divs", {"wrap": True}),
    ("aria-labels instead of labels", {"aria": True}),
    ("button says Join now", {"button": "Join now"}),
    ("name attributes renamed", {"names": ("full_name", "e_mail", "tier")}),
    ("labels reworded", {"labels": ("Your full name", "Email address", "Plan")}),
    ("name and email swapped", {"swap": True}),
    ("options reordered", {"reorder_options": True}),
    ("form inside a section", {"section": True, "form_id": "s"}),
    ("no ids, placeholders", {"no_ids": True, "placeholders": True}),
    ("submit is an input", {"submit_input": True}),
    ("a banner with another Join button", {"banner": True}),
    ("a hidden twin field", {"hidden_twin": True}),
    ("ids renamed, button moved, field added", {"ids": ("c1", "c2", "c3", "c4"), "button_first": True, "extra_first": True}),
    ("names and labels both changed", {"names": ("n1", "n2", "n3"), "labels": ("Name", "Mail", "Tier")}),
    ("name field became a textarea", {"name_tag": "textarea"}),
    ("everything at once", {"ids": ("d1", "d2", "d3", "d4"), "cls": "y", "wrap": True, "button_first": True,
                            "extra_first": True, "section": True, "form_id": "q"}),
]  # fmt: skip


MODEL_LATENCY_S = 0.0


def _heal(request: dict[str, Any]) -> Reply:
    made = calls_made(request)
    if not made:
        return Reply(tool_calls=[{"name": "get_elements", "arguments": {}}], delay_s=MODEL_LATENCY_S)
    if len(made) > 1:
        return Reply(content="done", delay_s=MODEL_LATENCY_S)
    values = json.loads(re.search(r"The workflow's parameters: (\{.*\})", user_request(request)).group(1))  # type: ignore[union-attr]
    arguments = {"index": find_index(request, "Your name"), "text": values["fullname"]}
    return Reply(tool_calls=[{"name": "type", "arguments": arguments}], delay_s=MODEL_LATENCY_S)


def _agent(request: dict[str, Any]) -> Reply:
    if "no longer fits the page" in user_request(request):
        return _heal(request)
    made = calls_made(request)
    url = re.search(r'Sign me up at (http://[^\s"\\]+)', json.dumps([m.get("content") for m in request["messages"]]))
    plan = [("navigate", lambda: {"url": url.group(1) if url else ""}), ("get_elements", dict),
            ("type", lambda: {"index": find_index(request, "Full name"), "text": "Ada Lovelace"}),
            ("type", lambda: {"index": find_index(request, "Email"), "text": "ada@example.com"}),
            ("select", lambda: {"index": find_index(request, "Plan"), "value": "pro"}),
            ("click", lambda: {"index": find_index(request, "Join")})]  # fmt: skip
    if len(made) < len(plan):
        name, arguments = plan[len(made)]
        return Reply(tool_calls=[{"name": name, "arguments": arguments()}], prompt_tokens=1500, completion_tokens=40,
                     delay_s=MODEL_LATENCY_S)  # fmt: skip
    return Reply(content="You are signed up.", prompt_tokens=1500, completion_tokens=10, delay_s=MODEL_LATENCY_S)


def _seconds(stamp: str) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


class Hive:
    def __init__(self, base_url: str) -> None:
        self.client, self.headers = signed_in_client(base_url, "bench-workflows")
        self.conversation = int(self.client.post("/api/conversations/", json={}, headers=self.headers).json()["id"])

    def until_done(self, run_id: int, poll_s: float = 0.02) -> dict[str, Any]:
        while True:
            run = self.client.get(f"/api/runs/{run_id}/").json()
            if run["status"] in TERMINAL:
                return dict(run)
            time.sleep(poll_s)  # polling the API for the run's end; the figures are seconds

    def timed(self, path: str, body: dict[str, Any], run_of: Any) -> tuple[float, dict[str, Any]]:
        started = time.perf_counter()
        response = self.client.post(path, json=body, headers=self.headers)
        response.raise_for_status()
        run = self.until_done(int(run_of(response.json())["id"]))
        return time.perf_counter() - started, run

    def agent(self, url: str) -> tuple[float, dict[str, Any]]:
        path = f"/api/conversations/{self.conversation}/messages/"
        return self.timed(path, {"content": f"Sign me up at {url}"}, lambda body: body["run"])

    def replay(self, workflow_id: int, **parameters: str) -> tuple[float, dict[str, Any]]:
        body = {"parameters": parameters, "conversation": self.conversation}
        return self.timed(f"/api/workflows/{workflow_id}/runs/", body, lambda body: body)

    def result(self) -> str:
        path = f"/api/conversations/{self.conversation}/actions/"
        code = "return document.getElementById('result').textContent"
        _, run = self.timed(path, {"action": "execute_js", "arguments": {"code": code}}, lambda body: body)
        return json.dumps(run.get("steps", []))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--model-latency", type=float, default=0.0, help="seconds the scripted model waits before each answer"
    )
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: check that the benchmark still runs")
    args = parser.parse_args()
    global MODEL_LATENCY_S
    MODEL_LATENCY_S = args.model_latency
    variations = VARIATIONS[:2] if args.smoke else VARIATIONS
    repeat = 1 if args.smoke else args.repeat
    llm = ScriptedLLM()
    llm.start()
    llm.script(_agent)
    folder = Path(tempfile.mkdtemp(prefix="hive-bench-wf-"))
    (folder / "signup.html").write_text(page({}))
    env = {"HIVE_LLM_BASE_URL": llm.base_url, "HIVE_LLM_MODEL": "scripted", "HIVE_QUOTA_RUNS_PER_HOUR": "100000"}
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {repeat} runs of each")
    try:
        with serve_directory(folder) as site, running_stack(workers=1, extra_env=env) as stack:
            hive = Hive(stack.base_url)
            url = f"{site}/signup.html"
            agent_s, replay_s, healed_s, calls, waits = [], [], [], [], []
            spent: dict[str, list[float]] = {}
            saved = 0
            for n in range(repeat):
                (folder / "signup.html").write_text(page({}))
                before = len(llm.requests)
                elapsed, run = hive.agent(url)
                assert run["status"] == "succeeded", run
                agent_s.append(elapsed)
                calls.append(len(llm.requests) - before)
                if n == 0:
                    saved = int(hive.client.post(f"/api/runs/{run['id']}/workflow/", json={"name": "Join"},
                                                 headers=hive.headers).json()["id"])  # fmt: skip
                before = len(llm.requests)
                elapsed, run = hive.replay(saved, fullname=f"Grace {n}", email="grace@example.com", plan="free")
                assert run["status"] == "succeeded", run
                assert len(llm.requests) == before
                replay_s.append(elapsed)
                for step in run.get("steps", []):
                    spent.setdefault(step["action"], []).append(step["duration_ms"] or 0)
                timing = [run["created_at"], run["started_at"], run["finished_at"]]
                waits.append(_seconds(timing[1]) - _seconds(timing[0]))
                (folder / "signup.html").write_text(page(VARIATIONS[18][1]))
                elapsed, run = hive.replay(saved, fullname=f"Alan {n}", email="alan@example.com")
                assert run["status"] == "succeeded", run
                assert len(llm.requests) == before
                healed_s.append(elapsed)
            model = f"model answering in {MODEL_LATENCY_S:g} s" if MODEL_LATENCY_S else "instant scripted model"
            print(f"{'agent run (' + model + ')':<40} p50 {percentile(agent_s, 0.5):6.2f} s   "
                  f"{sum(calls) / len(calls):.0f} model calls, {int(sum(calls) / len(calls)) * 1500} prompt tokens")  # fmt: skip
            print(f"{'replay':<40} p50 {percentile(replay_s, 0.5):6.2f} s   0 model calls")
            print(
                f"{'replay, page redesigned (found anew)':<40} p50 {percentile(healed_s, 0.5):6.2f} s   0 model calls"
            )
            steps = ", ".join(f"{action} {percentile(ms, 0.5):.0f}" for action, ms in spent.items())
            print(f"{'  replay steps, p50 ms':<40} {steps}; queued before start {percentile(waits, 0.5) * 1000:.0f}")
            print(f"{'agent / replay':<40} {percentile(agent_s, 0.5) / percentile(replay_s, 0.5):6.1f}x")
            passed = 0
            for label, variation in variations:
                (folder / "signup.html").write_text(page(variation))
                _, run = hive.replay(saved, fullname="Grace Hopper", email="grace@example.com", plan="free")
                right = run["status"] == "succeeded" and "Welcome Grace Hopper" in hive.result()
                passed += right
                print(
                    f"  {'ok  ' if right else 'FAIL'} {label}{'' if right else ': ' + (run.get('error') or 'wrong result')[:160]}"
                )
            print(
                f"{'variations replayed without a model':<40} {passed}/{len(variations)} ({100 * passed / len(variations):.0f} %)"
            )
            # Last: healing makes a new version, which the replays above would have used.
            relabelled = {"ids": ("w1", "mail", "plan", "join-btn"), "names": ("who", "email", "plan"),
                          "labels": ("Your name", "Email", "Plan")}  # fmt: skip
            (folder / "signup.html").write_text(page(relabelled))
            before = len(llm.requests)
            heal_s, run = hive.replay(saved, fullname="Edsger", email="e@example.com")
            assert run["status"] == "succeeded", run
            heal_calls = len(llm.requests) - before
            after_s, run = hive.replay(saved, fullname="Barbara", email="b@example.com")
            assert run["status"] == "succeeded", run
            assert len(llm.requests) == before + heal_calls
            print(f"{'replay, a step healed by the agent':<40}      {heal_s:6.2f} s   {heal_calls} model calls")
            print(f"{'replay of the healed version':<40}      {after_s:6.2f} s   0 model calls")
    finally:
        llm.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()

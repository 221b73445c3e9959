"""How one agent turn behaves: which models, the safety valves, the safety policy, what is observed and shown."""

from __future__ import annotations

from dataclasses import dataclass, field

from agents.llm.config import ModelConfig
from agents.safety import SafetyConfig

# Planning, memory, summarising and extraction: for longer tasks. They wait behind more_tools like the rarer tools,
# and are offered by themselves once a task turns out long (see AgentConfig.long_task_chars and long_task_calls).
LONG_TASK_TOOLS = ("publish_plan", "summarize_page", "extract_data", "search_memory")
# Tools rarely needed on the way through a page, offered after more_tools (agents.tools.more); upload_file is offered
# at once when the conversation has files.
DEFERRED_TOOLS = ("open_tab", "switch_tab", "close_tab", "list_tabs", "go_forward", "refresh", "drag_drop",
                  "upload_file", "execute_js", "screenshot", "get_element_details", "ask_person",
                  *LONG_TASK_TOOLS)  # fmt: skip


@dataclass(frozen=True, slots=True)
class AgentConfig:
    # None means no model is configured: run_agent_turn raises NoModelConfiguredError.
    model: ModelConfig | None
    # Tried when the model still fails after its retries (and before any of its text reached the user).
    fallback_model: ModelConfig | None = None

    # -- safety valves: a model that loops, hangs or never answers ends the turn, not the worker ------------------
    # Tool calls one turn may make; then the model is asked for a final answer without tools.
    max_tool_calls: int = 30
    final_answer_on_limit: bool = True
    # One tool call (confirmation time excluded); a Tool's own `timeout_s` overrides it.
    tool_timeout_s: float = 30.0
    # The whole turn; None leaves it to the caller (the worker has its own hard limit).
    turn_timeout_s: float | None = None
    # The same tool with the same arguments on the same page state this many times: refused and the model is
    # told; one more and the turn stops.
    loop_repeat_limit: int = 3
    # Backstop for a sink whose confirm never answers; the sink's own timeout normally answers first.
    confirm_timeout_s: float = 600.0

    # -- what the user sees ----------------------------------------------------------------------------------
    # Record the model's reasoning (text next to tool calls, reasoning fields) as "thought" steps, so a user who
    # asks for it can follow why the agent acted; off, the reasoning is not shown at all.
    show_reasoning: bool = False
    # A JPEG of the active tab with every step that may change the page.
    step_screenshots: bool = True
    screenshot_quality: int = 60

    # -- what the model sees ---------------------------------------------------------------------------------
    # Visible page text in the page summary; the safety policy reads more of it.
    page_text_chars: int = 500
    safety_text_chars: int = 3_000
    # The interactive elements with each observation (what changed after an action), so look-ups are rare; this
    # many characters of them at most (0: counts only, the model calls get_elements).
    elements_chars: int = 2_500
    # A page with at most this many is listed whole (those below the fold marked offscreen) when the list fits.
    elements_whole_page_up_to: int = 40
    # One observation is cut to this size. Results older than the last few steps are kept as a summary: the outcome,
    # the start of what the tool reported (at most `old_observation_chars`, at a word boundary), where the page went.
    observation_max_chars: int = 12_000
    keep_full_observations: int = 4
    old_observation_chars: int = 300
    # Extra instructions appended to the system prompt (a persona, an operator's rules).
    instructions: str = ""

    # -- plumbing --------------------------------------------------------------------------------------------
    safety: SafetyConfig = field(default_factory=SafetyConfig)
    # Playwright's own waits inside an action (finding the element, navigation settles ...).
    action_timeout_ms: int = 5_000
    # First retry of a failed model call waits this long, then twice as long each time.
    retry_backoff_s: float = 0.5
    browser_tools: bool = True
    plan_tools: bool = True
    # Tools offered only after the model calls more_tools (agents.tools.more); () offers every tool at once.
    deferred_tools: tuple[str, ...] = DEFERRED_TOOLS
    # Of those, the ones a long task needs, offered without asking when the user's message has at least
    # `long_task_chars` characters or the turn has made `long_task_calls` tool calls.
    long_task_tools: tuple[str, ...] = LONG_TASK_TOOLS
    long_task_chars: int = 400
    long_task_calls: int = 8

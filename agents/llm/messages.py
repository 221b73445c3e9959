"""The shapes of what Hive sends a model, in OpenAI's chat format.

The openai SDK types these (`ChatCompletionMessageParam`, `ChatCompletionToolParam`), but what Hive sends steps
outside them on purpose: a `name` on tool messages for providers that want one, image parts in the user turn that
carries a fenced model's results, provider-specific fields. So they stay dicts, under names that say what they are.
"""

from __future__ import annotations

from typing import Any

# {"role": "system" | "user" | "assistant" | "tool", "content": str | [parts] | None, "tool_calls"?, "tool_call_id"?}
ChatMessage = dict[str, Any]
# {"type": "function", "function": {"name", "description", "parameters"}}
FunctionTool = dict[str, Any]

"""The agent: LLM adapter, turn loop, tools, prompts. A plain async library: it never imports Django."""

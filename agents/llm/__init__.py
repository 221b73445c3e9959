from agents.llm.client import ChatResult, LLMClient, LLMError, Usage
from agents.llm.config import ModelConfig, NoModelConfiguredError

__all__ = ["ChatResult", "LLMClient", "LLMError", "ModelConfig", "NoModelConfiguredError", "Usage"]

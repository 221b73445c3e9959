from django.apps import AppConfig


class LlmConfig(AppConfig):
    name = "webapp.llm"
    label = "llm"
    verbose_name = "Model profiles"

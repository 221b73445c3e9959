from django.apps import AppConfig


class ConversationsConfig(AppConfig):
    name = "webapp.conversations"
    label = "conversations"

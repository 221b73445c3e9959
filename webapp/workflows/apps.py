from django.apps import AppConfig


class WorkflowsConfig(AppConfig):
    name = "webapp.workflows"
    label = "workflows"

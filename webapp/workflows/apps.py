from django.apps import AppConfig


class WorkflowsConfig(AppConfig):
    name = "webapp.workflows"
    label = "workflows"

    def ready(self) -> None:
        from webapp.runs.signals import run_finished
        from webapp.workflows.receivers import on_run_finished

        run_finished.connect(on_run_finished, dispatch_uid="workflows.webhook")

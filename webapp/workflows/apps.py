from django.apps import AppConfig


class WorkflowsConfig(AppConfig):
    name = "webapp.workflows"
    label = "workflows"

    def ready(self) -> None:
        from django.contrib.auth.models import User
        from django.db.models.signals import post_delete, post_save

        from webapp.runs.signals import run_finished
        from webapp.workflows.models import WorkflowSchedule
        from webapp.workflows.receivers import account_saved, on_run_finished, schedule_removed

        run_finished.connect(on_run_finished, dispatch_uid="workflows.webhook")
        post_delete.connect(schedule_removed, sender=WorkflowSchedule, dispatch_uid="workflows.schedule_removed")
        post_save.connect(account_saved, sender=User, dispatch_uid="workflows.account_saved")

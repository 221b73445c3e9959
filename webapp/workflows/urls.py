from django.urls import path

from webapp.workflows import apis

urlpatterns = [
    path("runs/<int:run_id>/workflow/", apis.RunSaveApi.as_view(), name="run-save-workflow"),
    path(
        "conversations/<int:conversation_id>/workflow/",
        apis.ConversationSaveApi.as_view(),
        name="conversation-save-workflow",
    ),
    path("workflows/", apis.WorkflowListApi.as_view(), name="workflow-list"),
    path("credentials/", apis.CredentialListApi.as_view(), name="credential-list"),
    path("credentials/<int:credential_id>/", apis.CredentialDetailApi.as_view(), name="credential-detail"),
    path("workflows/<int:workflow_id>/", apis.WorkflowDetailApi.as_view(), name="workflow-detail"),
    path("workflows/<int:workflow_id>/runs/", apis.WorkflowRunApi.as_view(), name="workflow-run"),
    path("workflows/<int:workflow_id>/versions/", apis.WorkflowVersionListApi.as_view(), name="workflow-versions"),
    path("workflows/<int:workflow_id>/webhook/", apis.WebhookApi.as_view(), name="workflow-webhook"),
    path("workflows/<int:workflow_id>/deliveries/", apis.DeliveryListApi.as_view(), name="workflow-deliveries"),
    path("workflows/<int:workflow_id>/schedules/", apis.ScheduleListApi.as_view(), name="workflow-schedules"),
    path(
        "workflows/<int:workflow_id>/schedules/<int:schedule_id>/",
        apis.ScheduleDetailApi.as_view(),
        name="workflow-schedule",
    ),
    path("workflows/<int:workflow_id>/shares/", apis.WorkflowShareListApi.as_view(), name="workflow-shares"),
    path(
        "workflows/<int:workflow_id>/shares/<int:workflow_share_id>/",
        apis.WorkflowShareDetailApi.as_view(),
        name="workflow-share",
    ),
    path("workflows/<int:workflow_id>/export/", apis.WorkflowExportApi.as_view(), name="workflow-export"),
]

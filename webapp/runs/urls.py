from django.urls import path

from webapp.runs import apis

urlpatterns = [
    path("conversations/<int:conversation_id>/runs/", apis.RunListApi.as_view(), name="run-list"),
    path("runs/<int:run_id>/", apis.RunDetailApi.as_view(), name="run-detail"),
    path("runs/<int:run_id>/abort/", apis.RunAbortApi.as_view(), name="run-abort"),
    path("steps/<int:step_id>/screenshot/", apis.StepScreenshotApi.as_view(), name="step-screenshot"),
    path("runs/<int:run_id>/recording/", apis.RunRecordingApi.as_view(), name="run-recording"),
    path(
        "runs/<int:run_id>/recording/frames/<int:n>/", apis.RunRecordingFrameApi.as_view(), name="run-recording-frame"
    ),
    path("runs/<int:run_id>/debug/", apis.RunDebugApi.as_view(), name="run-debug"),
    path("runs/<int:run_id>/trace.zip", apis.RunTraceApi.as_view(), name="run-trace"),
    path(
        "confirmations/<int:confirmation_id>/answer/", apis.ConfirmationAnswerApi.as_view(), name="confirmation-answer"
    ),
]

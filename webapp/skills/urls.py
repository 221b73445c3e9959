from django.urls import path

from webapp.skills import apis

urlpatterns = [
    path("skills/", apis.SkillListApi.as_view(), name="skill-list"),
    path(
        "conversations/<int:conversation_id>/skills/",
        apis.ConversationSkillListApi.as_view(),
        name="conversation-skill-list",
    ),
    path(
        "conversations/<int:conversation_id>/skills/<int:skill_id>/",
        apis.ConversationSkillDetailApi.as_view(),
        name="conversation-skill-detail",
    ),
]

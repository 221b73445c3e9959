from django.apps import AppConfig


class SkillsConfig(AppConfig):
    name = "webapp.skills"
    label = "skills"
    verbose_name = "SKILLs"

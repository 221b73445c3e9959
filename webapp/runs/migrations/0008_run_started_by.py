import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def starters_from_messages(apps, schema_editor):
    """A turn's starter is its message's author, where that was kept. Other runs made before this field stay without
    one: nothing said who started them, and a run without a starter draws on nobody's credentials."""
    Run = apps.get_model("runs", "Run")
    Message = apps.get_model("conversations", "Message")
    authored = Message.objects.filter(run=models.OuterRef("pk"), role="user", author__isnull=False)
    Run.objects.filter(kind="turn", started_by__isnull=True).update(
        started_by=models.Subquery(authored.order_by("id").values("author")[:1])
    )


class Migration(migrations.Migration):
    dependencies = [
        ("runs", "0007_alter_run_kind"),
        ("conversations", "0007_message_author"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="run",
            name="started_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.RunPython(starters_from_messages, migrations.RunPython.noop),
    ]

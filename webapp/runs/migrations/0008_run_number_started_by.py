"""Runs get a number within their conversation ("Run 1" in each) and the person who started them.

Existing runs are numbered by their conversation's order (created, then id); who started an agent turn is the
author of the message that started it, and runs by hand from before this change stay without one.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def number_runs(apps, schema_editor):
    Run = apps.get_model("runs", "Run")
    Message = apps.get_model("conversations", "Message")
    started_by = dict(
        Message.objects.filter(role="user", run__isnull=False, author__isnull=False).values_list("run_id", "author_id")
    )
    batch, conversation_id, number = [], None, 0
    for run in Run.objects.order_by("conversation_id", "created_at", "id").only("id", "conversation_id").iterator():
        if run.conversation_id != conversation_id:
            conversation_id, number = run.conversation_id, 0
        number += 1
        run.number, run.started_by_id = number, started_by.get(run.pk)
        batch.append(run)
        if len(batch) >= 500:
            Run.objects.bulk_update(batch, ["number", "started_by"])
            batch = []
    Run.objects.bulk_update(batch, ["number", "started_by"])


class Migration(migrations.Migration):
    dependencies = [
        ("runs", "0007_alter_run_kind"),
        ("conversations", "0009_conversation_origin"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="run",
            name="number",
            field=models.PositiveIntegerField(default=0),
            preserve_default=False,
        ),
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
        migrations.RunPython(number_runs, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="run",
            constraint=models.UniqueConstraint(
                fields=("conversation", "number"), name="unique_run_number_per_conversation"
            ),
        ),
    ]

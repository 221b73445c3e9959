"""Runs get a number within their conversation ("Run 1" in each): existing runs are numbered in their
conversation's order (created, then id)."""

from django.db import migrations, models


def number_runs(apps, schema_editor):
    Run = apps.get_model("runs", "Run")
    batch, conversation_id, number = [], None, 0
    for run in Run.objects.order_by("conversation_id", "created_at", "id").only("id", "conversation_id").iterator():
        if run.conversation_id != conversation_id:
            conversation_id, number = run.conversation_id, 0
        number += 1
        run.number = number
        batch.append(run)
        if len(batch) >= 500:
            Run.objects.bulk_update(batch, ["number"])
            batch = []
    Run.objects.bulk_update(batch, ["number"])


class Migration(migrations.Migration):
    dependencies = [
        ("runs", "0008_run_started_by"),
        ("conversations", "0009_conversation_origin"),
    ]

    operations = [
        migrations.AddField(
            model_name="run",
            name="number",
            field=models.PositiveIntegerField(default=0),
            preserve_default=False,
        ),
        migrations.RunPython(number_runs, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="run",
            constraint=models.UniqueConstraint(
                fields=("conversation", "number"), name="unique_run_number_per_conversation"
            ),
        ),
    ]

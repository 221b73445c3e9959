from typing import Any

from django.db import migrations, models


def kind_from_metadata(apps: Any, schema_editor: Any) -> None:
    """Runs made before the field said what they were in their metadata ("kind": "action" or "tool")."""
    run_model = apps.get_model("runs", "Run")
    for kind in ("action", "tool"):
        run_model.objects.filter(metadata__kind=kind).update(kind=kind)


class Migration(migrations.Migration):
    dependencies = [("runs", "0004_run_dispatched_at")]

    operations = [
        migrations.AddField(
            model_name="run",
            name="kind",
            field=models.CharField(
                choices=[("turn", "Turn"), ("action", "Action"), ("tool", "Tool")], default="turn", max_length=8
            ),
        ),
        migrations.RunPython(kind_from_metadata, migrations.RunPython.noop),
    ]

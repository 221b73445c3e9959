"""Saved browser state (cookies, local storage) is encrypted at rest: encrypt the rows saved before."""

from django.db import migrations


def encrypt_states(apps, schema_editor):
    from webapp.core.crypto import ENCRYPTED, encrypt_document

    BrowserSession = apps.get_model("conversations", "BrowserSession")
    for session in BrowserSession.objects.exclude(state={}):
        if ENCRYPTED not in session.state:
            session.state = encrypt_document(session.state)
            session.save(update_fields=["state"])


class Migration(migrations.Migration):
    dependencies = [("conversations", "0007_message_author")]

    operations = [migrations.RunPython(encrypt_states, migrations.RunPython.noop)]

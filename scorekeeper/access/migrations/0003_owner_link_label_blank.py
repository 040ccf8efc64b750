# The link a phone gets by starting a match without an account is known by being the owner's
# link (owner=True): its label is left blank and the links page words it ("Started on this
# phone", in the reader's language). Before, it kept those English words as its label.

from django.db import migrations

STARTED_ON_THIS_PHONE = "Started on this phone"


def words_to_blank(apps, schema_editor):
    ShareLink = apps.get_model("access", "ShareLink")
    ShareLink.objects.filter(owner=True, label=STARTED_ON_THIS_PHONE).update(label="")


def blank_to_words(apps, schema_editor):
    ShareLink = apps.get_model("access", "ShareLink")
    ShareLink.objects.filter(owner=True, label="").update(label=STARTED_ON_THIS_PHONE)


class Migration(migrations.Migration):

    dependencies = [
        ("access", "0002_owner_link_and_links_made_through"),
    ]

    operations = [
        migrations.RunPython(words_to_blank, blank_to_words),
    ]

# A league night's table card carries a link that was labelled with the words "Table 3" in the
# language of the organizer who started the round. It keeps the table's number instead, and each
# reader sees it said in their own language (ShareLink.said_label). The words the four languages
# gave are read back to the number; any other label is a label someone typed and stays.

import re

from django.db import migrations, models

#: "Table 3" as the app wrote it in each of its languages (locale/*/django.po)
TABLE_WORDS = re.compile(r"^(?:Table|Mesa|Stół|Stůl) (\d{1,4})$")


def words_to_number(apps, schema_editor):
    ShareLink = apps.get_model("access", "ShareLink")
    for link in ShareLink.objects.filter(owner=False).exclude(label="").only("pk", "label"):
        found = TABLE_WORDS.match(link.label)
        if found:
            ShareLink.objects.filter(pk=link.pk).update(
                table_number=int(found.group(1)), label=""
            )


def number_to_words(apps, schema_editor):
    ShareLink = apps.get_model("access", "ShareLink")
    for link in ShareLink.objects.exclude(table_number=None).only("pk", "table_number"):
        ShareLink.objects.filter(pk=link.pk).update(label=f"Table {link.table_number}")


class Migration(migrations.Migration):
    dependencies = [
        ("access", "0003_owner_link_label_blank"),
    ]

    operations = [
        migrations.AddField(
            model_name="sharelink",
            name="table_number",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(words_to_number, number_to_words),
    ]

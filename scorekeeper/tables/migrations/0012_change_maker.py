# Who made a change is kept as data: the name someone gave, as typed, in made_by; a phone that
# gave none as the kind "phone" in maker, worded where it is read ("a phone at the table", in the
# reader's language). Before, such a change kept the app's English words in made_by.

from django.db import migrations, models

#: the app's own words that stood in made_by for a phone that gave no name ("Started on this
#: phone" was the owner's link's label, never a change's, but the board treated it as one)
A_PHONE = "a phone at the table"
STARTED_ON_THIS_PHONE = "Started on this phone"


def words_to_kind(apps, schema_editor):
    Change = apps.get_model("tables", "Change")
    Change.objects.filter(made_by__in=[A_PHONE, STARTED_ON_THIS_PHONE]).update(
        made_by="", maker="phone"
    )


def kind_to_words(apps, schema_editor):
    Change = apps.get_model("tables", "Change")
    Change.objects.filter(maker="phone").update(made_by=A_PHONE)


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0011_player_name_looks"),
    ]

    operations = [
        migrations.AddField(
            model_name="change",
            name="maker",
            field=models.CharField(
                blank=True, choices=[("phone", "a phone at the table")], max_length=8
            ),
        ),
        migrations.RunPython(words_to_kind, kind_to_words),
    ]

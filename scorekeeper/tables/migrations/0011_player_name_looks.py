# Each player's look: the TR39 skeleton of their name (scorekeeper/tables/names.py), so that a
# new name that looks like a known player's in another script is found with one indexed query.

from django.db import migrations, models

from scorekeeper.tables.names import name_look


def fill_looks(apps, schema_editor):
    """Players kept before looks whose names look alike stay apart, each with its look."""
    Player = apps.get_model("tables", "Player")
    for player in Player.objects.order_by("pk").iterator():
        player.look = name_look(player.name)
        player.save(update_fields=["look"])


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0010_seats_keep_who_sat_in_them_before_a_handover"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="look",
            field=models.CharField(db_index=True, default="", editable=False, max_length=160),
        ),
        migrations.RunPython(fill_looks, migrations.RunPython.noop),
    ]

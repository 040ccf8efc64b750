# Each player's key: what the names of the same player share (scorekeeper/tables/names.py).

from django.db import migrations, models

from scorekeeper.tables.names import name_key

#: no name holds a control character, so no key made from a name ends with this one
APART = "\x1f"


def fill_keys(apps, schema_editor):
    """Players told apart only by case or white space ("Ana" and "Ana ") were added as two
    before keys were kept: the first keeps the key, the others stay apart under their own (an
    admin may merge them), and a name entered from now on is the first of them."""
    Player = apps.get_model("tables", "Player")
    taken = set()
    for player in Player.objects.order_by("pk"):
        key = name_key(player.name)
        if key in taken:
            key = f"{key}{APART}{player.pk}"
        taken.add(key)
        player.key = key
        player.save(update_fields=["key"])


class Migration(migrations.Migration):

    dependencies = [
        ("tables", "0004_seats_not_names"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="key",
            field=models.CharField(default="", editable=False, max_length=160),
            preserve_default=False,
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="key",
            field=models.CharField(editable=False, max_length=160, unique=True),
        ),
    ]

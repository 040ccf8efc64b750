from django.db import migrations

from scorekeeper.tables.names import name_key


def left_by_id(apps, schema_editor):
    """A seat taken names who left by their player's id, said with their name as it is now.
    A name no player has (any more) is left as it is: the history says it as stored."""
    Change = apps.get_model("tables", "Change")
    Player = apps.get_model("tables", "Player")
    for change in Change.objects.filter(kind="seat-taken").iterator():
        left = change.params.get("left")
        if not isinstance(left, str):
            continue
        # as the app finds a player by a name: by its key, whatever the case and spaces
        found = Player.objects.filter(key=name_key(left)).values_list("pk", flat=True).first()
        if found is not None:
            change.params = {**change.params, "left": found}
            change.save(update_fields=["params"])


def left_by_name(apps, schema_editor):
    Change = apps.get_model("tables", "Change")
    Player = apps.get_model("tables", "Player")
    for change in Change.objects.filter(kind="seat-taken").iterator():
        left = change.params.get("left")
        if not isinstance(left, int):
            continue
        name = Player.objects.filter(pk=left).values_list("name", flat=True).first()
        change.params = {**change.params, "left": name or "?"}
        change.save(update_fields=["params"])


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0012_change_maker"),
    ]

    operations = [
        migrations.RunPython(left_by_id, left_by_name),
    ]

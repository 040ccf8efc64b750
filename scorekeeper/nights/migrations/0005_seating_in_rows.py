import django.db.models.deletion
from django.db import migrations, models


def seating_to_rows(apps, schema_editor):
    """Each table's seats and each round's players sitting out, from the lists of player ids
    to rows. An id no player has any more (the lists had no key to keep it) is left out."""
    NightRound = apps.get_model("nights", "NightRound")
    NightTable = apps.get_model("nights", "NightTable")
    TableSeat = apps.get_model("nights", "TableSeat")
    SittingOut = apps.get_model("nights", "SittingOut")
    Player = apps.get_model("tables", "Player")
    players = set(Player.objects.values_list("pk", flat=True))
    seats = [
        TableSeat(night_table_id=table, position=position, player_id=player)
        for table, listed in NightTable.objects.order_by("pk").values_list("pk", "seats")
        for position, player in enumerate(listed or [])
        if player in players
    ]
    TableSeat.objects.bulk_create(seats, batch_size=500)
    out = [
        SittingOut(night_round_id=night_round, player_id=player)
        for night_round, listed in NightRound.objects.order_by("pk").values_list(
            "pk", "sitting_out"
        )
        # dict.fromkeys: once each, in the order drawn
        for player in dict.fromkeys(listed or [])
        if player in players
    ]
    SittingOut.objects.bulk_create(out, batch_size=500)


def seating_to_lists(apps, schema_editor):
    NightRound = apps.get_model("nights", "NightRound")
    NightTable = apps.get_model("nights", "NightTable")
    TableSeat = apps.get_model("nights", "TableSeat")
    SittingOut = apps.get_model("nights", "SittingOut")
    seats: dict[int, list[int]] = {}
    for table, player in TableSeat.objects.order_by("night_table", "position").values_list(
        "night_table_id", "player_id"
    ):
        seats.setdefault(table, []).append(player)
    for table, players in seats.items():
        NightTable.objects.filter(pk=table).update(seats=players)
    out: dict[int, list[int]] = {}
    for night_round, player in SittingOut.objects.order_by("night_round", "pk").values_list(
        "night_round_id", "player_id"
    ):
        out.setdefault(night_round, []).append(player)
    for night_round, players in out.items():
        NightRound.objects.filter(pk=night_round).update(sitting_out=players)


class Migration(migrations.Migration):
    """A night's seating stored once, in rows: the JSON lists of player ids go. The rows'
    reverse accessors take the lists' names, so they are named only once the lists are gone."""

    dependencies = [
        ("nights", "0004_signed_results"),
        ("tables", "0011_player_name_looks"),
    ]

    operations = [
        migrations.CreateModel(
            name="TableSeat",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("position", models.PositiveSmallIntegerField()),
                (
                    "night_table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="nights.nighttable",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="tables.player",
                    ),
                ),
            ],
            options={
                "ordering": ["night_table", "position"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("night_table", "position"), name="one_player_a_table_seat"
                    ),
                    models.UniqueConstraint(
                        fields=("night_table", "player"), name="one_seat_a_player"
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="SittingOut",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "night_round",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="nights.nightround",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="tables.player",
                    ),
                ),
            ],
            options={
                "ordering": ["night_round", "pk"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("night_round", "player"), name="sitting_out_once_a_round"
                    ),
                ],
            },
        ),
        migrations.RunPython(seating_to_rows, seating_to_lists),
        migrations.RemoveField(model_name="nightround", name="sitting_out"),
        migrations.RemoveField(model_name="nighttable", name="seats"),
        migrations.AlterField(
            model_name="tableseat",
            name="night_table",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="seats",
                to="nights.nighttable",
            ),
        ),
        migrations.AlterField(
            model_name="sittingout",
            name="night_round",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="sitting_out",
                to="nights.nightround",
            ),
        ),
    ]

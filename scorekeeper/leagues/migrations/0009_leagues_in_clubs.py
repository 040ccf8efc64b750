"""Every league in a club: an existing hall's leagues go to one club, whose organizers are the
members of the old global group *Organizers* (the first of them, by account, its owner); the
group goes. Going back puts them in the group again."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

#: the old global group's name
ORGANIZERS = "Organizers"
#: the club an existing hall's leagues go to: its owner renames it
FIRST_CLUB = "Our hall"


def into_one_club(apps, schema_editor):
    League = apps.get_model("leagues", "League")
    Club = apps.get_model("clubs", "Club")
    Membership = apps.get_model("clubs", "Membership")
    Group = apps.get_model("auth", "Group")
    group = Group.objects.filter(name=ORGANIZERS).first()
    organizers = list(group.user_set.order_by("pk")) if group is not None else []
    if League.objects.exists() or organizers:
        club = Club.objects.create(name=FIRST_CLUB)
        League.objects.update(club=club)
        Membership.objects.bulk_create(
            Membership(club=club, user=user, role="owner" if first else "organizer")
            for first, user in zip([True] + [False] * len(organizers), organizers)
        )
    if group is not None:
        group.delete()


def back_to_the_group(apps, schema_editor):
    Membership = apps.get_model("clubs", "Membership")
    Group = apps.get_model("auth", "Group")
    group, _ = Group.objects.get_or_create(name=ORGANIZERS)
    runners = Membership.objects.filter(role__in=("owner", "organizer")).order_by("user_id")
    group.user_set.add(*{membership.user_id for membership in runners})


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0001_clubs_and_roles'),
        ('leagues', '0008_bundle_imports'),
        ('tables', '0013_seat_taken_keeps_who_left_by_id'),
        ('auth', '0012_alter_user_first_name_max_length'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='league',
            name='club',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name='leagues', to='clubs.club'),
        ),
        migrations.RunPython(into_one_club, back_to_the_group),
        migrations.AlterField(
            model_name='league',
            name='club',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='leagues', to='clubs.club'),
        ),
        migrations.AlterField(
            model_name='league',
            name='name',
            field=models.CharField(max_length=80),
        ),
        migrations.AddConstraint(
            model_name='league',
            constraint=models.UniqueConstraint(fields=('club', 'name'), name='one_league_name_per_club'),
        ),
    ]

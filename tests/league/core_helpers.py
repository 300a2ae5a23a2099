"""Builders shared by the league core tests (each test module wraps them in its own fixtures)."""

from datetime import date

from league.services import tournament_create_from_preset as preset_run


def make_four_team_league():
    """A World Rugby points league of FRA, NZL, ITA, URU (single round robin, 6 fixtures)."""
    return preset_run("league", name="Four nations", slug="four", teams=["FRA", "NZL", "ITA", "URU"],
                              start_date=date(2026, 9, 5), venues=["Pitch 1"])


def make_rwc():
    """The rwc2023 preset: 20 nations, pools A-D, 40 pool fixtures."""
    return preset_run("rwc2023", name="RWC 2023", slug="rwc", start_date=date(2023, 9, 8))


def fixture_between(tournament, home_code, away_code):
    """The pool fixture between two teams (either way round), with home/away as stored."""
    from django.db.models import Q

    from league.models import Fixture

    return Fixture.objects.get(
        Q(home__team__code=home_code, away__team__code=away_code)
        | Q(home__team__code=away_code, away__team__code=home_code),
        tournament=tournament,
    )


def in_french(client):
    """The client, asking for pages in French (the language cookie, as the switcher sets it)."""
    client.cookies["django_language"] = "fr"
    return client

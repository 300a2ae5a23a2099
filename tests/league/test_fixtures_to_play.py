"""The fixtures still to be played (issue 17: a 1,000-team league's organiser pages at once): the organiser's scorer
page lists the matches being played, then the soonest to play, in a fixed number of queries whatever the size of
the league, and the queries that look for the next fixtures are served by the partial indexes that hold only
fixtures still to be played (``fixture_to_play``) or being played (``fixture_live``), never by a walk past the
played ones."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.db import connection
from django.urls import reverse

from league import live_selectors, services
from league.models import SOONEST, Fixture, Team
from tests.league.api_factories import make_tournament
from tests.league.plans import plan_with_only

pytestmark = pytest.mark.django_db

on_postgresql = pytest.mark.skipif(connection.vendor != "postgresql", reason="the plans are PostgreSQL's")


def _codes(count: int) -> tuple[str, ...]:
    codes = tuple(f"T{n:03d}" for n in range(count))
    Team.objects.bulk_create([Team(code=code, name=f"Club {code}") for code in codes], ignore_conflicts=True)
    return codes


def test_the_scorer_page_lists_live_matches_first_then_the_soonest_to_play(organiser, organiser_client):
    tournament = make_tournament("score", user=organiser, teams=_codes(6))
    ordered = list(Fixture.objects.filter(tournament=tournament).order_by(*SOONEST))
    played, live = ordered[0], ordered[-1]
    Fixture.objects.filter(pk=played.pk).update(status=Fixture.Status.PLAYED)
    Fixture.objects.filter(pk=live.pk).update(status=Fixture.Status.LIVE)
    Fixture.objects.filter(pk=ordered[1].pk).update(status=Fixture.Status.CANCELLED)
    listed = live_selectors.fixtures_to_score(tournament)
    assert [f.pk for f in listed] == [live.pk] + [f.pk for f in ordered[2:-1]]
    html = organiser_client.get(reverse("league:manage_scorers", args=[tournament.slug])).content.decode()
    assert html.count(reverse("league:live_board", args=[tournament.slug, live.pk])) == 1
    assert reverse("league:live_board", args=[tournament.slug, played.pk]) not in html


def test_the_scorer_page_lists_at_most_its_limit_live_ones_first(organiser, monkeypatch):
    tournament = make_tournament("limit", user=organiser, teams=_codes(6))
    ordered = list(Fixture.objects.filter(tournament=tournament).order_by(*SOONEST))
    Fixture.objects.filter(pk__in=[f.pk for f in ordered[-3:]]).update(status=Fixture.Status.LIVE)
    monkeypatch.setattr(live_selectors, "FIXTURES_TO_SCORE", 2)
    assert [f.pk for f in live_selectors.fixtures_to_score(tournament)] == [f.pk for f in ordered[-3:-1]]
    monkeypatch.setattr(live_selectors, "FIXTURES_TO_SCORE", 5)
    assert [f.pk for f in live_selectors.fixtures_to_score(tournament)] == [f.pk for f in ordered[-3:] + ordered[:2]]


def test_a_league_without_kick_offs_lists_its_fixtures_in_the_order_they_were_made(organiser):
    tournament = make_tournament("untimed", user=organiser, teams=_codes(6), fixtures=False)
    services.fixtures_generate_round_robin(tournament=tournament)
    made = list(Fixture.objects.filter(tournament=tournament).order_by("slot", "pk"))
    assert all(f.kickoff is None for f in made)
    assert [f.pk for f in live_selectors.fixtures_to_score(tournament)] == [f.pk for f in made]


def test_without_kick_offs_every_pools_first_round_comes_before_any_pools_second(organiser, client):
    """The pools' fixtures are made pool by pool; a pool that has played two rounds must not hide another pool's
    first round still to play (on the scorer page, or as the round the Fixtures tab opens on)."""
    tournament = make_tournament("pools", user=organiser, teams=_codes(8), pools=2, fixtures=False)
    services.fixtures_generate_round_robin(tournament=tournament)
    fixtures = Fixture.objects.filter(tournament=tournament)
    pool_a_first_two = fixtures.filter(pool__name="A", round_number__lte=2)
    assert fixtures.filter(pool__name="A").order_by("pk").first().pk < fixtures.filter(pool__name="B").order_by(
        "pk").first().pk  # made pool by pool: the order of the ids alone would give pool A's round 3
    pool_a_first_two.update(status=Fixture.Status.PLAYED)
    listed = live_selectors.fixtures_to_score(tournament)
    assert [(f.round_number, f.pool.name) for f in listed[:2]] == [(1, "B"), (1, "B")]
    assert [f.round_number for f in listed] == sorted(f.round_number for f in listed)
    html = client.get(reverse("league:tournament_fixtures", args=[tournament.slug]) + "?by=round").content.decode()
    assert re.findall(r'href="\?by=round&amp;round=(\d+)" aria-current="page"', html) == ["1"]


@pytest.mark.parametrize("teams", [6, 16])
def test_the_scorer_page_runs_a_fixed_number_of_queries(organiser, organiser_client, teams,
                                                        django_assert_max_num_queries):
    tournament = make_tournament(f"size{teams}", user=organiser, teams=_codes(teams))
    Fixture.objects.filter(pk__in=Fixture.objects.filter(tournament=tournament).values("pk")[:2]).update(
        status=Fixture.Status.LIVE)
    url = reverse("league:manage_scorers", args=[tournament.slug])
    organiser_client.get(url)  # the session and the cached rows of the first visit
    with django_assert_max_num_queries(6):
        assert organiser_client.get(url).status_code == 200


@on_postgresql
@pytest.mark.parametrize(("queryset", "index"), [
    # The organiser's scorer page (``live_selectors.fixtures_to_score``): the matches being played, then the soonest.
    (lambda t: live_selectors.fixtures_soonest(t, Fixture.Status.LIVE)[:100], "fixture_live"),
    (lambda t: live_selectors.fixtures_soonest(t, Fixture.Status.SCHEDULED)[:100], "fixture_to_play"),
    # The round the Fixtures tab opens on (``web.views._current_round``).
    (lambda t: Fixture.objects.filter(tournament=t, status=Fixture.Status.SCHEDULED).order_by(*SOONEST)
     .values_list("round_number", flat=True)[:1], "fixture_to_play"),
    # The next kick-offs (``web.sections.build_next``) and the day the Fixtures tab opens on (``_current_day``).
    (lambda t: Fixture.objects.filter(tournament=t, status=Fixture.Status.SCHEDULED, kickoff__isnull=False)
     .order_by(*SOONEST).values_list("pk", flat=True)[:12], "fixture_to_play"),
    (lambda t: Fixture.objects.filter(tournament=t, status=Fixture.Status.SCHEDULED, kickoff__isnull=False)
     .order_by(*SOONEST).values_list("kickoff", flat=True)[:1], "fixture_to_play"),
    # A pitch's list (``web.sections.build_pitch``): the index compares its name byte-wise, which still serves the
    # equality.
    (lambda t: Fixture.objects.filter(tournament=t, venue="Pitch 2").order_by("kickoff"), "fixture_pitch"),
    (lambda t: Fixture.objects.filter(tournament=t, kickoff__gte=datetime(2027, 3, 6, tzinfo=UTC),
                                      kickoff__lt=datetime(2027, 3, 7, tzinfo=UTC)).order_by("kickoff"),
     "fixture_day"),
])
def test_the_next_fixtures_come_from_the_indexes_of_fixtures_to_play(organiser, queryset, index):
    """With the other indexes dropped and sequential scans and sorts off (``plan_with_only``), the plan on a small
    table shows whether the index can serve the query at all, in its order (a LIMIT then stops the walk: no sort of
    every fixture still to play)."""
    tournament = make_tournament("plan", user=organiser)
    plan = plan_with_only(queryset(tournament), index, sorts=False)
    assert index in plan, plan
    assert "Sort" not in plan, plan

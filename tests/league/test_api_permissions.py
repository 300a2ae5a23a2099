"""league.permissions: the rules for one tournament, and the same rules as querysets."""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth.models import AnonymousUser

from league.models import Tournament
from league.permissions import (
    can_edit_tournament,
    can_view_tournament,
    editable_tournaments,
    listed_tournaments,
    viewable_tournaments,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model, organiser):
    return {
        "anonymous": AnonymousUser(),
        "organiser": organiser,
        "co-organiser": django_user_model.objects.create_user(username="co", password="pw-co-1"),
        "stranger": django_user_model.objects.create_user(username="stranger", password="pw-stranger-1"),
        "inactive organiser": django_user_model.objects.create_user(username="gone", password="pw-gone-1",
                                                                    is_active=False),
        "superuser": django_user_model.objects.create_superuser(username="boss", password="pw-boss-1"),
    }


@pytest.fixture
def tournaments(people):
    made = {}
    for visibility, status in itertools.product(Tournament.Visibility.values, Tournament.Status.values):
        tournament = Tournament.objects.create(name=f"{visibility} {status}", slug=f"{visibility}-{status}",
                                               visibility=visibility, status=status)
        tournament.organisers.add(people["organiser"], people["co-organiser"], people["inactive organiser"])
        made[(visibility, status)] = tournament
    return made


EXPECTED_VIEW = {
    # who: (sees drafts, sees non-drafts)
    "anonymous": (False, True), "stranger": (False, True), "organiser": (True, True),
    "co-organiser": (True, True), "inactive organiser": (False, True), "superuser": (True, True),
}
EDITORS = {"organiser", "co-organiser", "superuser"}


def test_view_and_edit_rules(people, tournaments):
    for (who, user), ((visibility, status), tournament) in itertools.product(people.items(), tournaments.items()):
        sees_drafts, sees_others = EXPECTED_VIEW[who]
        expected = sees_drafts if status == Tournament.Status.DRAFT else sees_others
        assert can_view_tournament(user, tournament) is expected, (who, visibility, status)
        assert can_edit_tournament(user, tournament) is (who in EDITORS), (who, visibility, status)


def test_querysets_agree_with_the_functions(people, tournaments):
    for who, user in people.items():
        viewable = set(viewable_tournaments(user))
        editable = set(editable_tournaments(user))
        listed = set(listed_tournaments(user))
        for tournament in tournaments.values():
            assert (tournament in viewable) is can_view_tournament(user, tournament), (who, tournament)
            assert (tournament in editable) is can_edit_tournament(user, tournament), (who, tournament)
            # Listed: public non-drafts for everyone, plus every tournament one may edit.
            expected_listed = can_edit_tournament(user, tournament) or (
                tournament.visibility == Tournament.Visibility.PUBLIC
                and tournament.status != Tournament.Status.DRAFT)
            assert (tournament in listed) is expected_listed, (who, tournament)
        # Several organisers on one tournament never duplicate rows.
        assert viewable_tournaments(user).count() == len(viewable)


def test_prefetched_organisers_need_no_query(people, tournaments, django_assert_num_queries):
    tournament = Tournament.objects.prefetch_related("organisers").get(slug="public-draft")
    with django_assert_num_queries(0):
        assert can_edit_tournament(people["organiser"], tournament)
        assert not can_edit_tournament(people["stranger"], tournament)
        assert not can_view_tournament(people["anonymous"], tournament)

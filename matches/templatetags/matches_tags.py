"""Template tags for other apps' pages: ``{% load matches_tags %}{% live_now tournament %}``."""

from django import template
from django.core.exceptions import ObjectDoesNotExist

from league.permissions import can_edit_tournament
from matches import boards, selectors

register = template.Library()


@register.inclusion_tag("matches/_live_now.html")
def live_now(tournament):
    """The "live now" list of a tournament's matches being played online (one query with prefetches)."""
    return {"live_matches": list(selectors.live_matches(tournament)[:20]), "tournament": tournament}


@register.inclusion_tag("matches/_fixture_match.html", takes_context=True)
def fixture_match(context, fixture):
    """Links for a fixture page: watch/play/replay its online match, or (organisers) start it.

    Uses ``fixture.match`` (select_related("match") avoids a query per fixture in lists).
    """
    request = context.get("request")
    user = getattr(request, "user", None)
    try:
        match = fixture.match
    except ObjectDoesNotExist:  # no online match yet
        match = None
    tournament = fixture.tournament
    can_start = (match is None and tournament.spec.playable and fixture.home_id is not None
                 and not hasattr(fixture, "result") and user is not None and can_edit_tournament(user, tournament))
    return {"fixture": fixture, "match": match, "can_start": can_start, "csrf_token": context.get("csrf_token"),
            "request": request}


@register.filter
def score(points):
    """A score as people write it: ``5.5`` -> ``5½`` (Seasons' halved seasons), ``3`` -> ``3``."""
    return boards.score_text(points)

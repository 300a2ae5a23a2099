"""Template tags for other apps' pages: ``{% load matches_tags %}{% live_now tournament %}``."""

from django import template

from matches import selectors

register = template.Library()


@register.inclusion_tag("matches/_live_now.html")
def live_now(tournament):
    """The "live now" list of a tournament's matches being played online (one query with prefetches)."""
    return {"live_matches": list(selectors.live_matches(tournament)[:20]), "tournament": tournament}

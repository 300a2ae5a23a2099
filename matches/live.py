"""The live-score source of the matches played online through the engine (``league.live``'s first source).

``MatchesConfig.ready`` registers :func:`online_live_scores`; the match services call ``league.live.live_changed``
after every move of a fixture's match, so the open tournament pages show the new score within a check or two.
"""

from __future__ import annotations

from django.urls import reverse

from league.live import MAX_LIVE, LiveScore
from league.models import Tournament
from matches.models import Match
from matches.services import match_state

# Keys of a rule set's board that say how far a match has gone, most telling first; the engine's view has no
# common clock, so the first one a board has is shown ("clock" as it is, the others as "half 2").
_CLOCK_KEYS = ("clock", "half", "period", "season", "set")


def _clock(board: dict, ply: int) -> str:
    for key in _CLOCK_KEYS:
        value = board.get(key)
        if value not in (None, "", {}, []) and isinstance(value, (str, int)):
            return str(value) if key == "clock" else f"{key} {value}"
    return f"move {ply}"


def online_live_scores(tournament: Tournament) -> list[LiveScore]:
    """The score, tries and clock of each fixture of ``tournament`` being played online now (two queries per
    live match at most: its state comes from the snapshot the last move saved)."""
    if not tournament.spec.playable:
        return []  # results entered by hand: nothing is played on the site
    matches = (Match.objects.filter(fixture__tournament=tournament, status=Match.Status.LIVE)
               .order_by("-updated_at")[:MAX_LIVE])
    scores = []
    for match in matches:
        view = match_state(match).view(None)
        score = view.get("score") or {}
        home, away = score.get("home") or {}, score.get("away") or {}
        scores.append(LiveScore(
            fixture_id=match.fixture_id or 0, home_points=int(home.get("points", 0)),
            away_points=int(away.get("points", 0)), home_tries=int(home.get("tries", 0)),
            away_tries=int(away.get("tries", 0)), clock=_clock(view.get("board") or {}, match.ply),
            source="online", watch_url=reverse("matches:watch", args=[match.pk])))
    return scores

"""Whether a score can be made with a number of tries, per rule set: pure functions.

Used by ``league.services.result_record`` to refuse impossible results (a rugby
union score of 3 with 2 tries) with a message that says why.

* Rugby union scoring — hand-entered results ("manual") and RUGBY_Bokx ("bokx"):
  try 5, conversion 2 (at most one per try), penalty goal or drop goal 3. A
  penalty try (7) counts as a converted try.
* Rugby league with cards ("rugby-league-cards"): try 4, conversion 2, penalty
  goal 2, drop goal 1 — any score of at least 4 points a try is possible.
* "seasons" (football) and "rugby-champion-solo" have no tries to check.
"""

from __future__ import annotations

UNION_RULESETS = frozenset({"manual", "bokx"})
LEAGUE_RULESETS = frozenset({"rugby-league-cards"})


def union_score_possible(score: int, tries: int) -> bool:
    """True if ``score`` = 5 x tries + 2 x conversions (0..tries) + 3 x kicks (>= 0)."""
    rest = score - 5 * tries
    return any(rest - 2 * conversions >= 0 and (rest - 2 * conversions) % 3 == 0
               for conversions in range(tries + 1))


def _tries(n: int) -> str:
    return "1 try" if n == 1 else f"{n} tries"


def score_error(ruleset: str, score: int, tries: int) -> str | None:
    """Why ``score`` with ``tries`` is impossible under ``ruleset``'s scoring, or None if it is possible."""
    if ruleset in UNION_RULESETS:
        if score < 5 * tries:
            return (f"{_tries(tries)} {'is' if tries == 1 else 'are'} worth at least {5 * tries} points in rugby union "
                    f"(try 5), so a score of {score} is impossible.")
        if not union_score_possible(score, tries):
            return (f"A score of {score} cannot be made with {_tries(tries)} in rugby union "
                    "(try 5, conversion 2 at most once per try, penalty or drop goal 3).")
    elif ruleset in LEAGUE_RULESETS and score < 4 * tries:
        return (f"{_tries(tries)} {'is' if tries == 1 else 'are'} worth at least {4 * tries} points in rugby league "
                f"(try 4), so a score of {score} is impossible.")
    return None

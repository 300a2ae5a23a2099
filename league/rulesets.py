"""The checks the league makes on a rule set's options (the engine decides what they mean).

Used by ``Tournament.clean`` (the admin and ``full_clean``), the services that create tournaments and matches,
and the API serializer, so a bad option is one clear error wherever it is typed.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from engine import get_ruleset, new_game
from league.errors import DomainError

# Bounds on a rule set's option values: the engine checks names and types, not sizes, and a match with
# 10**40 sets a half (or a 1 MB team name in its commentary) would never end or bloat every snapshot.
OPTION_MAX_NUMBER = 1000
OPTION_MAX_TEXT = 80


def ruleset_options_validate(ruleset: str, options: Any) -> dict[str, Any]:
    """The rule set's options with its defaults filled in, or a ``DomainError`` saying what is wrong.

    Checked before anything is stored, so that a bad option is a clear error when the tournament or match
    is created rather than a crash when its first match starts: unknown names and wrong types (the
    engine's ``resolve_options``), what setting up a game refuses (e.g. 0 sets a half), and sizes.
    """
    if not isinstance(options, dict):
        raise DomainError({"ruleset_options": [_("Rule set options must be a JSON object.")]})
    try:
        ruleset_cls = get_ruleset(ruleset)
    except KeyError:
        raise DomainError({"ruleset": [_("Unknown rule set %(ruleset)s.") % {"ruleset": repr(ruleset)}]})
    for name, value in options.items():
        if isinstance(value, bool) or value is None:
            continue
        too_big = (isinstance(value, (int, float)) and not abs(value) <= OPTION_MAX_NUMBER) or (
            isinstance(value, str) and len(value) > OPTION_MAX_TEXT)
        if too_big or isinstance(value, (dict, list)):
            raise DomainError({"ruleset_options": [
                _("Option %(name)s: %(value)s is not allowed (a number up to %(max_number)s, a text of at most "
                  "%(max_text)s characters, or true/false).")
                % {"name": repr(name), "value": format(repr(value), ".40"), "max_number": OPTION_MAX_NUMBER,
                   "max_text": OPTION_MAX_TEXT}]})
    try:
        resolved: dict[str, Any] = ruleset_cls.spec.resolve_options(options)
        new_game(ruleset, seed=0, options=resolved)  # the rule set's own checks run when a game is set up
    except (ValueError, TypeError, KeyError) as exc:
        raise DomainError({"ruleset_options": [str(exc).strip("'\"")]})
    return resolved

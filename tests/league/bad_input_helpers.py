"""Shared by the bad-input tests (API fuzzing, web forms): a digest of every stored row a refused write must keep."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token

from league.models import Division, Entry, Event, Fixture, Pool, Result, ResultChange, Team, Tournament
from matches.models import EntryPass, Match, MatchAction, MatchSeat, SimulationRun

DIGEST_MODELS = (Tournament, Tournament.organisers.through, Team, Entry, Pool, Fixture, Result, ResultChange, Match,
                 MatchSeat, MatchAction, EntryPass, SimulationRun, Token, Event, Event.organisers.through, Division)


def database_digest(exclude: tuple = ()) -> list:
    """Every league and match row (all columns), and the accounts, in a stable order: equal digests, same data."""
    rows = [list(model.objects.order_by("pk").values_list()) for model in DIGEST_MODELS if model not in exclude]
    # Accounts without last_login (signing in by a test client changes it; it is not the users' data).
    rows.append(list(get_user_model().objects.order_by("pk").values_list("pk", "username", "password",
                                                                         "is_superuser")))
    return rows

"""Advancement: teams move through pools and brackets by themselves as results come in.

``league.services.result_record`` and ``result_delete`` call
:func:`validate_result_change` before saving (it refuses a knockout draw with no
winner) and :func:`after_result_change` inside their transaction after saving.
The latter re-derives every knockout slot from scratch (:func:`rederive`):

* a pool whose last result is in fills the slots "pool:A:1", "pool:A:2"...
  from its table (``league.selectors``, official tie-breakers);
* a played knockout match fills "winner:QF1" and "loser:QF1";
* a slot that resolves to a withdrawn team gives its opponent a walkover;
* byes need nothing: a team with a bye is already in the next round's fixture.

Because everything is derived again, a correction flows downstream through
every match not played yet. A change that would alter a knockout match that
*has* been played raises a ValidationError naming that match — which rolls the
whole change back — unless the organiser asked to reset later rounds
(:func:`resets_allowed`, used by ``league.formats.result_correct`` and
``bracket_reset_from``): then the results of the altered matches are deleted
(the audit trail keeps them) and those matches are filled again.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator

from django.db.models import Count

from league import hooks
from league.brackets import resolve_slot_source, source_label
from league.cache import tournament_changed
from league.errors import DomainError
from league.models import Entry, Fixture, Pool, Result, ResultChange, Tournament
from league.selectors import tournament_standings

_RESETS_ALLOWED = contextvars.ContextVar("league_advancement_resets_allowed", default=False)


@contextlib.contextmanager
def resets_allowed() -> Iterator[None]:
    """Within this block, results of played knockout matches that a change alters are reset, not refused."""
    token = _RESETS_ALLOWED.set(True)
    try:
        yield
    finally:
        _RESETS_ALLOWED.reset(token)


# -- Hooks called by league.services ---------------------------------------------------------------------

def validate_result_change(*, fixture: Fixture, values: dict | None) -> None:
    """Refuse a knockout result that does not say who went through.

    A knockout match needs a winner: when the scores are level (after 80
    minutes, as entered by hand) the organiser must say who went through
    (``winner``) and how (``decided_by``: extra time, tries count or kicking
    competition). Rule sets played on the engine play their own extra time,
    so their scores are never level.
    """
    if values is None or fixture.stage != Fixture.Stage.KNOCKOUT:
        return
    if values.get("kind", Result.Kind.PLAYED) != Result.Kind.PLAYED:
        return
    if values["home_score"] != values["away_score"]:
        return
    errors = {}
    if not values.get("winner_id"):
        errors["winner"] = [f"{_fixture_label(fixture)} is a knockout match and the scores are level: "
                            "say which team went through."]
    if values.get("decided_by") in ("", None, Result.DecidedBy.WALKOVER):
        errors["decided_by"] = ["Say how the level knockout match was decided: extra time, tries count or "
                                "kicking competition."]
    if errors:
        raise DomainError(errors)


def after_result_change(*, fixture: Fixture, user=None) -> None:
    """Re-derive the knockout slots after a result changed (the format's own follow-up, such as the next
    Swiss round, is ``league.formats``' ``after_result``, called by the services)."""
    rederive(fixture.tournament, user=user)


# -- Derivation -------------------------------------------------------------------------------------------

def match_outcome(fixture: Fixture, result: Result | None) -> tuple[int, int] | None:
    """(winner entry id, loser entry id) of a decided two-team fixture, else None."""
    if result is None or fixture.home_id is None or fixture.away_id is None:
        return None
    if result.kind == Result.Kind.WALKOVER_HOME:
        winner = fixture.home_id
    elif result.kind == Result.Kind.WALKOVER_AWAY:
        winner = fixture.away_id
    elif result.home_score != result.away_score:
        winner = fixture.home_id if result.home_score > result.away_score else fixture.away_id
    else:
        winner = result.winner_id
    if winner not in (fixture.home_id, fixture.away_id):
        return None
    return winner, fixture.away_id if winner == fixture.home_id else fixture.home_id


def result_of(fixture: Fixture) -> Result | None:
    try:
        return fixture.result
    except Result.DoesNotExist:
        return None


def _fixture_label(fixture: Fixture, entries: dict[int, Entry] | None = None) -> str:
    def side(entry_id, source):
        if entry_id is None:
            return source_label(source)
        entry = entries.get(entry_id) if entries else None
        if entry is not None:
            return entry.team.name
        team = getattr(getattr(fixture, "home" if entry_id == fixture.home_id else "away"), "team", None)
        return team.name if team is not None else str(entry_id)

    name = fixture.code or f"Round {fixture.round_number}"
    if fixture.bracket and not name.upper().startswith(fixture.bracket.upper()[:3]):
        name = f"{fixture.bracket} {name}"
    return f"{name} ({side(fixture.home_id, fixture.home_source)} v {side(fixture.away_id, fixture.away_source)})"


def _dependencies(fixture: Fixture) -> list[str]:
    codes = []
    for source in (fixture.home_source, fixture.away_source):
        kind, _, code = source.partition(":")
        if kind in ("winner", "loser"):
            codes.append(code)
    return codes


def _topological(knockouts: list[Fixture]) -> list[Fixture]:
    """Knockout fixtures with every match after the matches it draws its teams from."""
    by_code = {f.code: f for f in knockouts if f.code}
    ordered: list[Fixture] = []
    state: dict[int, int] = {}

    def visit(f: Fixture) -> None:
        if state.get(f.pk) == 2:
            return
        if state.get(f.pk) == 1:
            raise DomainError(f"The bracket loops back on itself at {f.code}.")
        state[f.pk] = 1
        for code in _dependencies(f):
            if code in by_code:
                visit(by_code[code])
        state[f.pk] = 2
        ordered.append(f)

    for f in sorted(knockouts, key=lambda f: (f.round_number, f.slot, f.pk)):
        visit(f)
    return ordered


def pool_placings(tournament: Tournament) -> dict[str, list[int]]:
    """Entry ids in finishing order for every *complete* pool (all its fixtures decided or cancelled).

    Two queries to find the complete pools, three more for their tables when there are any.
    """
    counts = (Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.POOL, pool__isnull=False)
              .exclude(status=Fixture.Status.CANCELLED).values("pool_id")
              .annotate(total=Count("id"), decided=Count("result")))
    complete = {row["pool_id"] for row in counts if row["total"] and row["total"] == row["decided"]}
    if not complete:
        return {}
    return {pool.name: [row.entry_id for row in rows] for pool, rows in tournament_standings(tournament)
            if pool.pk in complete}


def rederive(tournament: Tournament, *, user=None) -> list[str]:
    """Fill every knockout slot from pool tables and earlier results; return the codes of fixtures changed.

    Raises ValidationError naming the first played match the derivation would
    alter, unless resets are allowed (then its result is deleted and it is
    filled again, and so on downstream).
    """
    # Only the knockout fixtures are loaded: a 200-team league's results stay cheap to record.
    knockouts = list(Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.KNOCKOUT)
                     .select_related("result", "home__team", "away__team"))
    if not knockouts:
        return []
    entries = {e.pk: e for e in Entry.objects.filter(tournament=tournament).select_related("team")}
    by_seed = {e.seed: e.pk for e in entries.values() if e.seed is not None}
    placings = pool_placings(tournament) if any("pool:" in (f.home_source + f.away_source)
                                                for f in knockouts) else {}
    outcomes: dict[str, tuple[int, int] | None] = {}
    changed: list[str] = []
    reset = _RESETS_ALLOWED.get()

    def resolve(source: str, current: int | None) -> int | None:
        return resolve_slot_source(source, current, placings=placings, outcomes=outcomes, seeds=by_seed,
                                   entries=entries)

    for fixture in _topological(knockouts):
        want = (resolve(fixture.home_source, fixture.home_id), resolve(fixture.away_source, fixture.away_id))
        result = result_of(fixture)
        if want != (fixture.home_id, fixture.away_id):
            if result is None and fixture.status == Fixture.Status.LIVE:
                raise DomainError(f"This change would alter {_fixture_label(fixture, entries)}, which is being "
                                      "played now: wait for its result.")
            if result is not None:
                if not reset:
                    raise DomainError(
                        f"This change would alter {_fixture_label(fixture, entries)}, which has already been "
                        "played. Reset the later rounds to make it (their results will be deleted).")
                result_remove(fixture, result, user=user, reason="Reset: an earlier result was corrected.")
                result = None
            fixture.home_id, fixture.away_id = want
            fields = ["home", "away"]
            if fixture.status == Fixture.Status.PLAYED:
                fixture.status = Fixture.Status.SCHEDULED
                fields.append("status")
            fixture.save(update_fields=fields)
            changed.append(fixture.code)
        if result is None and None not in want:
            home_out = entries[want[0]].withdrawn_at is not None
            away_out = entries[want[1]].withdrawn_at is not None
            if home_out != away_out:
                # A forfeited knockout place goes to the opponent.
                result = walkover_record(fixture=fixture, to_home=away_out, user=user,
                                         reason=f"{entries[want[0] if home_out else want[1]].team.name} withdrew.")
                changed.append(fixture.code)
        outcomes[fixture.code] = match_outcome(fixture, result)
    if changed:
        tournament_changed(tournament)
    return changed


def _result_values(result: Result) -> dict:
    return {"home_score": result.home_score, "away_score": result.away_score, "home_tries": result.home_tries,
            "away_tries": result.away_tries, "kind": result.kind, "winner_id": result.winner_id,
            "decided_by": result.decided_by, "stats": result.stats, "source": result.source}


def result_remove(fixture: Fixture, result: Result, *, user=None, reason: str = "") -> None:
    old = _result_values(result)
    result.delete()
    ResultChange.objects.create(fixture=fixture, action="deleted", old=old, new=None, reason=reason[:200],
                                changed_by=user if getattr(user, "is_authenticated", False) else None)
    fixture.status = Fixture.Status.SCHEDULED
    fixture.save(update_fields=["status"])
    # The fixture object caches its result: forget it.
    fixture._state.fields_cache.pop("result", None)
    hooks.results_changed(fixture.tournament_id)


def walkover_record(*, fixture: Fixture, to_home: bool, user=None, reason: str = "") -> Result:
    """Give a fixture to one side by walkover (the tournament's walkover score and tries), with an audit row.

    Written directly, not through ``services.result_record``, because it runs
    inside the derivation (which would otherwise call itself).
    """
    tournament = fixture.tournament
    result = Result.objects.create(
        fixture=fixture, home_score=tournament.walkover_score if to_home else 0,
        away_score=0 if to_home else tournament.walkover_score,
        home_tries=tournament.walkover_tries if to_home else 0, away_tries=0 if to_home else tournament.walkover_tries,
        kind=Result.Kind.WALKOVER_HOME if to_home else Result.Kind.WALKOVER_AWAY,
        winner_id=fixture.home_id if to_home else fixture.away_id, decided_by=Result.DecidedBy.WALKOVER,
        entered_by=user if getattr(user, "is_authenticated", False) else None)
    ResultChange.objects.create(fixture=fixture, action="created", old=None, new=_result_values(result),
                                reason=reason[:200], changed_by=result.entered_by)
    fixture.status = Fixture.Status.PLAYED
    fixture.save(update_fields=["status"])
    fixture.result = result
    hooks.results_changed(fixture.tournament_id)
    return result


def downstream_codes(fixtures: list[Fixture], start: Fixture) -> list[str]:
    """Codes of the knockout fixtures whose teams depend, directly or not, on ``start``'s outcome."""
    pool_name = None
    if start.stage == Fixture.Stage.POOL and start.pool_id is not None:
        pool_name = Pool.objects.filter(pk=start.pool_id).values_list("name", flat=True).first()
    found: list[str] = []
    frontier = {start.code} if start.code else set()
    knockouts = [f for f in fixtures if f.stage == Fixture.Stage.KNOCKOUT]
    changed = True
    while changed:
        changed = False
        for f in knockouts:
            if f.code in found:
                continue
            sources = (f.home_source, f.away_source)
            direct = pool_name is not None and any(s.startswith(f"pool:{pool_name}:") for s in sources)
            if direct or set(_dependencies(f)) & frontier:
                found.append(f.code)
                frontier.add(f.code)
                changed = True
    return found

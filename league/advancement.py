"""Advancement: teams move through pools and brackets by themselves as results come in.

``league.services.result_record`` and ``result_delete`` call
:func:`validate_result_change` before saving (it refuses a knockout draw with no
winner) and :func:`after_result_change` inside their transaction after saving.
The latter follows the result down its own path only, in a fixed number of queries
whatever the size of the tournament:

* a pool whose last result is in fills the slots "pool:A:1", "pool:A:2"...
  from its table (official tie-breakers); a pool that is no longer complete (a
  result deleted) empties them;
* a played knockout match fills "winner:QF1" and "loser:QF1";
* a slot that resolves to a withdrawn team gives its opponent a walkover;
* byes need nothing: a team with a bye is already in the next round's fixture.

Only the knockout fixtures that draw from the changed fixture are read (by their
sources, through the index of the stages after the pools), and a change goes on to *their*
dependants only when their own outcome changes. A change that would alter a knockout
match that *has* been played raises a DomainError naming that match — which rolls the
whole change back — unless the organiser asked to reset later rounds
(:func:`resets_allowed`, used by ``league.services.result_correct`` and
``bracket_reset_from``): then the results of the altered matches are deleted (the
audit trail keeps them) and those matches are filled again, and so on downstream.

:func:`rederive` derives every knockout slot from scratch: for the changes that can
move many slots at once (a withdrawal, a new bracket, a reset of later rounds) and as
the reference the incremental path is tested against.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator

from django.db.models import Count, Q
from django.utils.translation import gettext as _

from league import hooks
from league.brackets import resolve_slot_source, source_label
from league.cache import fixture_tokens, tournament_changed
from league.errors import DomainError
from league.models import Entry, Fixture, Pool, Result, ResultChange, Tournament
from league.selectors import pool_table_of, tournament_standings
from league.standings import StandingEntry, StandingRow
from league.stored_texts import Coded, reason_fields

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
        errors["winner"] = [_("%(fixture)s is a knockout match and the scores are level: say which team went "
                              "through.") % {"fixture": _fixture_label(fixture)}]
    if values.get("decided_by") in ("", None, Result.DecidedBy.WALKOVER):
        errors["decided_by"] = [_("Say how the level knockout match was decided: extra time, tries count or "
                                  "kicking competition.")]
    if errors:
        raise DomainError(errors)


def after_result_change(*, fixture: Fixture, user=None) -> list[str]:
    """Fill the knockout slots that ``fixture``'s (new, corrected or deleted) result decides; return the codes
    of the fixtures changed.

    ``fixture`` carries its tournament, pool, home and away entries and its result as saved (the services
    load them with the row lock). The format's own follow-up, such as the next Swiss round, is
    ``league.formats``' ``after_result``, called by the services.
    """
    reset = _RESETS_ALLOWED.get()
    tournament = fixture.tournament
    # Entries whose withdrawal we know of without a query: the teams of the fixtures read so far.
    withdrawn: dict[int, bool] = {}
    # What changed so far: pools (their finishing order, None while not complete) and knockout outcomes.
    placings: dict[str, list[int] | None] = {}
    outcomes: dict[str, tuple[int, int] | None] = {}
    pending: dict[int, Fixture] = {}
    seen: dict[int, Fixture] = {}
    moved: dict[int, Fixture] = {}

    def source_changed(source: Fixture) -> None:
        _note_entries(withdrawn, source)
        dependants = _fed_by(source)
        if not dependants:
            return
        if source.stage == Fixture.Stage.POOL:
            placings[source.pool.name] = _complete_pool_order(source.pool, tournament, withdrawn)
        else:
            outcomes[source.code] = match_outcome(source, result_of(source))
        for dependant in dependants:
            # The copy already read (and perhaps changed in memory) wins over the one just loaded.
            pending[dependant.pk] = seen.setdefault(dependant.pk, dependant)

    if fixture.stage == Fixture.Stage.KNOCKOUT and result_of(fixture) is None:
        # A deleted result of a match with a withdrawn team: the walkover is given again.
        _note_entries(withdrawn, fixture)
        _walkover_if_withdrawn(fixture, withdrawn=withdrawn, user=user)
    source_changed(fixture)
    while pending:
        # Earlier rounds first: a fixture's sources are in earlier rounds, so when it comes up every change
        # that reaches it along any path is known, and it is filled once.
        dependant = min(pending.values(), key=lambda f: (f.round_number, f.slot, f.pk))
        del pending[dependant.pk]
        dependant.tournament = tournament
        _note_entries(withdrawn, dependant)
        want = tuple(_slot_after(dependant, side, placings, outcomes) for side in ("home", "away"))
        if want == (dependant.home_id, dependant.away_id):
            continue
        outcome_changed = _fill(dependant, want, withdrawn=withdrawn, reset=reset, user=user)
        moved[dependant.pk] = dependant
        if outcome_changed:
            source_changed(dependant)
    if moved:
        # One UPDATE for all of them: a complete pool can fill many slots (Cup, Plate, Bowl...) at once.
        Fixture.objects.bulk_update(list(moved.values()), ["home", "away", "status"])
    return [f.code for f in moved.values()]


def _slot_after(fixture: Fixture, side: str, placings: dict[str, list[int] | None],
                outcomes: dict[str, tuple[int, int] | None]) -> int | None:
    """The team of one side of ``fixture`` after the changes so far: its source resolved again when it names a
    changed pool or match, else the team it has."""
    source = getattr(fixture, f"{side}_source")
    kind, _sep, rest = source.partition(":")
    changed = (rest.rpartition(":")[0] in placings) if kind == "pool" else (
        kind in ("winner", "loser") and rest in outcomes)
    if not changed:
        return getattr(fixture, f"{side}_id")
    known = {name: order for name, order in placings.items() if order is not None}
    return resolve_slot_source(source, None, placings=known, outcomes=outcomes, seeds={})


def _note_entries(withdrawn: dict[int, bool], fixture: Fixture) -> None:
    for side in ("home", "away"):
        entry = fixture._state.fields_cache.get(side)
        if entry is not None:
            withdrawn[entry.pk] = entry.withdrawn_at is not None


def _fed_by(fixture: Fixture) -> list[Fixture]:
    """The knockout fixtures whose slot sources name ``fixture``'s pool or ``fixture`` itself (one query)."""
    if fixture.stage == Fixture.Stage.POOL and fixture.pool_id is not None:
        prefix = f"pool:{fixture.pool.name}:"
        named = Q(home_source__startswith=prefix) | Q(away_source__startswith=prefix)
    elif fixture.stage == Fixture.Stage.KNOCKOUT and fixture.code:
        sources = [f"winner:{fixture.code}", f"loser:{fixture.code}"]
        named = Q(home_source__in=sources) | Q(away_source__in=sources)
    else:
        return []
    return list(Fixture.objects.filter(named, tournament_id=fixture.tournament_id, stage=Fixture.Stage.KNOCKOUT)
                .select_related("result", "home__team", "away__team").order_by("round_number", "slot", "pk"))


def _complete_pool_order(pool: Pool, tournament: Tournament, withdrawn: dict[int, bool]) -> list[int] | None:
    """Entry ids of ``pool`` in finishing order when all its fixtures are decided (or cancelled), else None.

    Three queries: the pool's count of fixtures and results, then its entries and results for the table.
    """
    counts = (Fixture.objects.filter(pool=pool, stage=Fixture.Stage.POOL).exclude(status=Fixture.Status.CANCELLED)
              .aggregate(total=Count("id"), decided=Count("result")))
    if not counts["total"] or counts["total"] != counts["decided"]:
        return None
    rows = pool_table(pool, tournament, withdrawn=withdrawn)
    return [row.entry_id for row in rows]


def pool_table(pool: Pool, tournament: Tournament, *, withdrawn: dict[int, bool]) -> list[StandingRow]:
    """The table of one pool (two queries), as ``league.selectors.tournament_standings`` gives it; notes each
    entry's withdrawal in ``withdrawn``."""
    entries = []
    for pk, code, name, ranking, withdrawn_at in Entry.objects.filter(pool=pool).order_by().values_list(
            "pk", "team__code", "team__name", "team__world_ranking", "withdrawn_at"):
        entries.append(StandingEntry(pk, code, name, ranking))
        withdrawn[pk] = withdrawn_at is not None
    return pool_table_of(tournament, pool, entries)


def _fill(fixture: Fixture, want: tuple[int | None, int | None], *, withdrawn: dict[int, bool], reset: bool,
          user=None) -> bool:
    """Put other teams ``want`` in a knockout fixture, in memory (the caller saves it): a result that no longer
    stands is refused, or deleted with ``reset``; a walkover is given when one of the teams has withdrawn.

    Returns whether the fixture's outcome changed, so that the fixtures drawing from it must follow. A
    fixture whose teams change while it has no result keeps "no outcome": the path stops there.
    """
    result = result_of(fixture)
    outcome_changed = False
    if result is None and fixture.status == Fixture.Status.LIVE:
        raise DomainError(_("This change would alter %(fixture)s, which is being played now: wait for its result.")
                            % {"fixture": _fixture_label(fixture)})
    if result is not None:
        if not reset:
            raise DomainError(
                _("This change would alter %(fixture)s, which has already been played. Reset the later rounds to make "
                  "it (their results will be deleted).") % {"fixture": _fixture_label(fixture)})
        result_remove(fixture, result, user=user, reason=Coded("bracket_reset"))
        result = None
        outcome_changed = True
    fixture.home_id, fixture.away_id = want
    if fixture.status == Fixture.Status.PLAYED:
        fixture.status = Fixture.Status.SCHEDULED
    return _walkover_if_withdrawn(fixture, withdrawn=withdrawn, user=user) or outcome_changed


def _walkover_if_withdrawn(fixture: Fixture, *, withdrawn: dict[int, bool], user=None) -> bool:
    """Give a knockout fixture without a result to the opponent of a withdrawn team; True when it did."""
    if fixture.home_id is None or fixture.away_id is None:
        return False
    home_out, away_out = (_withdrawn(withdrawn, entry_id) for entry_id in (fixture.home_id, fixture.away_id))
    if home_out == away_out:
        return False
    # A forfeited knockout place goes to the opponent.
    withdrew = Entry.objects.select_related("team").get(pk=fixture.home_id if home_out else fixture.away_id)
    walkover_record(fixture=fixture, to_home=away_out, user=user,
                    reason=Coded("withdrew", {"team": withdrew.team.name}))
    return True


def _withdrawn(known: dict[int, bool], entry_id: int) -> bool:
    if entry_id not in known:
        known[entry_id] = Entry.objects.filter(pk=entry_id, withdrawn_at__isnull=False).exists()
    return known[entry_id]


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
        kind, _sep, code = source.partition(":")
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
            raise DomainError(_("The bracket loops back on itself at %(code)s.") % {"code": f.code})
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
    touched: list[str] = []  # cache tokens of what the changed fixtures show on, before and after
    reset = _RESETS_ALLOWED.get()

    def resolve(source: str, current: int | None) -> int | None:
        return resolve_slot_source(source, current, placings=placings, outcomes=outcomes, seeds=by_seed,
                                   entries=entries)

    for fixture in _topological(knockouts):
        want = (resolve(fixture.home_source, fixture.home_id), resolve(fixture.away_source, fixture.away_id))
        result = result_of(fixture)
        if want != (fixture.home_id, fixture.away_id):
            if result is None and fixture.status == Fixture.Status.LIVE:
                raise DomainError(_("This change would alter %(fixture)s, which is being played now: wait for its "
                                    "result.") % {"fixture": _fixture_label(fixture, entries)})
            if result is not None:
                if not reset:
                    raise DomainError(
                        _("This change would alter %(fixture)s, which has already been played. Reset the later rounds "
                          "to make it (their results will be deleted).")
                          % {"fixture": _fixture_label(fixture, entries)})
                result_remove(fixture, result, user=user, reason=Coded("bracket_reset"))
                result = None
            touched += fixture_tokens(fixture, tournament)
            fixture.home_id, fixture.away_id = want
            fields = ["home", "away"]
            if fixture.status == Fixture.Status.PLAYED:
                fixture.status = Fixture.Status.SCHEDULED
                fields.append("status")
            fixture.save(update_fields=fields)
            changed.append(fixture.code)
            touched += fixture_tokens(fixture, tournament)
        if result is None and None not in want:
            home_out = entries[want[0]].withdrawn_at is not None
            away_out = entries[want[1]].withdrawn_at is not None
            if home_out != away_out:
                # A forfeited knockout place goes to the opponent.
                result = walkover_record(fixture=fixture, to_home=away_out, user=user,
                                         reason=Coded("withdrew", {
                                             "team": entries[want[0] if home_out else want[1]].team.name}))
                changed.append(fixture.code)
                touched += fixture_tokens(fixture, tournament)
        outcomes[fixture.code] = match_outcome(fixture, result)
    if changed:
        # The bracket and the rounds, days, pitches and teams of the knockout fixtures filled: not the pools.
        tournament_changed(tournament, sections=touched)
    return changed


def _result_values(result: Result) -> dict:
    return {"home_score": result.home_score, "away_score": result.away_score, "home_tries": result.home_tries,
            "away_tries": result.away_tries, "kind": result.kind, "winner_id": result.winner_id,
            "decided_by": result.decided_by, "stats": result.stats, "source": result.source}


def result_remove(fixture: Fixture, result: Result, *, user=None, reason: str | Coded = "") -> None:
    old = _result_values(result)
    result.delete()
    ResultChange.objects.create(fixture=fixture, action="deleted", old=old, new=None,
                                changed_by=user if getattr(user, "is_authenticated", False) else None,
                                **reason_fields(reason))
    fixture.status = Fixture.Status.SCHEDULED
    fixture.save(update_fields=["status"])
    # The fixture object caches its result: it has none now (no query to find that out again).
    fixture._state.fields_cache["result"] = None
    hooks.results_changed(fixture.tournament_id)


def walkover_record(*, fixture: Fixture, to_home: bool, user=None, reason: str | Coded = "") -> Result:
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
                                changed_by=result.entered_by, **reason_fields(reason))
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

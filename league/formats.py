"""Writes for tournament formats: draws, brackets, Swiss rounds, solo challenges, withdrawals, corrections.

Keyword-only functions in the style of ``league.services``: each does one thing
in one transaction and raises ``django.core.exceptions.ValidationError`` with a
clear message. The algorithms are pure and live in ``league.draws``,
``league.brackets`` and ``league.swiss``; advancement is ``league.advancement``.

``Tournament.format_options`` holds each format's settings:

* pools_knockout: ``{"qualifiers": 2, "third_place": true}``
* single_elimination: ``{"third_place": false}``
* cup_plate: ``{"tiers": [["Cup", [1, 2]], ["Plate", [3]], ["Bowl", [4]]], "plate_from_cup_losers": false,
  "third_place": false}`` — with ``plate_from_cup_losers`` the losers of the Cup's first round make the Plate
* swiss: ``{"rounds": 5}``
* solo: ``{"attempts": 1}``
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from league import advancement, brackets, draws, services, swiss
from league.cache import tournament_changed
from league.models import Entry, Fixture, Pool, Result, Tournament

# -- Draws ------------------------------------------------------------------------------------------------


def _entries_in_seed_order(tournament: Tournament) -> list[Entry]:
    """Entries still in: organiser's seeds first, then World Rugby ranking (unranked last), then code."""
    entries = list(Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True).select_related("team"))
    return sorted(entries, key=lambda e: (e.seed is None, e.seed or 0, e.team.world_ranking is None,
                                          e.team.world_ranking or 0, e.team.code))


@transaction.atomic
def draw_pools(*, tournament: Tournament, method: str = draws.SEEDED, pools: int | Sequence[str] = 4,
               seed: int | None = None, assignment: Mapping[str, str] | None = None, generate_fixtures: bool = True,
               user=None, **schedule) -> dict[str, list[str]]:
    """Draw the entries into pools and (by default) make the pools' round-robin fixtures.

    ``method``: "seeded" (bands by seed, one team of each band per pool),
    "random", or "manual" with ``assignment`` {team code: pool name}. A random
    or seeded draw uses ``seed`` (a fresh one when None), stored on the
    tournament with the method so anyone can rerun it. Refused once a pool
    result exists. Returns {pool name: [team codes]}. ``schedule``: options of
    ``services.fixtures_generate_round_robin`` (start_date, venues...).
    """
    if method not in draws.METHODS:
        raise ValidationError({"method": [f"Unknown draw method {method!r}; use one of: {', '.join(draws.METHODS)}."]})
    if Result.objects.filter(fixture__tournament=tournament, fixture__stage=Fixture.Stage.POOL).exists():
        raise ValidationError("The pools cannot be drawn again: pool results have been entered.")
    entries = _entries_in_seed_order(tournament)
    by_code = {e.team.code: e for e in entries}
    try:
        names = draws.pool_names(pools) if isinstance(pools, int) else [str(p).strip() for p in pools]
        if any(not name or len(name) > 20 for name in names):
            raise draws.DrawError("pool names must have 1 to 20 characters")
        if method == draws.MANUAL:
            if not assignment:
                raise draws.DrawError("a manual draw needs each team's pool")
            unknown = sorted(set(assignment) - set(by_code))
            if unknown:
                raise draws.DrawError(f"not entered in this tournament: {', '.join(unknown)}")
            missing = sorted(set(by_code) - set(assignment))
            if missing:
                raise draws.DrawError(f"no pool given for {', '.join(missing)}")
            drawn = draws.manual_draw(assignment, names)
            seed = None
        else:
            seed = draws.new_draw_seed() if seed is None else int(seed)
            draw = draws.banded_draw if method == draws.SEEDED else draws.random_draw
            drawn = draw([e.team.code for e in entries], names, seed=seed)
    except draws.DrawError as exc:
        raise ValidationError(f"The draw cannot be made: {exc}.")
    Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.POOL).delete()
    Pool.objects.filter(tournament=tournament).exclude(name__in=names).delete()
    pool_objects = {name: services.pool_create(tournament=tournament, name=name, order=i)
                    for i, name in enumerate(names, start=1)}
    for name, codes in drawn.items():
        Entry.objects.filter(pk__in=[by_code[c].pk for c in codes]).update(pool=pool_objects[name])
    tournament.draw_method = method
    tournament.draw_seed = seed
    tournament.save(update_fields=["draw_method", "draw_seed"])
    if generate_fixtures:
        services.fixtures_generate_round_robin(tournament=tournament, replace=True, **schedule)
    if Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.KNOCKOUT).exists():
        # The knockout's slots name pools ("pool:C:1"): make them again for the new pools.
        bracket_create(tournament=tournament, replace=True, user=user)
    tournament_changed(tournament)
    return {name: list(codes) for name, codes in drawn.items()}


# -- Brackets ---------------------------------------------------------------------------------------------

def default_tiers(pool_size: int, *, plate_from_cup_losers: bool = False) -> list[tuple[str, list[int]]]:
    """Cup for the top two of each pool, then Plate, Bowl and Shield for 3rd, 4th and 5th (as far as they go).

    When the Cup's first-round losers make the Plate, 3rd places go to the Bowl and 4th to the Shield.
    """
    tiers = [("Cup", [1, 2])]
    names = brackets.DEFAULT_TIER_NAMES[2 if plate_from_cup_losers else 1:]
    for position, name in zip(range(3, pool_size + 1), names, strict=False):
        tiers.append((name, [position]))
    return tiers


def bracket_plans(tournament: Tournament) -> list[brackets.Bracket]:
    """The knockout plans of a tournament's format (without touching the database beyond reading its pools)."""
    options = tournament.format_options or {}
    third = bool(options.get("third_place", False))
    fmt = tournament.format
    if fmt == Tournament.Format.RWC2023:
        return [brackets.rwc2023_knockout()]
    if fmt == Tournament.Format.SINGLE_ELIMINATION:
        entries = _entries_in_seed_order(tournament)
        if len(entries) < 2:
            raise ValidationError("A knockout needs at least two teams.")
        return [brackets.knockout([f"seed:{e.seed}" for e in entries], third_place=third)]
    pools = list(Pool.objects.filter(tournament=tournament))
    if not pools:
        raise ValidationError("Draw the pools before making the knockout bracket.")
    names = [p.name for p in pools]
    sizes = [Entry.objects.filter(pool=p).count() for p in pools]
    smallest = min(sizes)
    if fmt == Tournament.Format.POOLS_KNOCKOUT:
        k = int(options.get("qualifiers", 2))
        if not 1 <= k <= smallest:
            raise ValidationError(f"Each pool can send 1 to {smallest} teams to the knockout, not {k}.")
        if k * len(names) < 2:
            raise ValidationError("A knockout needs at least two qualifiers: let more teams through.")
        return [brackets.pools_knockout(names, k, third_place=third)]
    if fmt == Tournament.Format.CUP_PLATE:
        losers = bool(options.get("plate_from_cup_losers"))
        tiers = [(str(t[0]), [int(p) for p in t[1]])
                 for t in options.get("tiers") or default_tiers(smallest, plate_from_cup_losers=losers)]
        too_deep = [name for name, positions in tiers if max(positions) > smallest]
        if too_deep:
            raise ValidationError(f"Tier(s) {', '.join(too_deep)} take a pool position that the smallest pool "
                                  f"({smallest} teams) does not have.")
        plans = brackets.tiered_knockouts(names, tiers, third_place=third)
        if losers:
            plate = brackets.losers_knockout(plans[0], name=options.get("losers_tier_name", "Plate"),
                                             third_place=third)
            plans.insert(1, plate)
        return plans
    raise ValidationError(f"The {tournament.get_format_display()} format has no knockout bracket.")


@transaction.atomic
def bracket_create(*, tournament: Tournament, replace: bool = False, user=None, days_between_rounds: int = 7,
                   slot_minutes: int = 90) -> list[Fixture]:
    """Make the knockout fixtures of the tournament's format, with their slot sources, and fill what is known.

    Knockout round numbers continue after the last pool round so that fixture
    lists by round never mix the two stages. When the pool fixtures have
    kick-offs, knockout round r kicks off r x ``days_between_rounds`` after
    the last pool match (r x ``slot_minutes`` when that is 0: a one-day
    festival). Refused if knockout fixtures exist, unless ``replace`` and none
    has a result.
    """
    existing = Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.KNOCKOUT)
    if existing.exists():
        if not replace:
            raise ValidationError("This tournament already has its knockout fixtures.")
        if Result.objects.filter(fixture__in=existing).exists():
            raise ValidationError("Knockout fixtures with results cannot be replaced.")
        existing.delete()
    plans = bracket_plans(tournament)
    earlier = Fixture.objects.filter(tournament=tournament).exclude(stage=Fixture.Stage.KNOCKOUT).aggregate(
        m=Max("round_number"), last=Max("kickoff"))
    offset = earlier["m"] or 0
    step = timedelta(days=days_between_rounds) if days_between_rounds else timedelta(minutes=slot_minutes)
    fixtures = []
    for plan in plans:
        for spec in plan.matches:
            fixtures.append(Fixture(
                tournament=tournament, stage=Fixture.Stage.KNOCKOUT, bracket=spec.bracket or plan.name,
                round_number=offset + spec.round_number, round_name=spec.round_name, code=spec.code,
                home_source=spec.home_source, away_source=spec.away_source, slot=spec.slot,
                kickoff=earlier["last"] + step * spec.round_number if earlier["last"] else None))
    created = Fixture.objects.bulk_create(fixtures)
    advancement.rederive(tournament, user=user)
    tournament_changed(tournament)
    return created


# -- Corrections ------------------------------------------------------------------------------------------

@transaction.atomic
def bracket_reset_from(*, fixture: Fixture, user=None, reason: str = "") -> list[str]:
    """Delete the results of every knockout match downstream of ``fixture`` (latest first) and re-derive.

    The organiser's explicit "reset the later rounds": afterwards ``fixture``'s
    result can be corrected freely. The audit trail keeps the deleted results.
    Returns the codes of the matches whose results were deleted.
    """
    fixtures = list(Fixture.objects.filter(tournament=fixture.tournament).select_related("result"))
    codes = advancement.downstream_codes(fixtures, fixture)
    by_code = {f.code: f for f in fixtures if f.code}
    deleted = []
    for code in reversed(codes):
        f = by_code[code]
        result = advancement._result_of(f)
        if result is not None:
            advancement._delete_result(f, result, user=user,
                                       reason=reason or f"Reset from {fixture.code or fixture} by the organiser.")
            deleted.append(code)
    with advancement.resets_allowed():
        advancement.rederive(fixture.tournament, user=user)
    tournament_changed(fixture.tournament)
    return deleted


@transaction.atomic
def result_correct(*, fixture: Fixture, reset_later_rounds: bool = False, **result_fields) -> Result:
    """Correct a result (as ``services.result_record``); with ``reset_later_rounds`` the played matches it
    alters downstream have their results deleted instead of the correction being refused."""
    if not reset_later_rounds:
        return services.result_record(fixture=fixture, **result_fields)
    with advancement.resets_allowed():
        return services.result_record(fixture=fixture, **result_fields)


# -- Withdrawals ------------------------------------------------------------------------------------------

@transaction.atomic
def entry_withdraw(*, entry: Entry, keep_played_results: bool = True, user=None, reason: str = "") -> dict:
    """Withdraw a team: it forfeits every fixture it has not played, at the tournament's walkover score.

    ``keep_played_results``: its played pool results stand (True) or are voided
    (False: deleted, with the audit trail keeping them, and the fixtures
    cancelled), as the organiser chooses. A knockout place it had, or wins
    later, goes to its opponent by walkover. Swiss rounds leave it out from
    now on. Returns counts: {"walkovers": n, "voided": n}.
    """
    entry = Entry.objects.select_for_update().select_related("team", "tournament").get(pk=entry.pk)
    if entry.withdrawn_at is not None:
        raise ValidationError(f"{entry.team.name} has already withdrawn.")
    entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["withdrawn_at"])
    why = reason or f"{entry.team.name} withdrew."
    walkovers = voided = 0
    fixtures = list(Fixture.objects.filter(Q(home=entry) | Q(away=entry), tournament=entry.tournament)
                    .exclude(status=Fixture.Status.CANCELLED).select_related("result")
                    .order_by("round_number", "slot", "pk"))
    for fixture in fixtures:
        result = advancement._result_of(fixture)
        if result is not None:
            if not keep_played_results and fixture.stage == Fixture.Stage.POOL:
                services.result_delete(fixture=fixture, user=user, reason=f"{why} Played results voided.")
                Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.CANCELLED)
                voided += 1
            continue
        if fixture.home_id is None or fixture.away_id is None:
            continue  # a bye, a solo attempt, or an opponent still to be decided (advancement handles it)
        opponent_home = fixture.away_id == entry.pk
        services.result_record(fixture=fixture, kind=Result.Kind.WALKOVER_HOME if opponent_home
                               else Result.Kind.WALKOVER_AWAY, user=user, reason=why)
        walkovers += 1
    for fixture in fixtures:
        if fixture.stage == Fixture.Stage.SOLO and advancement._result_of(fixture) is None:
            Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.CANCELLED)
    advancement.rederive(entry.tournament, user=user)
    tournament_changed(entry.tournament)
    return {"walkovers": walkovers, "voided": voided}


# -- Swiss ------------------------------------------------------------------------------------------------

def swiss_rounds(tournament: Tournament) -> int:
    """How many Swiss rounds the tournament plays (format option "rounds")."""
    return int((tournament.format_options or {}).get("rounds", 5))


@transaction.atomic
def swiss_pair_next_round(*, tournament: Tournament, user=None) -> list[Fixture]:
    """Pair and create the next Swiss round from the current table (refused while a round is unfinished)."""
    from league.format_selectors import swiss_table

    existing = list(Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.SWISS)
                    .select_related("result"))
    last = max((f.round_number for f in existing), default=0)
    if last >= swiss_rounds(tournament):
        raise ValidationError(f"All {swiss_rounds(tournament)} Swiss rounds have been paired.")
    unfinished = [f for f in existing if f.away_id is not None and advancement._result_of(f) is None
                  and f.status != Fixture.Status.CANCELLED]
    if unfinished:
        raise ValidationError(f"Round {last} is not finished: {len(unfinished)} result(s) missing.")
    table = swiss_table(tournament)
    ranked = [row["entry_id"] for row in table if not row["withdrawn"]]
    points = {row["entry_id"]: row["points"] for row in table}
    played = [(f.home_id, f.away_id) for f in existing if f.away_id is not None]
    byes: dict[int, int] = {}
    venues: dict[int, str] = {}  # each team's games in round order: "H" home, "A" away
    for f in sorted(existing, key=lambda f: (f.round_number, f.slot)):
        if f.away_id is None and f.home_id is not None:
            byes[f.home_id] = byes.get(f.home_id, 0) + 1
        elif f.home_id is not None:
            venues[f.home_id] = venues.get(f.home_id, "") + "H"
            venues[f.away_id] = venues.get(f.away_id, "") + "A"
    try:
        pairing = swiss.swiss_pairings(ranked, played=played, byes=byes, points=points, venues=venues,
                                       rounds_left=swiss_rounds(tournament) - last - 1)
    except swiss.SwissError as exc:
        raise ValidationError(f"Round {last + 1} cannot be paired: {exc}.")
    number = last + 1
    fixtures = [Fixture(tournament=tournament, stage=Fixture.Stage.SWISS, round_number=number,
                        round_name=f"Round {number}", home_id=home, away_id=away, slot=i)
                for i, (home, away) in enumerate(pairing.pairs)]
    if pairing.bye is not None:
        # A bye is kept as a fixture with no opponent, so it shows on the fixture list and is never repeated.
        fixtures.append(Fixture(tournament=tournament, stage=Fixture.Stage.SWISS, round_number=number,
                                round_name=f"Round {number}", home_id=pairing.bye, away_source=brackets.BYE,
                                slot=len(pairing.pairs), status=Fixture.Status.PLAYED))
    created = Fixture.objects.bulk_create(fixtures)
    tournament_changed(tournament)
    return created


def swiss_after_result(*, tournament: Tournament, round_number: int, user=None) -> None:
    """After a Swiss result: when the latest round is complete, pair the next one (until the last round).

    A correction to an earlier round re-pairs the later rounds that have no
    result yet, so pairings always follow the corrected table.
    """
    later = Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.SWISS, round_number__gt=round_number)
    if later.exists():
        if Result.objects.filter(fixture__in=later).exists():
            return  # later rounds are under way: their pairings stand
        later.delete()
    round_fixtures = Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.SWISS,
                                            round_number=round_number, away__isnull=False)
    if round_fixtures.exclude(status=Fixture.Status.CANCELLED).filter(result__isnull=True).exists():
        return
    if round_number < swiss_rounds(tournament):
        swiss_pair_next_round(tournament=tournament, user=user)


# -- Solo challenge ---------------------------------------------------------------------------------------

@transaction.atomic
def solo_fixtures_create(*, tournament: Tournament, attempts: int | None = None) -> list[Fixture]:
    """One solo fixture per entrant and attempt: the entrant at home, the game itself as the opposition."""
    attempts = int(attempts or (tournament.format_options or {}).get("attempts", 1))
    if attempts < 1:
        raise ValidationError("Each entrant needs at least one attempt.")
    entries = _entries_in_seed_order(tournament)
    if not entries:
        raise ValidationError("Enter the players before making their solo challenges.")
    fixtures = [Fixture(tournament=tournament, stage=Fixture.Stage.SOLO, round_number=attempt,
                        round_name=f"Attempt {attempt}", home=entry, away_source="solo", slot=i)
                for attempt in range(1, attempts + 1) for i, entry in enumerate(entries)]
    created = Fixture.objects.bulk_create(fixtures)
    tournament_changed(tournament)
    return created

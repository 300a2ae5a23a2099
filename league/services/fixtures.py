"""Writes of fixtures: round robins, knockout brackets from their plans, Swiss and solo rounds, draws.

The formats (``league.formats``) decide *which* fixtures a tournament needs; the functions here write them.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Iterable, Mapping, Sequence
from datetime import date, time
from itertools import chain, zip_longest
from operator import getitem
from typing import Any, cast

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import Max, QuerySet
from django.utils.translation import gettext as _
from psycopg.copy import QueuedLibpqWriter

from league import advancement, brackets, draws, scheduling
from league.cache import tournament_changed
from league.errors import Conflict, DomainError
from league.models import AuditRecord, Entry, Fixture, Pool, Result, ResultChange, Tournament
from league.services.audit import audit_record
from league.services.schedule import fixtures_time, new_matches_places, schedule_settings_save
from league.services.teams import pool_create
from league.text import clean_text


def _check_fixture_room(tournament: Tournament, adding: int) -> None:
    """Refuse to write fixtures beyond ``settings.MAX_FIXTURES_PER_TOURNAMENT`` (a bound on what one tournament
    may cost the database, whatever path writes them)."""
    limit = int(settings.MAX_FIXTURES_PER_TOURNAMENT)
    if adding and Fixture.objects.filter(tournament=tournament).count() + adding > limit:
        raise DomainError(_("A tournament can have at most %(limit)s fixtures: split the teams into more pools.")
                            % {"limit": format(limit, ',')})


def entries_in_seed_order(tournament: Tournament) -> list[Entry]:
    """Entries still in: organiser's seeds first, then World Rugby ranking (unranked last), then code."""
    entries = list(Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True).select_related("team"))
    return sorted(entries, key=lambda e: (e.seed is None, e.seed or 0, e.team.world_ranking is None,
                                          e.team.world_ranking or 0, e.team.code))


def fixtures_generate_round_robin(
    *,
    tournament: Tournament,
    double: bool | None = None,
    start_date: date | None = None,
    first_kickoff: time | None = None,
    slot_minutes: int | None = None,
    changeover_minutes: int | None = None,
    days_between_rounds: int | None = None,
    venues: Sequence[str] | None = None,
    replace: bool = False,
) -> int:
    """Make the round-robin fixtures of every pool (FIDE's Berger tables), timed by the tournament's plan; return
    how many were made.

    ``double`` defaults to the tournament's ``double_round_robin``. The schedule arguments that are given
    (``start_date`` is the plan's first day, ``venues`` its pitches) are stored as the tournament's plan
    first, so the knockout and later rounds follow it; round *n* of every pool is played on the same day,
    the pools share the pitches, and a round with more matches than pitches is split into time slots
    (``league.services.schedule``). A pool's entries are ordered by seed. If pool fixtures exist already
    they are refused, unless ``replace`` and none of them has a result yet.
    """
    double = tournament.double_round_robin if double is None else double
    plan = {"first_day": start_date, "first_kickoff": first_kickoff, "slot_minutes": slot_minutes,
            "changeover_minutes": changeover_minutes, "days_between_rounds": days_between_rounds,
            "pitches": list(venues) if venues is not None else None}
    with transaction.atomic():
        schedule_settings_save(tournament=tournament, **{k: v for k, v in plan.items() if v is not None})
        existing = Fixture.objects.select_for_update().filter(tournament=tournament, stage=Fixture.Stage.POOL)
        if existing.exists():
            if not replace:
                raise DomainError(_("This tournament already has pool fixtures."))
            if Result.objects.filter(fixture__in=existing).exists():
                raise DomainError(_("Pool fixtures with results cannot be replaced; delete the results first."))
            ResultChange.objects.filter(fixture__in=existing).delete()
            existing.delete()
        pools = list(Pool.objects.filter(tournament=tournament))
        entries = list(Entry.objects.filter(tournament=tournament, pool__isnull=False).order_by("seed", "pk"))
        if not pools or not entries:
            raise DomainError(_("Put the teams in pools before generating fixtures."))
        # Each round's matches in the order they take slots: the pools interleaved (A, B, C, A, ...), board order
        # within a pool -- as ``league.services.schedule`` orders the fixtures it re-times.
        pools.sort(key=lambda p: (p.order, p.name))
        by_pool = {pool.pk: scheduling.round_robin([e.pk for e in entries if e.pool_id == pool.pk], double=double)
                   for pool in pools}
        groups: dict[int, list[tuple[int, tuple[tuple[int, int], ...]]]] = {}  # round -> each pool's matches
        for pool_id, rounds in by_pool.items():
            for rnd in rounds:
                groups.setdefault(rnd.number, []).append((pool_id, cast(tuple[tuple[int, int], ...], rnd.matches)))
        # (One pool, a big league's case, is its own order: no pass over its half a million matches.)
        in_slot_order = {number: list(lists[0][1]) if len(lists) == 1 else
                         [m for m in chain.from_iterable(zip_longest(*(matches for _, matches in lists)))
                          if m is not None]
                         for number, lists in groups.items()}
        _check_fixture_room(tournament, sum(len(matches) for matches in in_slot_order.values()))
        places = new_matches_places(tournament, in_slot_order)
        pool_places = _places_by_pool(groups, places)
        # Written pool by pool, round by round, in board order (the order the fixtures' ids have always had); a
        # round's pool, number and name go as a group (made text once). A match's kick-off, pitch and slot are
        # columns of their own: together they are a different group for every timed match (each match its own
        # pitch at its own time), which made half a million kick-offs into text one by one, about 4 s of a timed
        # 1,000-team league's generation; apart, each kick-off (a round's 63 times) is made text once.
        count = _rows_insert(
            Fixture, common={"tournament": tournament, "stage": Fixture.Stage.POOL},
            columns=(("pool", "round_number", "round_name"), "home", "away", "kickoff", "venue", "slot"),
            rows=((head, home, away, *place)
                  for pool_id, rounds in by_pool.items() for rnd in rounds
                  for head in [(pool_id, rnd.number, f"Round {rnd.number}")]
                  for (home, away), place in zip(rnd.matches, pool_places[pool_id, rnd.number], strict=True)))
        tournament_changed(tournament)
    return count


def _places_by_pool(groups: Mapping[int, Sequence[tuple[int, Sequence[Any]]]],
                    places: Mapping[int, Sequence[Any]]) -> dict[tuple[int, int], Sequence[Any]]:
    """Each (pool, round)'s places in its board order, from each round's places in slot order (the pools' boards
    interleaved: A's first, B's first, ..., A's second...). A lookup by match would hash half a million pairs."""
    by_pool: dict[tuple[int, int], Sequence[Any]] = {}
    for number, lists in groups.items():
        if len(lists) == 1:
            by_pool[lists[0][0], number] = places[number]
            continue
        mine: dict[int, list[Any]] = {pool_id: [] for pool_id, _ in lists}
        order = [pool_id for row in zip_longest(*([pool_id] * len(matches) for pool_id, matches in lists))
                 for pool_id in row if pool_id is not None]
        for pool_id, place in zip(order, places[number], strict=True):
            mine[pool_id].append(place)
        by_pool.update(((pool_id, number), got) for pool_id, got in mine.items())
    return by_pool


# Varying values of these kinds are adapted for the database (dates as text on SQLite...); ids, numbers and
# strings go in as they are.
_ADAPTED_TYPES = {"DateTimeField", "DateField", "TimeField", "DecimalField", "JSONField", "UUIDField"}
# COPY's text format: these characters would end a field or a row, or start an escape.
_COPY_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def _copy_text(value: Any) -> str:
    """One field in COPY's text format (``\\N`` is NULL)."""
    if value is None:
        return "\\N"
    if isinstance(value, enum.Enum):  # choices: the database takes their value
        value = value.value
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, date | time):
        return value.isoformat()
    if not isinstance(value, str | int):
        value = str(value)
    return str(value).translate(_COPY_ESCAPES)


def _rows_insert(model: type[Any], *, common: dict[str, Any], columns: Sequence[str | tuple[str, ...]],
                 rows: Iterable[Sequence[Any]]) -> int:
    """Insert many rows of ``model`` at once: ``columns`` (field names; a foreign key takes the id) vary per row,
    the other fields take ``common`` or their defaults. Returns the number of rows.

    A tuple of names in ``columns`` is a group whose values come as one tuple in each row: values that repeat
    together (a round's number and name, a kick-off's pitch and slot) are made ready once per distinct group.

    The fast path of a big round robin (a 1,000-team league is half a million fixtures): no model instance
    per row, and on PostgreSQL one COPY of text built once per distinct value, its foreign keys checked by one
    locking query each instead of a deferred check per row and key (``_references_checked``). SQLite (the demo)
    takes plain INSERTs. No signals are sent (none are listened to).
    """
    template = model(**common)
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    named = {f.name: f for f in fields}
    groups = [tuple(named[name] for name in (column if isinstance(column, tuple) else (column,)))
              for column in columns]
    varying = [f for group in groups for f in group]
    fixed = [f for f in fields if f not in varying]
    fixed_values = [f.get_db_prep_save(f.pre_save(template, True), connection) for f in fixed]
    names = [f.column for f in varying] + [f.column for f in fixed]
    table = connection.ops.quote_name(model._meta.db_table)
    quoted = ", ".join(connection.ops.quote_name(name) for name in names)
    if _copy_supported():
        return _rows_copy(table, quoted, groups, columns, fixed, fixed_values, rows)
    fixed_values = [value.value if isinstance(value, enum.Enum) else value for value in fixed_values]
    adapters = [(index, f) for index, f in enumerate(varying) if f.get_internal_type() in _ADAPTED_TYPES]
    grouped = [isinstance(column, tuple) for column in columns]
    memo: dict[tuple[int, Any], Any] = {}

    def prepared(row: Sequence[Any]) -> tuple[Any, ...]:
        flat = [v for value, group in zip(row, grouped, strict=True) for v in (value if group else (value,))]
        for index, f in adapters:
            value = flat[index]
            if value is not None:
                key = (index, value)
                if key not in memo:
                    memo[key] = f.get_db_prep_save(value, connection)
                flat[index] = memo[key]
        return (*flat, *fixed_values)

    count = 0
    batch: list[tuple[Any, ...]] = []
    sql = f"INSERT INTO {table} ({quoted}) VALUES ({', '.join(['%s'] * len(names))})"
    with connection.cursor() as cursor:
        for row in rows:
            batch.append(prepared(row))
            if len(batch) >= 10_000:
                cursor.executemany(sql, batch)
                count += len(batch)
                batch = []
        if batch:
            cursor.executemany(sql, batch)
            count += len(batch)
    return count


def _copy_supported() -> bool:
    """COPY is PostgreSQL's; elsewhere (SQLite, the demo) the rows go in as plain INSERTs."""
    return connection.vendor == "postgresql"


def _rows_copy(table: str, quoted: str, groups: Sequence[tuple[Any, ...]], columns: Sequence[Any],
               fixed: Sequence[Any], fixed_values: Sequence[Any], rows: Iterable[Sequence[Any]]) -> int:
    """PostgreSQL's side of :func:`_rows_insert`: each distinct value (or group) of a column is made text once (a
    league repeats its entries, rounds and kick-offs), the rows go in as one COPY, and each foreign key is
    checked once for all the rows."""
    suffix = "".join("\t" + _copy_text(value) for value in fixed_values) + "\n"
    texts: list[dict[Any, str]] = [{} for _ in groups]

    def text_of(group: tuple[Any, ...], grouped: bool, value: Any) -> str:
        values = value if grouped else (value,)
        return "\t".join(_copy_text(f.get_db_prep_save(v, connection) if f.get_internal_type() in _ADAPTED_TYPES
                                     else v) for f, v in zip(group, values, strict=True))

    makers = [(memo, group, isinstance(column, tuple)) for memo, group, column in zip(texts, groups, columns,
                                                                                        strict=True)]

    def line_made_slowly(row: Sequence[Any]) -> str:
        line = []
        for (memo, group, grouped), value in zip(makers, row, strict=True):
            text = memo.get(value)
            if text is None:
                text = memo[value] = text_of(group, grouped, value)
            line.append(text)
        return "\t".join(line) + suffix

    count = 0
    with connection.cursor() as cursor:
        checks_off = _row_checks_off(cursor)
        # A writer thread sends each chunk while this one makes the next: the database's work (the rows and their
        # indexes) overlaps Python's instead of following it.
        raw = cursor.cursor
        with raw.copy(f"COPY {table} ({quoted}) FROM STDIN", writer=QueuedLibpqWriter(raw)) as copy:
            chunk: list[str] = []
            for row in rows:
                try:  # every value seen before (nearly all rows): its text as it was made the first time
                    # (``map`` over the memos and the row: C's loop, half the time of a comprehension over zip)
                    chunk.append("\t".join(map(getitem, texts, row)) + suffix)
                except KeyError:
                    chunk.append(line_made_slowly(row))
                if len(chunk) >= 20_000:
                    copy.write("".join(chunk))
                    count += len(chunk)
                    chunk = []
            if chunk:
                copy.write("".join(chunk))
                count += len(chunk)
        # Put back before anything else is written (an error above rolls the setting back with the rows).
        if checks_off is not None:
            _row_checks_on(cursor, checks_off)
            used: dict[Any, set[Any]] = {f: {value} for f, value in zip(fixed, fixed_values, strict=True)
                                         if f.is_relation and value is not None}
            for (memo, group, grouped) in makers:
                for position, f in enumerate(group):
                    if f.is_relation:
                        values = {(value[position] if grouped else value) for value in memo}
                        used.setdefault(f, set()).update(values - {None})
            _references_checked(cursor, used)
    return count


def _row_checks_off(cursor: Any) -> str | None:
    """Turn off, for the rows written next in this transaction, the per-row triggers -- the deferred foreign-key
    checks, one per row and key at COMMIT (four per fixture, two million for a 1,000-team league: most of the
    time it took) -- when the database role may (``session_replication_role``: a superuser, or granted ``SET
    ON PARAMETER`` on PostgreSQL 15+). Returns the setting to put back, or None when the rows keep their
    checks."""
    cursor.execute("SHOW session_replication_role")
    previous = cursor.fetchone()[0]
    try:
        with transaction.atomic():
            cursor.execute("SET LOCAL session_replication_role = replica")
    except DatabaseError:
        return None
    return str(previous)


def _row_checks_on(cursor: Any, previous: str) -> None:
    cursor.execute("SELECT set_config('session_replication_role', %s, true)", [previous])


def _references_checked(cursor: Any, used: Mapping[Any, set[Any]]) -> None:
    """What the foreign-key triggers would have verified row by row, once per key: every row referenced exists,
    and it is locked (FOR KEY SHARE, as those triggers lock it) so that nobody deletes it before we commit."""
    for field, ids in used.items():
        if not ids:
            continue
        target = field.target_field
        cursor.execute(
            f"SELECT count(*) FROM (SELECT 1 FROM {connection.ops.quote_name(target.model._meta.db_table)} "
            f"WHERE {connection.ops.quote_name(target.column)} = ANY(%s) FOR KEY SHARE) AS referenced", [list(ids)])
        if cursor.fetchone()[0] != len(ids):
            raise Conflict(_("The teams or pools changed while the fixtures were being made: nothing was saved. "
                             "Try again."))


@transaction.atomic
def fixtures_create(*, tournament: Tournament, fixtures: Sequence[Fixture]) -> list[Fixture]:
    """Write fixtures a format has planned (a Swiss round, solo attempts), unsaved, all of ``tournament``;
    they are timed by the tournament's plan after the fixtures already there."""
    if any(f.tournament_id != tournament.pk for f in fixtures):
        raise DomainError(_("Every fixture must belong to the tournament."))
    _check_fixture_room(tournament, len(fixtures))
    created = Fixture.objects.bulk_create(list(fixtures))
    fixtures_time(tournament=tournament, fixtures=created)
    tournament_changed(tournament)
    return created


@transaction.atomic
def fixtures_delete(*, tournament: Tournament, fixtures: QuerySet[Fixture]) -> int:
    """Delete fixtures of ``tournament`` that have no result (a format re-planning its later rounds)."""
    fixtures = fixtures.filter(tournament=tournament)
    if Result.objects.filter(fixture__in=fixtures).exists():
        raise DomainError(_("Fixtures with results cannot be deleted."))
    count, _deleted = fixtures.delete()
    tournament_changed(tournament)
    return count


@transaction.atomic
def bracket_fixtures_create(*, tournament: Tournament, plans: Sequence[brackets.Bracket], replace: bool = False,
                            user: Any = None) -> list[Fixture]:
    """Make the knockout fixtures of the brackets ``plans``, with their slot sources, and fill what is known.

    Knockout round numbers continue after the last pool round so that fixture lists by round never mix the
    two stages, and the fixtures are timed by the tournament's plan: after the pools, on the same pitches,
    earlier rounds first, a match never before those it takes its teams from (``league.services.schedule``).
    Refused if knockout fixtures exist, unless ``replace`` and none has a result.
    """
    existing = Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.KNOCKOUT)
    if existing.exists():
        if not replace:
            raise DomainError(_("This tournament already has its knockout fixtures."))
        if Result.objects.filter(fixture__in=existing).exists():
            raise DomainError(_("Knockout fixtures with results cannot be replaced."))
        existing.delete()
    earlier = Fixture.objects.filter(tournament=tournament).exclude(stage=Fixture.Stage.KNOCKOUT).aggregate(
        m=Max("round_number"))
    offset = earlier["m"] or 0
    fixtures = []
    for plan in plans:
        for spec in plan.matches:
            fixtures.append(Fixture(
                tournament=tournament, stage=Fixture.Stage.KNOCKOUT, bracket=spec.bracket or plan.name,
                round_number=offset + spec.round_number, round_name=spec.round_name, code=spec.code,
                home_source=spec.home_source, away_source=spec.away_source, slot=spec.slot))
    _check_fixture_room(tournament, len(fixtures))
    created = Fixture.objects.bulk_create(fixtures)
    fixtures_time(tournament=tournament, fixtures=created)
    advancement.rederive(tournament, user=user)
    tournament_changed(tournament)
    return created


@transaction.atomic
def pools_fill(*, tournament: Tournament, method: str = draws.SEEDED, pools: int | Sequence[str] = 4,
               seed: int | None = None, assignment: Mapping[str, str] | None = None) -> dict[str, list[str]]:
    """Draw the entries into pools (the pool fixtures are deleted: they are made again afterwards).

    ``method``: "seeded" (bands by seed, one team of each band per pool),
    "random", or "manual" with ``assignment`` {team code: pool name}. A random
    or seeded draw uses ``seed`` (a fresh one when None), stored on the
    tournament with the method so anyone can rerun it. Refused once a pool
    result exists. Returns {pool name: [team codes]}.
    """
    if method not in draws.METHODS:
        raise DomainError({"method": [_("Unknown draw method %(method)s; use one of: %(choices)s.")
                                        % {"method": repr(method), "choices": ', '.join(draws.METHODS)}]})
    if Result.objects.filter(fixture__tournament=tournament, fixture__stage=Fixture.Stage.POOL).exists():
        raise DomainError(_("The pools cannot be drawn again: pool results have been entered."))
    entries = entries_in_seed_order(tournament)
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
            drawn = draws.manual_draw(cast(Mapping[Hashable, str], assignment), names)
            seed = None
        else:
            seed = draws.new_draw_seed() if seed is None else int(seed)
            draw = draws.banded_draw if method == draws.SEEDED else draws.random_draw
            drawn = draw([e.team.code for e in entries], names, seed=seed)
    except draws.DrawError as exc:
        raise DomainError(_("The draw cannot be made: %(exc)s.") % {"exc": exc})
    Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.POOL).delete()
    Pool.objects.filter(tournament=tournament).exclude(name__in=names).delete()
    pool_objects = {name: pool_create(tournament=tournament, name=name, order=i)
                    for i, name in enumerate(names, start=1)}
    for name, codes in drawn.items():
        Entry.objects.filter(pk__in=[by_code[str(c)].pk for c in codes]).update(pool=pool_objects[name])
    Tournament.objects.filter(pk=tournament.pk).update(draw_method=method, draw_seed=seed)
    tournament.draw_method, tournament.draw_seed = method, seed
    tournament_changed(tournament)
    return {name: [str(c) for c in codes] for name, codes in drawn.items()}


@transaction.atomic
def fixtures_clear(*, tournament: Tournament, user: Any = None) -> int:
    """Delete every fixture of a tournament while none has a result or is being played: back to before the
    fixtures were made, so seeds and pools can change. Returns how many were deleted (audit trail kept)."""
    fixtures = Fixture.objects.select_for_update().filter(tournament=tournament)
    if Result.objects.filter(fixture__tournament=tournament).exists():
        raise Conflict(_("Some fixtures have results: delete those results first (or withdraw a team)."))
    if fixtures.filter(status=Fixture.Status.LIVE).exists():
        raise Conflict(_("A match is being played now: wait for its result."))
    count = fixtures.count()
    if not count:
        return 0
    ResultChange.objects.filter(fixture__tournament=tournament).delete()
    fixtures.delete()
    audit_record(action=AuditRecord.Action.FIXTURES_DELETED, tournament=tournament, user=user,
                 old={"fixtures": count})
    tournament_changed(tournament)
    return count


@transaction.atomic
def fixture_save(*, fixture: Fixture) -> Fixture:
    """Create or change one fixture whose fields the caller (a validated form or serializer) has set: kick-off,
    venue, teams in the admin."""
    fixture.venue = clean_text(fixture.venue)
    fixture.save()
    tournament_changed(fixture.tournament)
    return fixture


@transaction.atomic
def fixture_delete(*, fixture: Fixture) -> None:
    """Delete one fixture (its result and audit rows go with it)."""
    tournament = fixture.tournament
    fixture.delete()
    tournament_changed(tournament)

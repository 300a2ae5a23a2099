"""Writes: tournaments, entries, round-robin fixtures, results and their import.

Keyword-only functions named <noun>_<verb>. Each does one thing in one
transaction and raises ``django.core.exceptions.ValidationError`` with a clear
message for bad input (the API turns it into a 400, the commands into a
``CommandError``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from engine import MANUAL, get_spec
from league import advancement, scheduling
from league.cache import tournament_changed
from league.models import Entry, Fixture, Pool, Result, ResultChange, Team, Tournament
from league.standings import POINTS_PRESETS

_UNSET = object()

# ---------------------------------------------------------------------------
# Tournaments, pools, entries
# ---------------------------------------------------------------------------


def tournament_create(
    *,
    name: str,
    slug: str,
    ruleset: str = MANUAL,
    points_system: str = Tournament.PointsSystem.WORLD_RUGBY,
    format: str = Tournament.Format.LEAGUE,
    double_round_robin: bool = False,
    visibility: str = Tournament.Visibility.PUBLIC,
    status: str = Tournament.Status.DRAFT,
    user=None,
    organisers: Iterable = (),
    win_points=_UNSET,
    draw_points=_UNSET,
    loss_points=_UNSET,
    try_bonus_threshold=_UNSET,
    losing_bonus_margin=_UNSET,
    **other_fields,
) -> Tournament:
    """Create a tournament; ``user`` (if given) becomes an organiser.

    A points-system preset (world_rugby, rugby_league, football) fills the win,
    draw, loss and bonus numbers; numbers passed explicitly override it (and
    "custom" starts from the World Rugby numbers). ``other_fields`` are further
    Tournament fields (ruleset_options, format_options, walkover_score...).
    """
    preset = POINTS_PRESETS.get(points_system, POINTS_PRESETS["world_rugby"])
    numbers = {
        "win_points": preset.win, "draw_points": preset.draw, "loss_points": preset.loss,
        "try_bonus_threshold": preset.try_bonus_threshold, "losing_bonus_margin": preset.losing_bonus_margin,
    }
    for key, value in (("win_points", win_points), ("draw_points", draw_points), ("loss_points", loss_points),
                       ("try_bonus_threshold", try_bonus_threshold), ("losing_bonus_margin", losing_bonus_margin)):
        if value is not _UNSET:
            numbers[key] = value
    allowed = {f.name for f in Tournament._meta.get_fields() if getattr(f, "editable", False) and f.concrete}
    unknown = sorted(set(other_fields) - allowed)
    if unknown:
        raise ValidationError(f"Unknown tournament field(s): {', '.join(unknown)}.")
    tournament = Tournament(name=name, slug=slug, ruleset=ruleset, points_system=points_system, format=format,
                            double_round_robin=double_round_robin, visibility=visibility, status=status,
                            **numbers, **other_fields)
    if Tournament.objects.filter(slug=slug).exists():
        raise ValidationError({"slug": [f"A tournament with the slug {slug!r} already exists: choose another."]})
    # full_clean checks the slug's form and uniqueness, the choices (rule set included), the numbers and the
    # rule set's options (Tournament.clean).
    tournament.full_clean()
    with transaction.atomic():
        tournament.save()
        people = list(organisers) + ([user] if user is not None and getattr(user, "is_authenticated", False)
                                     else [])
        if people:
            tournament.organisers.add(*people)
    return tournament


# Bounds on a rule set's option values: the engine checks names and types, not sizes, and a match with
# 10**40 sets a half (or a 1 MB team name in its commentary) would never end or bloat every snapshot.
OPTION_MAX_NUMBER = 1000
OPTION_MAX_TEXT = 80


def ruleset_options_validate(ruleset: str, options) -> dict:
    """The rule set's options with its defaults filled in, or a ``ValidationError`` saying what is wrong.

    Checked here, before anything is stored, so that a bad option is a clear error when the tournament
    or match is created rather than a crash when its first match starts: unknown names and wrong types
    (the engine's ``resolve_options``), what setting up a game refuses (e.g. 0 sets a half), and sizes.
    """
    from engine import get_ruleset, new_game

    if not isinstance(options, dict):
        raise ValidationError({"ruleset_options": ["Rule set options must be a JSON object."]})
    try:
        ruleset_cls = get_ruleset(ruleset)
    except KeyError:
        raise ValidationError({"ruleset": [f"Unknown rule set {ruleset!r}."]})
    for name, value in options.items():
        if isinstance(value, bool) or value is None:
            continue
        too_big = (isinstance(value, (int, float)) and not abs(value) <= OPTION_MAX_NUMBER) or (
            isinstance(value, str) and len(value) > OPTION_MAX_TEXT)
        if too_big or isinstance(value, (dict, list)):
            raise ValidationError({"ruleset_options": [
                f"Option {name!r}: {value!r:.40} is not allowed (a number up to {OPTION_MAX_NUMBER}, a text of "
                f"at most {OPTION_MAX_TEXT} characters, or true/false)."]})
    try:
        resolved = ruleset_cls.spec.resolve_options(options)
        new_game(ruleset, seed=0, options=resolved)  # the rule set's own checks run when a game is set up
    except (ValueError, TypeError, KeyError) as exc:
        raise ValidationError({"ruleset_options": [str(exc).strip("'\"")]})
    return resolved


def pool_create(*, tournament: Tournament, name: str, order: int | None = None) -> Pool:
    """Add a pool to a tournament (or return the one of that name)."""
    name = name.strip()
    if not name:
        raise ValidationError({"name": ["A pool needs a name."]})
    if order is None:
        order = (Pool.objects.filter(tournament=tournament).aggregate(m=Max("order"))["m"] or 0) + 1
    pool, _created = Pool.objects.get_or_create(tournament=tournament, name=name, defaults={"order": order})
    return pool


def teams_resolve(names: Sequence[str]) -> list[Team]:
    """The teams named by code or name (case-insensitive), in order; all unknown names in one error."""
    wanted = [n.strip() for n in names if n and n.strip()]
    by_key: dict[str, Team] = {}
    for team in Team.objects.all():
        by_key.setdefault(team.code.upper(), team)
        by_key.setdefault(team.name.upper(), team)
    missing = [n for n in wanted if n.upper() not in by_key]
    if missing:
        raise ValidationError(f"Unknown team(s): {', '.join(missing)}. Use a team's short code (e.g. FRA) or "
                              "its full name.")
    return [by_key[n.upper()] for n in wanted]


def entries_add(*, tournament: Tournament, teams: Sequence[Team | str], pool: Pool | str | None = None
                ) -> list[Entry]:
    """Enter teams (Team objects, codes or names) in a tournament, optionally in a pool (made if needed).

    Seeds continue from the tournament's highest seed, in the order given. A
    team already entered, or named twice, is refused.
    """
    resolved = [t for t in teams if isinstance(t, Team)]
    names = [t for t in teams if not isinstance(t, Team)]
    if names:
        lookup = dict(zip(names, teams_resolve(names), strict=True))
        resolved = [t if isinstance(t, Team) else lookup[t] for t in teams]
    codes = [t.code for t in resolved]
    twice = sorted({c for c in codes if codes.count(c) > 1})
    if twice:
        raise ValidationError(f"Team(s) named more than once: {', '.join(twice)}.")
    already = sorted(Entry.objects.filter(tournament=tournament, team__in=resolved)
                     .values_list("team__code", flat=True))
    if already:
        raise ValidationError(f"Already in {tournament.name}: {', '.join(already)}.")
    if isinstance(pool, Pool) and pool.tournament_id != tournament.pk:
        raise ValidationError({"pool": [f"Pool {pool.name} belongs to another tournament."]})
    with transaction.atomic():
        if isinstance(pool, str):
            pool = pool_create(tournament=tournament, name=pool)
        start = Entry.objects.filter(tournament=tournament).aggregate(m=Max("seed"))["m"] or 0
        entries = Entry.objects.bulk_create([
            Entry(tournament=tournament, team=team, pool=pool, seed=start + i)
            for i, team in enumerate(resolved, start=1)
        ])
        tournament_changed(tournament)
    return entries


# ---------------------------------------------------------------------------
# Fixtures
# ---------------------------------------------------------------------------


def fixtures_generate_round_robin(
    *,
    tournament: Tournament,
    double: bool | None = None,
    start_date: date | None = None,
    first_kickoff: time = time(14, 0),
    slot_minutes: int = 90,
    days_between_rounds: int = 7,
    venues: Sequence[str] | None = None,
    replace: bool = False,
) -> list[Fixture]:
    """Make the round-robin fixtures of every pool (circle method), with kick-offs, slots and venues.

    ``double`` defaults to the tournament's ``double_round_robin``. Round *n* of
    every pool falls on the same day and the pools share the venues (see
    ``league.scheduling.schedule_rounds``). A pool's entries are ordered by
    seed. If pool fixtures exist already they are refused, unless ``replace``
    and none of them has a result yet.
    """
    double = tournament.double_round_robin if double is None else double
    venues = [v.strip() for v in (venues or []) if v and v.strip()]
    if len(set(venues)) != len(venues):
        raise ValidationError({"venues": ["Each venue may be named only once."]})
    if slot_minutes <= 0:
        raise ValidationError({"slot_minutes": ["A time slot must last at least one minute."]})
    if days_between_rounds < 0:
        raise ValidationError({"days_between_rounds": ["Days between rounds cannot be negative."]})
    with transaction.atomic():
        existing = Fixture.objects.select_for_update().filter(tournament=tournament, stage=Fixture.Stage.POOL)
        if existing.exists():
            if not replace:
                raise ValidationError("This tournament already has pool fixtures.")
            if Result.objects.filter(fixture__in=existing).exists():
                raise ValidationError("Pool fixtures with results cannot be replaced; delete the results first.")
            ResultChange.objects.filter(fixture__in=existing).delete()
            existing.delete()
        pools = list(Pool.objects.filter(tournament=tournament))
        entries = list(Entry.objects.filter(tournament=tournament, pool__isnull=False).order_by("seed", "pk"))
        if not pools or not entries:
            raise ValidationError("Put the teams in pools before generating fixtures.")
        rounds_by_pool = {
            pool.pk: scheduling.round_robin([e.pk for e in entries if e.pool_id == pool.pk], double=double)
            for pool in pools
        }
        planned = scheduling.schedule_rounds(rounds_by_pool, start_date=start_date, first_kickoff=first_kickoff,
                                             slot_minutes=slot_minutes, days_between_rounds=days_between_rounds,
                                             venues=venues)
        zone = timezone.get_current_timezone()
        fixtures = Fixture.objects.bulk_create([
            Fixture(tournament=tournament, pool_id=m.pool, stage=Fixture.Stage.POOL, round_number=m.round_number,
                    round_name=f"Round {m.round_number}", home_id=m.home, away_id=m.away, slot=m.slot,
                    venue=m.venue, kickoff=timezone.make_aware(m.kickoff, zone) if m.kickoff else None)
            for m in planned
        ])
        tournament_changed(tournament)
    return fixtures


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------


def _result_values(result: Result | None) -> dict | None:
    if result is None:
        return None
    return {
        "home_score": result.home_score, "away_score": result.away_score,
        "home_tries": result.home_tries, "away_tries": result.away_tries,
        "kind": result.kind, "winner_id": result.winner_id, "decided_by": result.decided_by,
        "stats": result.stats, "source": result.source,
    }


def _check_number(errors: dict, name: str, value, label: str) -> int | None:
    """The value as a non-negative whole number, or None with a message added to ``errors``."""
    number = None
    if isinstance(value, int) and not isinstance(value, bool):  # bool is an int in Python: refuse True/False
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    elif isinstance(value, str) and value.strip().lstrip("-").isdigit():
        number = int(value.strip())
    if number is None:
        errors.setdefault(name, []).append(f"The {label} must be a whole number, not {value!r}.")
    elif number < 0:
        errors.setdefault(name, []).append(f"The {label} cannot be negative.")
    elif number > 32767:
        errors.setdefault(name, []).append(f"The {label} is too large.")
    else:
        return number
    return None


def result_values_validate(*, tournament: Tournament, fixture: Fixture, home_score, away_score, home_tries,
                           away_tries, kind: str = Result.Kind.PLAYED, winner: Entry | None = None,
                           decided_by: str = "") -> dict:
    """Check a result's values against the tournament's rules; return them cleaned (or raise ValidationError).

    Walkovers take the tournament's walkover score and tries whatever was sent.
    """
    errors: dict[str, list[str]] = {}
    if kind not in Result.Kind.values:
        raise ValidationError({"kind": [f"Unknown result kind {kind!r}; use one of: {', '.join(Result.Kind.values)}."]})
    if decided_by not in Result.DecidedBy.values:
        raise ValidationError({"decided_by": [f"Unknown value {decided_by!r}."]})
    # A solo-challenge attempt has no away team: the entrant plays the game itself (away score = the game's).
    if fixture.home_id is None or (fixture.away_id is None and fixture.stage != Fixture.Stage.SOLO):
        raise ValidationError("Both teams of this fixture must be known before its result.")
    if kind != Result.Kind.PLAYED:
        to_home = kind == Result.Kind.WALKOVER_HOME
        values = {
            "home_score": tournament.walkover_score if to_home else 0,
            "away_score": 0 if to_home else tournament.walkover_score,
            "home_tries": tournament.walkover_tries if to_home else 0,
            "away_tries": 0 if to_home else tournament.walkover_tries,
            "kind": kind, "decided_by": Result.DecidedBy.WALKOVER,
            "winner_id": fixture.home_id if to_home else fixture.away_id,
        }
        if winner is not None and winner.pk != values["winner_id"]:
            raise ValidationError({"winner": ["The winner of a walkover is the team it is awarded to."]})
        return values
    numbers = {}
    for name, value, label in (("home_score", home_score, "home score"), ("away_score", away_score, "away score"),
                               ("home_tries", home_tries, "home tries"), ("away_tries", away_tries, "away tries")):
        if value is None or value == "":
            if name.endswith("tries"):
                numbers[name] = 0  # tries are optional: football and solo results have none
                continue
            errors.setdefault(name, []).append(f"The {label} is required.")
            continue
        numbers[name] = _check_number(errors, name, value, label)
    if errors:
        raise ValidationError(errors)
    scoring = get_spec(tournament.ruleset).scoring
    for side in ("home", "away"):
        message = scoring.score_error(numbers[f"{side}_score"], numbers[f"{side}_tries"])
        if message:
            errors.setdefault(f"{side}_score", []).append(f"{side.capitalize()}: {message}")
    winner_id = winner.pk if winner is not None else None
    if winner_id is not None and winner_id not in (fixture.home_id, fixture.away_id):
        errors.setdefault("winner", []).append("The winner must be one of the two teams of this fixture.")
    elif numbers["home_score"] != numbers["away_score"]:
        leader = fixture.home_id if numbers["home_score"] > numbers["away_score"] else fixture.away_id
        if winner_id is not None and winner_id != leader:
            errors.setdefault("winner", []).append("The winner must be the team with the higher score.")
        winner_id = leader
    if errors:
        raise ValidationError(errors)
    return {**numbers, "kind": kind, "decided_by": decided_by, "winner_id": winner_id}


@transaction.atomic
def result_record(
    *,
    fixture: Fixture,
    home_score=None,
    away_score=None,
    home_tries=0,
    away_tries=0,
    kind: str = Result.Kind.PLAYED,
    winner: Entry | None = None,
    decided_by: str = "",
    stats: dict | None = None,
    source: str = Result.Source.MANUAL,
    user=None,
    reason: str = "",
) -> Result:
    """Record or correct a fixture's result, in one transaction, and keep the change in the audit trail.

    Validates the numbers (whole, non-negative, consistent with the rule set's
    scoring; walkovers take the tournament's walkover score), asks
    ``league.advancement.validate_result_change`` (a knockout draw needs a winner), saves, writes a
    ``ResultChange`` (who, when, old and new), marks the fixture played, bumps
    the tournament's version (cached pages) and calls
    ``league.advancement.after_result_change``. Recording exactly the result
    already stored changes nothing and writes no audit row.
    """
    # Lock the fixture and (through the join) its tournament: result changes of one tournament queue up
    # here, so two organisers correcting the same result, or knockout advancement run for two results at
    # once, never interleave.
    fixture = Fixture.objects.select_for_update().select_related("tournament").get(pk=fixture.pk)
    tournament = fixture.tournament
    if fixture.status == Fixture.Status.CANCELLED:
        raise ValidationError("This fixture is cancelled: it cannot have a result.")
    if source not in Result.Source.values:
        raise ValidationError({"source": [f"Unknown source {source!r}."]})
    if stats is not None and not isinstance(stats, dict):
        raise ValidationError({"stats": ["Stats must be a JSON object."]})
    values = result_values_validate(tournament=tournament, fixture=fixture, home_score=home_score,
                                    away_score=away_score, home_tries=home_tries, away_tries=away_tries,
                                    kind=kind, winner=winner, decided_by=decided_by)
    advancement.validate_result_change(fixture=fixture, values=dict(values))
    result = Result.objects.select_for_update().filter(fixture=fixture).first()
    old = _result_values(result)
    if result is None:
        result = Result(fixture=fixture)
    for key, value in values.items():
        setattr(result, key, value)
    result.stats = stats if stats is not None else (result.stats or {})
    result.source = source
    new = _result_values(result)
    if old == new:
        return result
    result.entered_by = user if getattr(user, "is_authenticated", False) else None
    try:
        with transaction.atomic():
            result.save()
    except IntegrityError as exc:  # e.g. a score over the column's range on PostgreSQL
        raise ValidationError(f"The result could not be saved: {exc}.")
    ResultChange.objects.create(fixture=fixture, action="created" if old is None else "updated", old=old,
                                new=new, reason=(reason or "")[:200], changed_by=result.entered_by)
    if fixture.status != Fixture.Status.PLAYED:
        fixture.status = Fixture.Status.PLAYED
        fixture.save(update_fields=["status"])
    if tournament.status == Tournament.Status.DRAFT:
        Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.IN_PROGRESS)
    tournament_changed(tournament)
    advancement.after_result_change(fixture=fixture, user=user)
    return result


@transaction.atomic
def result_delete(*, fixture: Fixture, user=None, reason: str = "") -> None:
    """Delete a fixture's result (audit row kept, fixture back to scheduled, standings follow)."""
    fixture = Fixture.objects.select_for_update().select_related("tournament").get(pk=fixture.pk)
    result = Result.objects.select_for_update().filter(fixture=fixture).first()
    if result is None:
        raise ValidationError("This fixture has no result to delete.")
    advancement.validate_result_change(fixture=fixture, values=None)
    old = _result_values(result)
    result.delete()
    changed_by = user if getattr(user, "is_authenticated", False) else None
    ResultChange.objects.create(fixture=fixture, action="deleted", old=old, new=None, reason=(reason or "")[:200],
                                changed_by=changed_by)
    if fixture.status == Fixture.Status.PLAYED:
        fixture.status = Fixture.Status.SCHEDULED
        fixture.save(update_fields=["status"])
    tournament_changed(fixture.tournament)
    advancement.after_result_change(fixture=fixture, user=user)


# ---------------------------------------------------------------------------
# CSV import
# ---------------------------------------------------------------------------

IMPORT_COLUMNS = ("pool", "round", "date", "home", "away", "home_score", "away_score", "home_tries", "away_tries")


@dataclass
class ImportSummary:
    """What an import did: results created, corrected and already up to date."""

    created: int = 0
    updated: int = 0
    unchanged: int = 0
    lines: list[int] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.created + self.updated + self.unchanged


def _read_text(file) -> str:
    if isinstance(file, (str, bytes)) and not hasattr(file, "read"):
        data = file
    else:
        data = file.read()
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValidationError("The file is not UTF-8 text: save the CSV as UTF-8 and try again.")
    if "\x00" in data:
        # NUL characters mean a binary or UTF-16 file (and PostgreSQL refuses them in text).
        raise ValidationError("The file is not CSV text (it contains NUL characters): save it as CSV UTF-8.")
    return data.lstrip("\ufeff")


def _messages(exc: ValidationError) -> list[str]:
    if hasattr(exc, "error_dict"):
        return [m for messages in exc.message_dict.values() for m in messages]
    return list(exc.messages)


def results_import_csv(*, tournament: Tournament, file, user=None) -> ImportSummary:
    """Import results from CSV rows ``pool,round,date,home,away,home_score,away_score,home_tries,away_tries``.

    ``file`` is a path-less file object (text or bytes, e.g. an upload) or the
    CSV text itself. A header row is optional. Teams are matched by code or
    name; the fixture by its two teams and pool (round and date only choose
    between two fixtures of the same teams, as in a double round robin; a row
    naming the teams the other way round than the fixture is turned round).
    Every invalid or unmatched row is reported as "Line N: ..." in one
    ValidationError, and then nothing of the file is saved.
    """
    text = _read_text(file)
    # strict: an unterminated quote is an error, not the rest of the file read as one cell.
    reader = csv.reader(io.StringIO(text), strict=True)
    try:
        rows = [(reader.line_num, row) for row in reader]
    except csv.Error as exc:  # e.g. a cell longer than the csv module's limit, a stray quote
        raise ValidationError(f"Line {reader.line_num}: the CSV cannot be read ({exc}).")
    pools = {p.name.upper(): p for p in Pool.objects.filter(tournament=tournament)}
    entries = list(Entry.objects.filter(tournament=tournament).select_related("team"))
    by_team: dict[str, Entry] = {}
    for entry in entries:
        by_team.setdefault(entry.team.code.upper(), entry)
        by_team.setdefault(entry.team.name.upper(), entry)
    fixtures = list(Fixture.objects.filter(tournament=tournament, pool__isnull=False, home__isnull=False,
                                           away__isnull=False))
    by_pair: dict[tuple[int, frozenset], list[Fixture]] = {}
    for fixture in fixtures:
        by_pair.setdefault((fixture.pool_id, frozenset((fixture.home_id, fixture.away_id))), []).append(fixture)

    errors: list[str] = []
    planned: list[tuple[int, Fixture, dict]] = []
    seen: dict[int, int] = {}
    for line, row in rows:
        if not row or all(not cell.strip() for cell in row):
            continue
        cells = [cell.strip() for cell in row]
        if line == 1 and cells[0].lower() == "pool":
            continue  # the header
        if len(cells) != len(IMPORT_COLUMNS):
            errors.append(f"Line {line}: expected {len(IMPORT_COLUMNS)} columns ({','.join(IMPORT_COLUMNS)}), "
                          f"found {len(cells)}.")
            continue
        data = dict(zip(IMPORT_COLUMNS, cells, strict=True))
        problems = []
        pool = _import_pool(data["pool"], pools)
        if pool is None:
            problems.append(f"unknown pool {data['pool']!r}" if data["pool"]
                            else "the pool is missing (this tournament has several)")
        home, away = by_team.get(data["home"].upper()), by_team.get(data["away"].upper())
        for side in ("home", "away"):
            if (home if side == "home" else away) is None:
                problems.append(f"no team {data[side]!r} in this tournament" if data[side]
                                else f"the {side} team is missing")
        round_number = None
        if data["round"]:
            try:
                round_number = int(data["round"])
            except ValueError:
                problems.append(f"the round must be a whole number, not {data['round']!r}")
        day = None
        if data["date"]:
            try:
                day = datetime.strptime(data["date"], "%Y-%m-%d").date()
            except ValueError:
                problems.append(f"the date must look like 2023-09-08, not {data['date']!r}")
        if problems:
            errors.append(f"Line {line}: " + "; ".join(problems) + ".")
            continue
        if home.pk == away.pk:
            errors.append(f"Line {line}: a team cannot play itself.")
            continue
        candidates = by_pair.get((pool.pk, frozenset((home.pk, away.pk))), [])
        fixture, swapped = _import_fixture(candidates, home, away, round_number, day)
        if fixture is None and candidates:
            errors.append(f"Line {line}: {home.team.code} and {away.team.code} meet more than once in pool "
                          f"{pool.name}: give the round or the date of this match.")
            continue
        if fixture is None:
            errors.append(f"Line {line}: no fixture {home.team.code} v {away.team.code} in pool {pool.name}"
                          + (f" in round {round_number}" if round_number else "")
                          + (f" on {day}" if day else "") + ".")
            continue
        if fixture.pk in seen:
            errors.append(f"Line {line}: the fixture {home.team.code} v {away.team.code} is already on line "
                          f"{seen[fixture.pk]}.")
            continue
        seen[fixture.pk] = line
        scores = {k: data[k] for k in ("home_score", "away_score", "home_tries", "away_tries")}
        if swapped:
            scores = {"home_score": scores["away_score"], "away_score": scores["home_score"],
                      "home_tries": scores["away_tries"], "away_tries": scores["home_tries"]}
        try:
            result_values_validate(tournament=tournament, fixture=fixture, **scores)
        except ValidationError as exc:
            errors.append(f"Line {line}: " + " ".join(_messages(exc)))
            continue
        planned.append((line, fixture, scores))
    if errors:
        raise ValidationError(errors)
    if not planned:
        raise ValidationError("The file has no result rows.")

    summary = ImportSummary()
    with transaction.atomic():
        existing = {r.fixture_id: _result_values(r) for r in Result.objects.filter(
            fixture__in=[f for _, f, _ in planned])}
        for line, fixture, scores in planned:
            before = existing.get(fixture.pk)
            try:
                after = _result_values(result_record(fixture=fixture, source=Result.Source.IMPORT, user=user,
                                                     reason="CSV import", **scores))
            except ValidationError as exc:
                errors.append(f"Line {line}: " + " ".join(_messages(exc)))
                continue
            summary.lines.append(line)
            if before is None:
                summary.created += 1
            elif before == after:
                summary.unchanged += 1
            else:
                summary.updated += 1
        if errors:
            # Raising inside the atomic block rolls back every row saved so far.
            raise ValidationError(errors)
    return summary


def _import_pool(name: str, pools: dict[str, Pool]) -> Pool | None:
    if not name:
        return next(iter(pools.values())) if len(pools) == 1 else None
    key = name.upper()
    if key.startswith("POOL "):
        key = key[5:].strip()
    return pools.get(key)


def _import_fixture(candidates: list[Fixture], home: Entry, away: Entry, round_number: int | None,
                    day: date | None) -> tuple[Fixture | None, bool]:
    """The fixture a row means and whether its home and away are the other way round in the row."""
    if not candidates:
        return None, False
    same_way = [f for f in candidates if f.home_id == home.pk]
    pool = same_way or candidates
    if round_number is not None and len(pool) > 1:
        pool = [f for f in pool if f.round_number == round_number] or pool
    if day is not None and len(pool) > 1:
        pool = [f for f in pool if f.kickoff and timezone.localtime(f.kickoff).date() == day] or pool
    if len(pool) > 1:
        return None, False
    fixture = pool[0]
    return fixture, fixture.home_id != home.pk

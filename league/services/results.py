"""Writes of results: record, correct, delete, walkovers and withdrawals, knockout resets, the CSV import.

Whether a result is allowed is decided here, in :func:`result_values_validate` (numbers, walkovers, winner,
the rule set's score check) and ``league.advancement.validate_result_change`` (a level knockout match needs
who went through): the HTML form, the API, the CSV import, the admin and the simulation all call
:func:`result_record`, so they give the same answer and the same message.
"""

from __future__ import annotations

import contextlib
import contextvars
import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from engine import get_spec
from league import advancement, hooks
from league.cache import fixture_tokens, tournament_changed
from league.errors import DomainError, NotFound, error_messages
from league.formats import format_of
from league.models import AuditRecord, Entry, Fixture, Pool, Result, ResultChange, Tournament
from league.services import tournaments as tournament_services
from league.services.audit import audit_record
from league.services.tournaments import tournament_require_open
from league.stored_texts import Coded, reason_fields

# Set while several results are written as one change (an import, a withdrawal): the tournament is finished
# (or not) once, at the end, so a correction later in the same file is not refused half-way.
_FINISH_DEFERRED = contextvars.ContextVar("league_results_finish_deferred", default=False)


@contextlib.contextmanager
def _one_change() -> Iterator[None]:
    token = _FINISH_DEFERRED.set(True)
    try:
        yield
    finally:
        _FINISH_DEFERRED.reset(token)


def tournament_finish_if_complete(*, tournament: Tournament) -> bool:
    """Mark an in-progress tournament finished when its format says it is complete (its last result is in).

    Called by the services after every result change: the result that completes a tournament finishes it, and
    the public pages then show the champion and the final standings. A draft is never finished (nor published)
    by a result. Returns whether it finished now.
    """
    if _FINISH_DEFERRED.get() or tournament.status != Tournament.Status.IN_PROGRESS:
        return False
    if not format_of(tournament).complete(tournament):
        return False
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    tournament.status = Tournament.Status.FINISHED
    tournament_changed(tournament)  # everything: the header, the champion, the tabs
    return True


def tournament_publish(*, tournament: Tournament, user: Any = None) -> Tournament:
    """Publish (``tournaments.tournament_publish``); a tournament whose results were all entered while it was
    a draft is finished at once."""
    tournament = tournament_services.tournament_publish(tournament=tournament, user=user)
    tournament_finish_if_complete(tournament=tournament)
    return tournament


def _result_values(result: Result | None) -> dict | None:
    if result is None:
        return None
    return {
        "home_score": result.home_score, "away_score": result.away_score,
        "home_tries": result.home_tries, "away_tries": result.away_tries,
        "kind": result.kind, "winner_id": result.winner_id, "decided_by": result.decided_by,
        "stats": result.stats, "source": result.source,
    }


WHOLE_NUMBER = re.compile(r"-?[0-9]{1,9}")


def _check_number(errors: dict[str, list[str]], name: str, value: Any, label: str) -> int | None:
    """The value as a non-negative whole number, or None with a message added to ``errors``."""
    number = None
    if isinstance(value, int) and not isinstance(value, bool):  # bool is an int in Python: refuse True/False
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    elif isinstance(value, str) and WHOLE_NUMBER.fullmatch(value.strip()):
        # ASCII digits only: "²" is a digit to str.isdigit() but not a number to int(), and "--5" is no number.
        number = int(value.strip())
    if number is None and isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        errors.setdefault(name, []).append(_("The %(label)s is too large.") % {"label": label})
    elif number is None:
        errors.setdefault(name, []).append(_("The %(label)s must be a whole number, not %(value)s.")
                                            % {"label": label, "value": repr(str(value)[:20])})
    elif number < 0:
        errors.setdefault(name, []).append(_("The %(label)s cannot be negative.") % {"label": label})
    elif number > 32767:
        errors.setdefault(name, []).append(_("The %(label)s is too large.") % {"label": label})
    else:
        return number
    return None


def fixture_ready_for_result(fixture: Fixture) -> bool:
    """Whether a fixture's teams are known (a solo attempt has no away team: the entrant plays the game)."""
    return fixture.home_id is not None and (fixture.away_id is not None or fixture.stage == Fixture.Stage.SOLO)


def result_values_validate(*, tournament: Tournament, fixture: Fixture, home_score: Any, away_score: Any,
                           home_tries: Any, away_tries: Any, kind: str = Result.Kind.PLAYED,
                           winner: Entry | None = None, decided_by: str = "") -> dict[str, Any]:
    """Check a result's values against the tournament's rules; return them cleaned (or raise ValidationError).

    Walkovers take the tournament's walkover score and tries whatever was sent.
    """
    errors: dict[str, list[str]] = {}
    if kind not in Result.Kind.values:
        raise DomainError({"kind": [_("Unknown result kind %(kind)s; use one of: %(choices)s.")
                                      % {"kind": repr(kind), "choices": ', '.join(Result.Kind.values)}]})
    if decided_by not in Result.DecidedBy.values:
        raise DomainError({"decided_by": [_("Unknown value %(decided_by)s.") % {"decided_by": repr(decided_by)}]})
    # A solo-challenge attempt has no away team: the entrant plays the game itself (away score = the game's).
    if not fixture_ready_for_result(fixture):
        raise DomainError(_("Both teams of this fixture must be known before its result."))
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
            raise DomainError({"winner": [_("The winner of a walkover is the team it is awarded to.")]})
        return values
    numbers: dict[str, int | None] = {}
    for name, value, label in (("home_score", home_score, _("home score")),
                               ("away_score", away_score, _("away score")),
                               ("home_tries", home_tries, _("home tries")),
                               ("away_tries", away_tries, _("away tries"))):
        if value is None or value == "":
            if name.endswith("tries"):
                numbers[name] = 0  # tries are optional: football and solo results have none
                continue
            errors.setdefault(name, []).append(_("The %(label)s is required.") % {"label": label})
            continue
        numbers[name] = _check_number(errors, name, value, label)
    if errors:
        raise DomainError(errors)
    valid = {name: number for name, number in numbers.items() if number is not None}
    scoring = get_spec(tournament.ruleset).scoring
    for side in ("home", "away"):
        message = scoring.score_error(valid[f"{side}_score"], valid[f"{side}_tries"])
        if message:
            errors.setdefault(f"{side}_score", []).append(f"{_('Home') if side == 'home' else _('Away')}: {message}")
    winner_id = winner.pk if winner is not None else None
    if winner_id is not None and winner_id not in (fixture.home_id, fixture.away_id):
        errors.setdefault("winner", []).append(_("The winner must be one of the two teams of this fixture."))
    elif valid["home_score"] != valid["away_score"]:
        leader = fixture.home_id if valid["home_score"] > valid["away_score"] else fixture.away_id
        if winner_id is not None and winner_id != leader:
            errors.setdefault("winner", []).append(_("The winner must be the team with the higher score."))
        winner_id = leader
    if errors:
        raise DomainError(errors)
    return {**valid, "kind": kind, "decided_by": decided_by, "winner_id": winner_id}


@transaction.atomic
def result_record(
    *,
    fixture: Fixture,
    home_score: Any = None,
    away_score: Any = None,
    home_tries: Any = 0,
    away_tries: Any = 0,
    kind: str = Result.Kind.PLAYED,
    winner: Entry | None = None,
    decided_by: str = "",
    stats: dict[str, Any] | None = None,
    source: str = Result.Source.MANUAL,
    user: Any = None,
    reason: str | Coded = "",
) -> Result:
    """Record or correct a fixture's result, in one transaction, and keep the change in the audit trail.

    Validates the numbers (whole, non-negative, consistent with the rule set's
    scoring; walkovers take the tournament's walkover score), asks
    ``league.advancement.validate_result_change`` (a knockout draw needs a winner), saves, writes a
    ``ResultChange`` (who, when, old and new, and ``reason``: the organiser's words, or the site's own as a
    ``Coded`` reason shown in each reader's language), marks the fixture played, bumps
    the tournament's version (cached pages) and calls
    ``league.advancement.after_result_change``. Recording exactly the result
    already stored changes nothing and writes no audit row.
    """
    fixture = _lock_fixture(fixture)
    tournament = fixture.tournament
    tournament_require_open(tournament)
    if fixture.status == Fixture.Status.CANCELLED:
        raise DomainError(_("This fixture is cancelled: it cannot have a result."))
    if source not in Result.Source.values:
        raise DomainError({"source": [_("Unknown source %(source)s.") % {"source": repr(source)}]})
    if stats is not None and not isinstance(stats, dict):
        raise DomainError({"stats": [_("Stats must be a JSON object.")]})
    values = result_values_validate(tournament=tournament, fixture=fixture, home_score=home_score,
                                    away_score=away_score, home_tries=home_tries, away_tries=away_tries,
                                    kind=kind, winner=winner, decided_by=decided_by)
    advancement.validate_result_change(fixture=fixture, values=dict(values))
    result = advancement.result_of(fixture)
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
    result.was_created = old is None
    result.entered_by = user if getattr(user, "is_authenticated", False) else None
    try:
        # No savepoint of its own: the error leaves this function's atomic block at once, which rolls it back.
        result.save()
    except IntegrityError as exc:  # e.g. a score over the column's range on PostgreSQL
        raise DomainError(_("The result could not be saved: %(exc)s.") % {"exc": exc})
    fixture.result = result
    ResultChange.objects.create(fixture=fixture, action="created" if old is None else "updated", old=old,
                                new=new, changed_by=result.entered_by, **reason_fields(reason))
    if fixture.status != Fixture.Status.PLAYED:
        fixture.status = Fixture.Status.PLAYED
        fixture.save(update_fields=["status"])
    # Only what shows this fixture is built again: its pool's table, its round, day and pitch, both teams,
    # its bracket (a draft stays a draft: publishing is the organiser's own step).
    tournament_changed(tournament, sections=fixture_tokens(fixture, tournament))
    hooks.results_changed(tournament.pk)
    advancement.after_result_change(fixture=fixture, user=user)
    format_of(tournament).after_result(tournament, fixture, user=user)
    tournament_finish_if_complete(tournament=tournament)
    return result


def _lock_fixture(fixture: Fixture) -> Fixture:
    """The fixture again, locked with its tournament, and with what a result change reads (one query).

    Result changes of one tournament queue up on the tournament's row, so two organisers correcting the same
    result, or knockout advancement run for two results at once, never interleave (every writer of results
    takes this lock, so the result read through the join needs no lock of its own).
    """
    return (Fixture.objects.select_for_update(of=("self", "tournament"))
            .select_related("tournament", "pool", "home", "away", "result").get(pk=fixture.pk))


@transaction.atomic
def result_delete(*, fixture: Fixture, user: Any = None, reason: str | Coded = "",
                  reset_later_rounds: bool = False) -> None:
    """Delete a fixture's result (audit row kept, fixture back to scheduled, standings and brackets follow).

    A deletion that would alter a knockout match already played is refused, as a correction is, unless
    ``reset_later_rounds``: then those later results are deleted too (the audit trail keeps them).
    """
    if reset_later_rounds:
        with advancement.resets_allowed():
            return result_delete(fixture=fixture, user=user, reason=reason)
    fixture = _lock_fixture(fixture)
    tournament_require_open(fixture.tournament)
    result = advancement.result_of(fixture)
    if result is None:
        raise NotFound(_("This fixture has no result yet."))
    advancement.validate_result_change(fixture=fixture, values=None)
    old = _result_values(result)
    result.delete()
    fixture._state.fields_cache["result"] = None
    changed_by = user if getattr(user, "is_authenticated", False) else None
    ResultChange.objects.create(fixture=fixture, action="deleted", old=old, new=None, changed_by=changed_by,
                                **reason_fields(reason))
    if fixture.status == Fixture.Status.PLAYED:
        fixture.status = Fixture.Status.SCHEDULED
        fixture.save(update_fields=["status"])
    tournament_changed(fixture.tournament, sections=fixture_tokens(fixture, fixture.tournament))
    hooks.results_changed(fixture.tournament_id)
    advancement.after_result_change(fixture=fixture, user=user)
    format_of(fixture.tournament).after_result(fixture.tournament, fixture, user=user)


# ---------------------------------------------------------------------------
# CSV import
# ---------------------------------------------------------------------------

IMPORT_COLUMNS = ("pool", "round", "date", "home", "away", "home_score", "away_score", "home_tries", "away_tries")
ROUND_NUMBER = re.compile(r"[0-9]{1,4}")
# Optional further columns: a walkover ("walkover_home", "walkover_away"), and for a level knockout match the
# team that went through (its code or name) and how ("extra_time", "tries", "kicking").
IMPORT_OPTIONAL_COLUMNS = ("kind", "winner", "decided_by")




def result_correct(*, fixture: Fixture, reset_later_rounds: bool = False, **result_fields: Any) -> Result:
    """Correct a result (as :func:`result_record`, whose transaction it is); with ``reset_later_rounds`` the
    played matches it alters downstream have their results deleted instead of the correction being refused."""
    if not reset_later_rounds:
        return result_record(fixture=fixture, **result_fields)
    with advancement.resets_allowed():
        return result_record(fixture=fixture, **result_fields)


@transaction.atomic
def bracket_reset_from(*, fixture: Fixture, user: Any = None, reason: str = "") -> list[str]:
    """Delete the results of every knockout match downstream of ``fixture`` (latest first) and re-derive.

    The organiser's explicit "reset the later rounds": afterwards ``fixture``'s
    result can be corrected freely. The audit trail keeps the deleted results.
    Returns the codes of the matches whose results were deleted.
    """
    tournament_require_open(fixture.tournament)
    fixtures = list(Fixture.objects.filter(tournament=fixture.tournament).select_related("result"))
    codes = advancement.downstream_codes(fixtures, fixture)
    by_code = {f.code: f for f in fixtures if f.code}
    deleted = []
    for code in reversed(codes):
        f = by_code[code]
        result = advancement.result_of(f)
        if result is not None:
            advancement.result_remove(f, result, user=user,
                                      reason=Coded("reset_from", {"fixture": fixture.code or str(fixture)},
                                                   reason))
            deleted.append(code)
    with advancement.resets_allowed():
        advancement.rederive(fixture.tournament, user=user)
    tournament_changed(fixture.tournament)
    return deleted


@transaction.atomic
def entry_withdraw(*, entry: Entry, keep_played_results: bool = True, user: Any = None,
                   reason: str = "") -> dict[str, int]:
    """Withdraw a team: it forfeits every fixture it has not played, at the tournament's walkover score.

    ``keep_played_results``: its played pool results stand (True) or are voided
    (False: deleted, with the audit trail keeping them, and the fixtures
    cancelled), as the organiser chooses. A knockout place it had, or wins
    later, goes to its opponent by walkover. Swiss rounds leave it out from
    now on. Returns counts: {"walkovers": n, "voided": n}.
    """
    entry = Entry.objects.select_for_update().select_related("team", "tournament").get(pk=entry.pk)
    tournament_require_open(entry.tournament)
    if entry.withdrawn_at is not None:
        raise DomainError(_("%(team)s has already withdrawn.") % {"team": entry.team.name})
    entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["withdrawn_at"])
    withdrew = Coded("withdrew", {"team": entry.team.name}, reason)
    walkovers = voided = 0
    fixtures = list(Fixture.objects.filter(Q(home=entry) | Q(away=entry), tournament=entry.tournament)
                    .exclude(status=Fixture.Status.CANCELLED).select_related("result")
                    .order_by("round_number", "slot", "pk"))
    with _one_change():
        for fixture in fixtures:
            result = advancement.result_of(fixture)
            if result is not None:
                if not keep_played_results and fixture.stage == Fixture.Stage.POOL:
                    result_delete(fixture=fixture, user=user,
                                  reason=Coded("withdrew_voided", {"team": entry.team.name}, reason))
                    Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.CANCELLED)
                    voided += 1
                continue
            if fixture.home_id is None or fixture.away_id is None:
                continue  # a bye, a solo attempt, or an opponent still to be decided (advancement handles it)
            opponent_home = fixture.away_id == entry.pk
            result_record(fixture=fixture, kind=Result.Kind.WALKOVER_HOME if opponent_home
                          else Result.Kind.WALKOVER_AWAY, user=user, reason=withdrew)
            walkovers += 1
        for fixture in fixtures:
            if fixture.stage == Fixture.Stage.SOLO and advancement.result_of(fixture) is None:
                Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.CANCELLED)
        advancement.rederive(entry.tournament, user=user)
        audit_record(action=AuditRecord.Action.ENTRY_WITHDRAWN, tournament=entry.tournament, team=entry.team,
                     user=user, new={"team": entry.team.code, "walkovers": walkovers, "voided": voided,
                                     "reason": (reason or "")[:200]})
    tournament_changed(entry.tournament)
    tournament_finish_if_complete(tournament=entry.tournament)
    return {"walkovers": walkovers, "voided": voided}


# ---------------------------------------------------------------------------
# CSV import
# ---------------------------------------------------------------------------


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


def _read_text(file: Any) -> str:
    limit = int(settings.MAX_UPLOAD_BYTES)
    if isinstance(file, (str, bytes)) and not hasattr(file, "read"):
        data = file
    else:
        data = file.read(limit + 1)
    if len(data) > limit:
        raise DomainError(_("The file is too large: %(size)s kB at most. Split it into smaller files.")
                            % {"size": format(limit // 1000, ',')})
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise DomainError(_("The file is not UTF-8 text: save the CSV as UTF-8 and try again."))
    if "\x00" in data:
        # NUL characters mean a binary or UTF-16 file (and PostgreSQL refuses them in text).
        raise DomainError(_("The file is not CSV text (it contains NUL characters): save it as CSV UTF-8."))
    return data.lstrip("\ufeff")


def results_import_csv(*, tournament: Tournament, file: Any, user: Any = None) -> ImportSummary:
    """Import results from CSV rows ``pool,round,date,home,away,home_score,away_score,home_tries,away_tries``
    (and optionally ``kind,winner,decided_by``).

    ``file`` is a path-less file object (text or bytes, e.g. an upload) or the
    CSV text itself. A header row is optional. Teams are matched by code or
    name; the fixture by its two teams and pool (round and date only choose
    between two fixtures of the same teams, as in a double round robin; a row
    naming the teams the other way round than the fixture is turned round).
    With the pool left empty, a knockout or Swiss fixture is found by its two
    teams, and a solo attempt by its entrant (the away team left empty). Every
    result is checked by :func:`result_values_validate` (as the form, the API and
    the admin check it). Every invalid or unmatched row is reported as "Line N:
    ..." in one error, and then nothing of the file is saved.
    """
    tournament_require_open(tournament)
    text = _read_text(file)
    # strict: an unterminated quote is an error, not the rest of the file read as one cell.
    reader = csv.reader(io.StringIO(text), strict=True)
    try:
        rows = [(reader.line_num, row) for row in reader]
    except csv.Error as exc:  # e.g. a cell longer than the csv module's limit, a stray quote
        raise DomainError(_("Line %(line)s: the CSV cannot be read (%(exc)s).") % {"line": reader.line_num, "exc": exc})
    pools = {p.name.upper(): p for p in Pool.objects.filter(tournament=tournament)}
    entries = list(Entry.objects.filter(tournament=tournament).select_related("team"))
    by_team: dict[str, Entry] = {}
    for entry in entries:
        by_team.setdefault(entry.team.code.upper(), entry)
        by_team.setdefault(entry.team.name.upper(), entry)
    fixtures = list(Fixture.objects.filter(tournament=tournament, home__isnull=False)
                    .exclude(status=Fixture.Status.CANCELLED).select_related("home__team", "away__team"))
    by_pair: dict[tuple[int | None, frozenset[int | None]], list[Fixture]] = {}
    for fixture in fixtures:
        pair = frozenset((fixture.home_id, fixture.away_id))
        if fixture.pool_id is not None:
            by_pair.setdefault((fixture.pool_id, pair), []).append(fixture)
        if fixture.away_id is not None or fixture.stage == Fixture.Stage.SOLO:
            by_pair.setdefault((None, pair), []).append(fixture)  # the pool left empty: any stage

    errors: list[str] = []
    planned: list[tuple[int, Fixture, dict[str, Any]]] = []
    seen: dict[int, int] = {}
    most = len(IMPORT_COLUMNS) + len(IMPORT_OPTIONAL_COLUMNS)
    for line, row in rows:
        if not row or all(not cell.strip() for cell in row):
            continue
        cells = [cell.strip() for cell in row]
        if line == 1 and cells[0].lower() == "pool":
            continue  # the header
        if not len(IMPORT_COLUMNS) <= len(cells) <= most:
            errors.append(_("Line %(line)s: expected %(expected)s columns (%(columns)s), found %(found)s.") % {
                "line": line, "expected": len(IMPORT_COLUMNS), "columns": ",".join(IMPORT_COLUMNS),
                "found": len(cells)})
            continue
        data = dict(zip((*IMPORT_COLUMNS, *IMPORT_OPTIONAL_COLUMNS), cells, strict=False))
        problems = []
        solo = not data["away"]
        pool = _import_pool(data["pool"], pools)
        if data["pool"] and pool is None:
            problems.append(_("unknown pool %(pool)s") % {"pool": repr(data["pool"])})
        home, away = by_team.get(data["home"].upper()), by_team.get(data["away"].upper())
        for side in ("home", "away") if not solo else ("home",):
            if (home if side == "home" else away) is None:
                problems.append(_("no team %(team)s in this tournament") % {"team": repr(data[side])} if data[side]
                                else _("the home team is missing") if side == "home" else _("the away team is missing"))
        winner = by_team.get(data.get("winner", "").upper()) if data.get("winner") else None
        if data.get("winner") and winner is None:
            problems.append(_("no team %(team)s in this tournament") % {"team": repr(data["winner"])})
        round_number = None
        if data["round"]:
            if ROUND_NUMBER.fullmatch(data["round"]):
                round_number = int(data["round"])
            else:
                problems.append(_("the round must be a whole number, not %(value)s") % {"value": repr(data["round"])})
        day = None
        if data["date"]:
            try:
                day = datetime.strptime(data["date"], "%Y-%m-%d").date()
            except ValueError:
                problems.append(_("the date must look like 2023-09-08, not %(value)s") % {"value": repr(data["date"])})
        if problems:
            errors.append(_("Line %(line)s: %(problems)s.") % {"line": line, "problems": "; ".join(problems)})
            continue
        assert home is not None
        if away is not None and home.pk == away.pk:
            errors.append(_("Line %(line)s: a team cannot play itself.") % {"line": line})
            continue
        pair = frozenset((home.pk, away.pk if away is not None else None))
        candidates = by_pair.get((pool.pk if pool is not None else None, pair), [])
        found, swapped = _import_fixture(candidates, home, round_number, day)
        names = (_("%(home)s v %(away)s") % {"home": home.team.code, "away": away.team.code} if away is not None
                 else _("%(player)s's attempt") % {"player": home.team.code})
        where = _(" in pool %(pool)s") % {"pool": pool.name} if pool is not None else ""
        if found is None and candidates:
            errors.append(_("Line %(line)s: %(names)s meet more than once%(where)s: give the round or the date of "
                            "this match.") % {"line": line, "names": names, "where": where} if away is not None else
                          _("Line %(line)s: %(names)s has several attempts: give the round (the attempt's number).")
                          % {"line": line, "names": names})
            continue
        if found is None:
            errors.append(_("Line %(line)s: no fixture %(names)s%(where)s")
                          % {"line": line, "names": names, "where": where}
                          + (_(" in round %(round)s") % {"round": round_number} if round_number else "")
                          + (_(" on %(day)s") % {"day": day} if day else "") + ".")
            continue
        fixture = found
        if fixture.pk in seen:
            errors.append(_("Line %(line)s: the fixture %(names)s is already on line %(first)s.")
                          % {"line": line, "names": names, "first": seen[fixture.pk]})
            continue
        seen[fixture.pk] = line
        values: dict[str, Any] = {k: data[k] for k in ("home_score", "away_score", "home_tries", "away_tries")}
        kind: str = data.get("kind") or Result.Kind.PLAYED
        if swapped:
            values = {"home_score": values["away_score"], "away_score": values["home_score"],
                      "home_tries": values["away_tries"], "away_tries": values["home_tries"]}
            turned = {str(Result.Kind.WALKOVER_HOME): str(Result.Kind.WALKOVER_AWAY),
                      str(Result.Kind.WALKOVER_AWAY): str(Result.Kind.WALKOVER_HOME)}
            kind = turned.get(kind, kind)
        values.update(kind=kind, winner=winner, decided_by=data.get("decided_by") or "")
        try:
            checked = result_values_validate(tournament=tournament, fixture=fixture, **values)
            advancement.validate_result_change(fixture=fixture, values=dict(checked))
        except ValidationError as exc:
            errors.append(_("Line %(line)s: %(problems)s")
                              % {"line": line, "problems": " ".join(error_messages(exc))})
            continue
        planned.append((line, fixture, values))
    if errors:
        raise DomainError(_capped(errors))
    if not planned:
        raise DomainError(_("The file has no result rows."))

    summary = ImportSummary()
    with transaction.atomic(), _one_change():
        existing = {r.fixture_id: _result_values(r) for r in Result.objects.filter(
            fixture__in=[f for _line, f, _values in planned])}
        for line, fixture, values in planned:
            before = existing.get(fixture.pk)
            try:
                after = _result_values(result_record(fixture=fixture, source=Result.Source.IMPORT, user=user,
                                                     reason=Coded("csv_import"), **values))
            except ValidationError as exc:
                errors.append(_("Line %(line)s: %(problems)s")
                              % {"line": line, "problems": " ".join(error_messages(exc))})
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
            raise DomainError(errors)
    tournament.refresh_from_db(fields=["status"])
    tournament_finish_if_complete(tournament=tournament)
    return summary


def _capped(errors: list[str]) -> list[str]:
    """The first ``MAX_IMPORT_ERRORS`` messages, and how many more lines were wrong (a huge file of bad lines
    is answered with a short list, not megabytes of messages)."""
    limit = int(settings.MAX_IMPORT_ERRORS)
    if len(errors) <= limit:
        return errors
    more = _("… and %(count)s more lines with errors (fix these first).") % {"count": len(errors) - limit}
    return [*errors[:limit], more]


def _import_pool(name: str, pools: dict[str, Pool]) -> Pool | None:
    if not name:
        return None
    key = name.upper()
    if key.startswith("POOL "):
        key = key[5:].strip()
    return pools.get(key)


def _import_fixture(candidates: list[Fixture], home: Entry, round_number: int | None,
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

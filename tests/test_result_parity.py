"""One check per rule: the same result input gets the same answer and the same message through the HTML form,
the API, the CSV import and the admin (all four call ``league.services.result_record``'s checks)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from rest_framework.test import APIClient

from league import services
from league.models import Fixture, Result, Tournament
from league.services import tournament_create_from_preset as preset_run
from tests.league.test_admin import form_data

pytestmark = pytest.mark.django_db

CHANNELS = ("form", "api", "csv", "admin")


@pytest.fixture
def staff(organiser):
    organiser.is_staff = True
    organiser.save()
    return organiser


@pytest.fixture
def fixtures(staff):
    """One fixture of each kind the table needs: a pool match, a knockout final, a solo attempt."""
    league = preset_run("league", name="Parity league", slug="parity", teams=["FRA", "NZL", "ITA", "URU"],
                        user=staff)
    knockout = preset_run("single_elimination", name="Parity final", slug="parity-ko", teams=["ENG", "JPN"],
                          user=staff)
    solo = preset_run("solo", name="Parity solo", slug="parity-solo", teams=["WAL"], user=staff)
    # A one-match league whose match is played: the tournament is finished (and finished is final).
    done = preset_run("league", name="Parity done", slug="parity-done", teams=["SCO", "TGA"], user=staff)
    last = Fixture.objects.get(tournament=done)
    services.result_record(fixture=last, home_score=5, away_score=0, home_tries=1, user=staff)
    assert Tournament.objects.get(pk=done.pk).status == Tournament.Status.FINISHED
    return {
        "pool": Fixture.objects.filter(tournament=league).order_by("pk").first(),
        "knockout": Fixture.objects.get(tournament=knockout),
        "solo": Fixture.objects.get(tournament=solo),
        "finished": Fixture.objects.get(pk=last.pk),
    }


def _code(entry) -> str:
    return entry.team.code if entry is not None else ""


def _winner_entry(fixture: Fixture, code: str):
    return next((e for e in (fixture.home, fixture.away) if e is not None and e.team.code == code), None)


def through_form(client, fixture: Fixture, row: dict) -> tuple[bool, list[str]]:
    winner = _winner_entry(fixture, row["winner"])
    data = {k: str(row[k]) for k in ("home_score", "away_score", "home_tries", "away_tries")}
    data.update(kind=row["kind"], decided_by=row["decided_by"], reason="",
                winner="" if winner is None else ("home" if winner == fixture.home else "away"))
    response = client.post(reverse("league:manage_result", args=[fixture.tournament.slug, fixture.pk]), data)
    if response.status_code == 302:
        return True, []
    return False, [m for messages in response.context["form"].errors.values() for m in messages]


def through_api(staff, fixture: Fixture, row: dict) -> tuple[bool, list[str]]:
    client = APIClient()
    client.force_authenticate(staff)
    body = {k: row[k] for k in ("home_score", "away_score", "home_tries", "away_tries", "kind", "decided_by")}
    body["winner"] = row["winner"] or None
    response = client.post(f"/api/fixtures/{fixture.pk}/result/", body, format="json")
    if response.status_code in (200, 201):
        return True, []
    # A refused input is a 400; a refused state (a finished tournament) a 409.
    assert response.status_code in (400, 409), response.json()
    messages = []
    for key, value in response.json().items():
        if key != "code":
            messages.extend(value if isinstance(value, list) else [value])
    return False, messages


def through_csv(fixture: Fixture, row: dict) -> tuple[bool, list[str]]:
    pool = fixture.pool.name if fixture.pool_id else ""
    cells = [pool, "", "", _code(fixture.home), _code(fixture.away), *(str(row[k]) for k in (
        "home_score", "away_score", "home_tries", "away_tries")), row["kind"], row["winner"], row["decided_by"]]
    try:
        services.results_import_csv(tournament=fixture.tournament, file=",".join(cells) + "\n")
    except ValidationError as exc:
        (message,) = exc.messages  # one row, one line of messages: "Line 1: ..."
        if getattr(exc, "code", "") == "conflict":
            return False, [message]  # the whole file is refused (a finished tournament), not one line
        prefix = "Line 1: "
        assert message.startswith(prefix), message
        return False, [message[len(prefix):]]
    return True, []


def through_admin(client, fixture: Fixture, row: dict) -> tuple[bool, list[str]]:
    change_url = reverse("admin:league_fixture_change", args=[fixture.pk])
    data = form_data(client.get(change_url))
    winner = _winner_entry(fixture, row["winner"])
    data.update({f"result-0-{k}": str(row[k]) for k in ("home_score", "away_score", "home_tries", "away_tries")})
    data.update({"result-0-kind": row["kind"], "result-0-decided_by": row["decided_by"],
                 "result-0-winner": "" if winner is None else str(winner.pk), "result-0-stats": "{}"})
    response = client.post(change_url, data)
    if response.status_code == 302:
        return True, []
    assert response.status_code == 200
    for inline in response.context["inline_admin_formsets"]:
        if inline.formset.model is Result:
            form = inline.formset.forms[0]
            return False, [m for messages in form.errors.values() for m in messages]
    raise AssertionError("no result form on the admin page")


def _played(**values) -> dict:
    row = {"home_tries": 0, "away_tries": 0, "kind": "played", "winner": "", "decided_by": ""}
    row.update(values)
    return row


# (name, fixture, input, accepted, what the message says, the stored scores afterwards: None when refused and the
# fixture had no result; a finished tournament's result stays as it was)
TABLE = [
    ("solo result", "solo", _played(home_score=24, away_score=10, home_tries=4, away_tries=1), True, "",
     (24, 10, 4, 1)),
    ("walkover", "pool", _played(home_score=0, away_score=0, kind="walkover_home"), True, "", (28, 0, 4, 0)),
    ("knockout draw without who went through", "knockout", _played(home_score=10, away_score=10, home_tries=1,
                                                                     away_tries=1), False, "say which team", None),
    ("knockout draw with who went through", "knockout", _played(
        home_score=10, away_score=10, home_tries=1, away_tries=1, winner="JPN", decided_by="kicking"), True, "",
     (10, 10, 1, 1)),
    ("negative score", "pool", _played(home_score=-3, away_score=10, away_tries=1), False,
     "The home score cannot be negative.", None),
    ("negative tries", "pool", _played(home_score=3, away_score=10, home_tries=-1, away_tries=1), False,
     "The home tries cannot be negative.", None),
    ("score inconsistent with the tries", "pool", _played(home_score=5, away_score=0, home_tries=3), False,
     "3 tries are worth at least 15 points", None),
    ("a score no kicks can make", "pool", _played(home_score=1, away_score=0), False, "A score of 1 cannot be made",
     None),
    # Finished is final: a correction of a finished tournament is refused everywhere, the result unchanged.
    ("correction of a finished tournament", "finished", _played(home_score=7, away_score=0, home_tries=1), False,
     "Parity done is finished: its results cannot change.", (5, 0, 1, 0)),
]


@pytest.mark.parametrize("name, which, row, accepted, says, stored", TABLE, ids=[t[0] for t in TABLE])
def test_every_channel_gives_the_same_answer_and_message(client, staff, fixtures, name, which, row, accepted, says,
                                                         stored):
    client.force_login(staff)
    fixture = fixtures[which]
    answers = {}
    for channel in CHANNELS:
        with transaction.atomic():
            if channel == "form":
                answer = through_form(client, fixture, row)
            elif channel == "api":
                answer = through_api(staff, fixture, row)
            elif channel == "csv":
                answer = through_csv(fixture, row)
            else:
                answer = through_admin(client, fixture, row)
            result = Result.objects.filter(fixture=fixture).first()
            saved = None if result is None else (result.home_score, result.away_score, result.home_tries,
                                                 result.away_tries)
            transaction.set_rollback(True)  # every channel starts from the fixture without a result
        answers[channel] = (answer[0], " ".join(answer[1]), saved)
    texts = {channel: text for channel, (_ok, text, _saved) in answers.items()}
    assert all(ok == accepted for ok, _text, _saved in answers.values()), answers
    assert len(set(texts.values())) == 1, texts
    assert says in texts["form"], texts
    assert all(saved == stored for _ok, _text, saved in answers.values()), answers

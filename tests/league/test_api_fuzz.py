"""Property-based fuzzing of the whole REST API with schemathesis: bad input is never a 500 nor a lost write.

Every operation of the OpenAPI schema (served by drf-spectacular at ``/api/schema/``) is called through the
WSGI app, in process (no server), with requests that schemathesis derives from the schema: valid ones
("positive") and ones that break it ("negative": wrong types, missing fields, out-of-range numbers,
unknown properties). Half of the cases aim at rows that exist (a real tournament slug, fixture, entry,
pool, team, match), the rest at whatever ids schemathesis makes up. Each operation is fuzzed as an
anonymous caller, as a signed-in stranger and as the tournaments' organiser (token authentication).

For every response:
- it is not a server error (schemathesis's ``not_a_server_error``);
- its status is one the schema documents for the operation (``status_code_conformance``), with the documented
  content type (``content_type_conformance``), headers (``response_headers_conformance``) and body
  (``response_schema_conformance``);
- a refused request (4xx) changed nothing in the database (a digest of every league and match row is the
  same before and after).

Every failure of every case is collected, so one run reports them all; ``FUZZ_REPORT=path`` writes the figures
(operations, cases, failures) to a file.

Each case runs in a savepoint that is rolled back, so every case starts from the same realistic world.
Deterministic (``derandomize``); ``FUZZ_EXAMPLES`` sets the examples per operation, shared by the roles
(default 30: about 10 per role; ``FUZZ_EXAMPLES=300`` for a deeper local run).
"""

from __future__ import annotations

import json
import os
from datetime import date

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from django.test import override_settings
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from league import services
from league.models import Entry, Fixture, Pool, Tournament
from league.services import events as event_services
from league.services import fundraising, registrations
from league.services import tournament_create_from_preset as preset_run
from matches import services as match_services
from matches import simulation
from matches.models import QualificationOdds
from tests.league.api_factories import make_team, make_tournament
from tests.league.bad_input_helpers import StoredRows

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "30"))
ROLES = ("anonymous", "stranger", "organiser")
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance]
# Figures of the run, per operation: cases sent and failures found (FUZZ_REPORT writes them out).
TALLY: dict[str, dict] = {}
MD5_HASHER = "django.contrib.auth.hashers.MD5PasswordHasher"  # as tests/conftest.py's, for the module's users


@pytest.fixture(scope="module", autouse=True)
def _report():
    yield
    path = os.environ.get("FUZZ_REPORT")
    if path and TALLY:
        cases = sum(t["cases"] for t in TALLY.values())
        failures = sum(len(t["failures"]) for t in TALLY.values())
        lines = [f"schemathesis: {len(TALLY)} operations, {cases} cases, {failures} failures"]
        for name, t in sorted(TALLY.items()):
            for failure in t["failures"]:
                lines.append(f"  {name}: {failure}")
        with open(path, "a") as out:
            out.write("\n".join(lines) + "\n")


def _schema_operations() -> list[tuple[str, str]]:
    """(method, path) of every operation, read from drf-spectacular's generator at collection time."""
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.renderers import OpenApiJsonRenderer

    schema = json.loads(OpenApiJsonRenderer().render(SchemaGenerator().get_schema(request=None, public=True)))
    return sorted((method.upper(), path) for path, ops in schema["paths"].items() for method in ops
                  if method in {"get", "post", "put", "patch", "delete"})


OPERATIONS = _schema_operations()
_LOADED: dict[str, schemathesis.schemas.BaseSchema] = {}


def api_schema():
    """The schema as the site serves it (``/api/schema/``), loaded once through the WSGI app."""
    if "schema" not in _LOADED:
        _LOADED["schema"] = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
    return _LOADED["schema"]


@pytest.fixture
def _wsgi_in_test_transaction():
    """Calls through the raw WSGI handler must not close the test's connection (Django's test client does the same)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """The world of every operation's fuzzing, made once for the module (it cost each of the ~95 tests over half a
    second) in a transaction rolled back at the end. Each test runs in a savepoint of it, rolled back, as each case
    runs in one of the test's: every case still starts from this world as made."""
    with (django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=[MD5_HASHER]),
          transaction.atomic()):
        yield _world(get_user_model().objects.create_user(username="organiser", password="pw-organiser-1"))
        transaction.set_rollback(True)


def _world(organiser) -> dict:
    """A realistic league: pools with fixtures and results, a knockout, a Swiss, a solo challenge, a match."""
    stranger = get_user_model().objects.create_user(username="stranger", password="pw-stranger-1")
    cup = make_tournament("fuzz-cup", user=organiser, teams=("FRA", "NZL", "ITA", "URU", "IRE", "RSA", "SCO", "TGA"),
                          pools=2)
    played = list(Fixture.objects.filter(tournament=cup).order_by("round_number", "id")[:3])
    for index, fixture in enumerate(played):
        services.result_correct(fixture=fixture, home_score=24 + index, away_score=17, home_tries=3, away_tries=2,
                               user=organiser)
    knockout = preset_run("single_elimination", name="Fuzz KO", slug="fuzz-ko", teams=["ENG", "JPN", "ARG"],
                                  user=organiser, start_date=date(2027, 4, 3))
    swiss = preset_run("swiss", name="Fuzz Swiss", slug="fuzz-swiss", teams=["WAL", "AUS", "FIJ", "GEO"],
                               user=organiser, rounds=2)
    solo = preset_run("solo", name="Fuzz Solo", slug="fuzz-solo", teams=["POR", "SAM"], user=organiser)
    draft = make_tournament("fuzz-draft", user=organiser, teams=("ROU", "CHI"), status=Tournament.Status.DRAFT)
    others = make_tournament("fuzz-others", user=stranger, teams=("NAM", "ENG"))
    own_team = make_team("GCB", "Grey College", user=organiser)
    make_team("STR", "Stranger's XV", user=stranger)
    match = match_services.match_create_friendly(ruleset="rugby-league-cards", user=organiser, home="me",
                                                 away="computer:beginner", options={"sets_per_half": 1}, seed=3)
    state = match_services.match_state(match)
    match_services.match_submit_action(match=match, seat=0, ply=match.ply + 1, action=state.legal_actions(0)[0],
                                       user=organiser, held_seats={0})
    match.refresh_from_db()
    # A simulation run (never queued: its on_commit hook does not fire in a test transaction) and stored odds.
    simulation.simulation_start(tournament=cup, stage="pools", user=organiser, seed=1)
    QualificationOdds.objects.create(tournament=cup, version=cup.version, runs=10, model="fuzz",
                                     data={"runs": 10, "teams": []})
    tournaments = [cup, knockout, swiss, solo, draft, others]
    # An event with two divisions on shared pitches, its day scheduled; a draft event; a stranger's event.
    festival = event_services.event_create(name="Fuzz festival", slug="fuzz-festival", user=organiser,
                                           day=date(2027, 4, 3), pitches=["P1", "P2"], status="in_progress")
    event_services.division_add(event=festival, tournament=swiss, user=organiser)
    event_services.division_add(event=festival, tournament=solo, user=organiser)
    event_services.event_schedule(event=festival, user=organiser)
    # Players registered for the festival (one approved, one a minor, one waiting) and a nation draw.
    registrations.registration_settings_save(event=festival, user=organiser, registration_open=True,
                                             registration_cap=2)
    players = [registrations.registration_create(event=festival, first_name=name, surname="Fuzz", minor=minor,
                                                 show_name=True) for name, minor in (("Ann", False), ("Ben", True),
                                                                                     ("Cat", False))]
    registrations.registration_approve(registration=players[0], user=organiser)
    nation_draw = registrations.nations_draw(event=festival, division=swiss.division, method="random",
                                             cards=[make_team("FZA", "Fuzz Academy", user=organiser)], seed=1,
                                             user=organiser)
    event_services.event_create(name="Fuzz draft day", slug="fuzz-draft-day", user=organiser)
    # The festival's money: the approved player's fee, a donation and a per-try pledge for them.
    player = players[0]
    fundraising.entry_fee_set(event=festival, registration=player.pk, amount="20", paid=True, method="cash")
    donation = fundraising.donation_create(event=festival, donor_name="Gran", amount="15", registration=player.pk)
    pledge = fundraising.pledge_create(event=festival, sponsor_name="Bakery", rate="2.50", registration=player.pk)
    event_services.event_create(name="Their day", slug="fuzz-their-day", user=stranger, status="in_progress")
    fixtures = Fixture.objects.filter(tournament__in=tournaments)
    return {
        "headers": {
            "anonymous": {},
            "stranger": {"Authorization": f"Token {Token.objects.create(user=stranger).key}"},
            "organiser": {"Authorization": f"Token {Token.objects.create(user=organiser).key}"},
        },
        # Real rows for each kind of path parameter, by the path's first segment.
        "known": {
            "tournaments": {"slug": [t.slug for t in tournaments]},
            "teams": {"code": ["FRA", "fra", own_team.code, "STR"]},
            "entries": {"id": list(Entry.objects.filter(tournament__in=tournaments).values_list("pk", flat=True))},
            "pools": {"id": list(Pool.objects.filter(tournament__in=tournaments).values_list("pk", flat=True))},
            "fixtures": {"id": [f.pk for f in played] + list(fixtures.values_list("pk", flat=True))},
            "matches": {"id": [match.pk], "n": [0, 1, match.ply, match.ply + 1]},
            "events": {"slug": ["fuzz-festival", "fuzz-draft-day", "fuzz-their-day"],
                       "division": ["fuzz-swiss", "fuzz-solo", "fuzz-cup"],
                       "id": [p.pk for p in players] + [nation_draw.pk, donation.pk, pledge.pk],
                       "registration": [player.pk]},
        },
    }


def _case_strategy(operation, known: dict):
    """Cases with made-up path parameters and cases aimed at real rows, positive and negative."""
    segment = operation.path.split("/")[2]
    names = [p.name for p in operation.path_parameters]
    strategies = [operation.as_strategy(GenerationMode.POSITIVE), operation.as_strategy(GenerationMode.NEGATIVE)]
    if names and all(name in known.get(segment, {}) for name in names):
        real = st.fixed_dictionaries({name: st.sampled_from(known[segment][name]) for name in names})
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            strategies.append(real.flatmap(lambda params, mode=mode: operation.as_strategy(mode,
                                                                                             path_parameters=params)))
    return st.one_of(strategies)


FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES, derandomize=True, deadline=None, database=None, print_blob=False,
    phases=[Phase.explicit, Phase.generate, Phase.shrink],
    suppress_health_check=list(HealthCheck),
)


def roles_for(method: str) -> list[str]:
    """Reads are fuzzed anonymously and as the organiser; writes also as a signed-in stranger (the 403s)."""
    return [role for role in ROLES if method != "GET" or role != "stranger"]


@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_api_operation_answers_bad_input_without_a_500(world, _wsgi_in_test_transaction, method, path):
    operation = api_schema()[path][method]
    # Every case is rolled back, so the world each one starts from is this one.
    stored = StoredRows()
    statuses: list[int] = []
    failures: list[str] = []
    TALLY[f"{method} {path}"] = {"cases": 0, "failures": failures}

    @FUZZ_SETTINGS
    @given(role=st.sampled_from(roles_for(method)), case=_case_strategy(operation, world["known"]))
    def fuzz(role, case):
        headers = world["headers"][role]
        cache.clear()  # throttles and cached pages start afresh, as the database does
        with transaction.atomic():
            stored.watch()
            response = case.call(headers=headers)
            statuses.append(response.status_code)
            TALLY[f"{method} {path}"]["cases"] += 1
            try:
                case.validate_response(response, checks=CHECKS, headers=headers)
            except (Exception, BaseExceptionGroup) as exc:  # a FailureGroup: report them all at the end
                text = " ".join(str(exc).split())[:300]
                failures.append(f"as {role}, {response.status_code}: {text}")
            if response.status_code >= 400 and not stored.same():
                failures.append(f"as {role}: answered {response.status_code} but changed stored rows")
            transaction.set_rollback(True)

    fuzz()
    assert failures == [], "\n".join(failures[:20])
    # The cases aimed at real rows got past the lookup: the fuzzing reached the views' own checks.
    assert any(code != 404 for code in statuses), statuses

"""Django admin: every league model is there, an organiser who is staff sees and edits only their own
tournaments, results go through the service (audit trail, score checks), the audit trail is read-only."""

from __future__ import annotations

import json

import pytest
from django import forms
from django.contrib import admin as django_admin
from django.urls import reverse

from league import services
from league.models import Entry, Fixture, Pool, Result, ResultChange, Team, Tournament
from tests.league.api_factories import make_team, make_tournament

pytestmark = pytest.mark.django_db

LEAGUE_MODELS = [Team, Tournament, Pool, Entry, Fixture, Result, ResultChange]


@pytest.fixture
def staff_organiser(organiser):
    organiser.is_staff = True
    organiser.save()
    return organiser


@pytest.fixture
def rival(django_user_model):
    return django_user_model.objects.create_user(username="rival", password="pw-rival-1", is_staff=True)


@pytest.fixture
def superuser(django_user_model):
    return django_user_model.objects.create_superuser(username="boss", password="pw-boss-1")


@pytest.fixture
def two_cups(staff_organiser, rival):
    mine = make_tournament("mine", user=staff_organiser)
    theirs = make_tournament("theirs", user=rival, teams=("IRE", "RSA", "SCO", "TGA"))
    fixture = Fixture.objects.filter(tournament=theirs).first()
    services.result_record(fixture=fixture, home_score=10, away_score=5, home_tries=2, away_tries=1, user=rival)
    return mine, theirs


def url(model, action="changelist", *args):
    return reverse(f"admin:league_{model._meta.model_name}_{action}", args=args)


def form_data(response) -> dict:
    """The POST data of an admin change form as rendered (main form, inline formsets and their management forms)."""
    data = {}

    def add_form(form):
        for name, field in form.fields.items():
            value = form[name].value()
            key = form.add_prefix(name)
            if value is None:
                continue
            if isinstance(value, list | tuple):
                data[key] = [str(v) for v in value]
            elif isinstance(value, bool):
                if value:
                    data[key] = "on"
            elif isinstance(field.widget, forms.SplitDateTimeWidget):
                local = field.widget.decompress(value)
                data[f"{key}_0"], data[f"{key}_1"] = (str(local[0] or ""), str(local[1] or ""))
            else:
                data[key] = json.dumps(value) if isinstance(value, dict) else str(value)

    add_form(response.context["adminform"].form)
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        add_form(formset.management_form)
        for form in formset.forms:
            add_form(form)
    return data


def test_every_league_model_is_registered():
    for model in LEAGUE_MODELS:
        assert django_admin.site.is_registered(model), model


def test_superuser_pages_load(client, superuser, two_cups):
    client.force_login(superuser)
    mine, _ = two_cups
    fixture = Fixture.objects.filter(tournament=mine).first()
    for model in LEAGUE_MODELS:
        response = client.get(url(model))
        assert response.status_code == 200, model
    for model in (Team, Tournament, Pool, Entry, Fixture):
        assert client.get(url(model, "add")).status_code == 200, model
    assert client.get(url(Tournament, "change", mine.pk)).status_code == 200
    assert client.get(url(Fixture, "change", fixture.pk)).status_code == 200
    assert client.get(url(Pool, "change", mine.pools.first().pk)).status_code == 200
    assert client.get(url(Team, "changelist") + "?q=fra").status_code == 200


def test_organiser_sees_only_their_tournaments(client, staff_organiser, two_cups):
    mine, theirs = two_cups
    client.force_login(staff_organiser)
    listed = client.get(url(Tournament)).context["cl"].result_list
    assert list(listed) == [mine]
    fixtures = client.get(url(Fixture)).context["cl"].result_list
    assert {f.tournament_id for f in fixtures} == {mine.pk}
    assert {e.tournament_id for e in client.get(url(Entry)).context["cl"].result_list} == {mine.pk}
    assert {p.tournament_id for p in client.get(url(Pool)).context["cl"].result_list} == {mine.pk}
    assert list(client.get(url(Result)).context["cl"].result_list) == []
    assert list(client.get(url(ResultChange)).context["cl"].result_list) == []
    # Another organiser's tournament is "not found" in the admin (redirect to the index with a message).
    response = client.get(url(Tournament, "change", theirs.pk))
    assert response.status_code == 302
    their_fixture = Fixture.objects.filter(tournament=theirs).first()
    assert client.get(url(Fixture, "change", their_fixture.pk)).status_code == 302
    # The filter sidebar names only their own tournament.
    html = client.get(url(Fixture)).content.decode()
    assert "Cup theirs" not in html and "Cup mine" in html


def test_non_staff_cannot_use_the_admin(client, organiser):
    make_tournament("plain", user=organiser)
    client.force_login(organiser)  # organises a tournament, but is not staff
    response = client.get(url(Tournament))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_organiser_adds_a_tournament_and_becomes_its_organiser(client, staff_organiser):
    client.force_login(staff_organiser)
    page = client.get(url(Tournament, "add"))
    assert page.status_code == 200
    data = form_data(page)
    data.update({"name": "Sevens Festival", "slug": "sevens", "status": "draft", "visibility": "public"})
    response = client.post(url(Tournament, "add"), data)
    assert response.status_code == 302, response.context["adminform"].form.errors if response.context else ""
    tournament = Tournament.objects.get(slug="sevens")
    assert list(tournament.organisers.all()) == [staff_organiser]


def test_organiser_edits_entries_inline(client, staff_organiser, two_cups):
    mine, _ = two_cups
    client.force_login(staff_organiser)
    page = client.get(url(Tournament, "change", mine.pk))
    data = form_data(page)
    entry = Entry.objects.get(tournament=mine, team__code="FRA")
    prefix = next(key for key, value in data.items()
                  if key.startswith("entries-") and key.endswith("-id") and value == str(entry.pk))[:-3]
    data[f"{prefix}-player_name"] = "Siya"
    response = client.post(url(Tournament, "change", mine.pk), data)
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.player_name == "Siya"
    # The pool choices offered in the entries inline are this tournament's only.
    pool_field = page.context["inline_admin_formsets"][1].formset.forms[0].fields["pool"]
    assert {p.tournament_id for p in pool_field.queryset} == {mine.pk}


def test_result_entered_in_the_admin_goes_through_the_service(client, staff_organiser, two_cups):
    mine, _ = two_cups
    fixture = Fixture.objects.filter(tournament=mine).order_by("id").first()
    client.force_login(staff_organiser)
    change_url = url(Fixture, "change", fixture.pk)
    data = form_data(client.get(change_url))
    data.update({"result-0-home_score": "24", "result-0-away_score": "20", "result-0-home_tries": "4",
                 "result-0-away_tries": "2", "result-0-kind": "played", "result-0-reason": "from the sheet"})
    response = client.post(change_url, data)
    assert response.status_code == 302
    result = Result.objects.get(fixture=fixture)
    assert (result.home_score, result.away_score, result.entered_by) == (24, 20, staff_organiser)
    change = ResultChange.objects.get(fixture=fixture)
    assert (change.action, change.reason, change.changed_by) == ("created", "from the sheet", staff_organiser)
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED

    # A correction: audited as an update.
    data = form_data(client.get(change_url))
    data["result-0-away_score"] = "27"
    data["result-0-away_tries"] = "3"
    assert client.post(change_url, data).status_code == 302
    assert list(ResultChange.objects.filter(fixture=fixture).values_list("action", flat=True)) == [
        "created", "updated"]


def test_impossible_result_in_the_admin_is_a_form_error(client, staff_organiser, two_cups):
    mine, _ = two_cups
    fixture = Fixture.objects.filter(tournament=mine).order_by("id").first()
    client.force_login(staff_organiser)
    change_url = url(Fixture, "change", fixture.pk)
    data = form_data(client.get(change_url))
    data.update({"result-0-home_score": "3", "result-0-away_score": "0", "result-0-home_tries": "2",
                 "result-0-away_tries": "0", "result-0-kind": "played"})
    response = client.post(change_url, data)
    assert response.status_code == 200  # the form again, with the message
    assert "2 tries are worth at least 10 points" in response.content.decode()
    assert not Result.objects.filter(fixture=fixture).exists()
    assert not ResultChange.objects.filter(fixture=fixture).exists()


def test_result_deleted_in_the_admin_is_audited(client, staff_organiser, two_cups):
    mine, _ = two_cups
    fixture = Fixture.objects.filter(tournament=mine).order_by("id").first()
    services.result_record(fixture=fixture, home_score=7, away_score=0, home_tries=1, user=staff_organiser)
    client.force_login(staff_organiser)
    change_url = url(Fixture, "change", fixture.pk)
    data = form_data(client.get(change_url))
    data["result-0-DELETE"] = "on"
    assert client.post(change_url, data).status_code == 302
    assert not Result.objects.filter(fixture=fixture).exists()
    assert list(ResultChange.objects.filter(fixture=fixture).values_list("action", flat=True)) == [
        "created", "deleted"]


def test_audit_trail_is_read_only(client, superuser, two_cups):
    _, theirs = two_cups
    change = ResultChange.objects.filter(fixture__tournament=theirs).first()
    client.force_login(superuser)
    assert client.get(url(ResultChange, "add")).status_code == 403
    page = client.get(url(ResultChange, "change", change.pk))
    assert page.status_code == 200 and b'name="_save"' not in page.content
    assert client.post(url(ResultChange, "change", change.pk), {"reason": "rewritten"}).status_code == 403
    assert client.post(url(ResultChange, "delete", change.pk), {"post": "yes"}).status_code == 403
    change.refresh_from_db()
    assert change.reason == ""
    # Results themselves are changed on the fixture's page only.
    result = Result.objects.filter(fixture__tournament=theirs).first()
    assert client.post(url(Result, "change", result.pk), {"home_score": 99}).status_code == 403


def test_organiser_changes_only_their_own_teams(client, staff_organiser, rival):
    own = make_team("GCB", user=staff_organiser)
    other = make_team("PBH", user=rival)
    client.force_login(staff_organiser)
    assert client.get(url(Team)).status_code == 200
    page = client.get(url(Team, "change", own.pk))
    assert b'name="_save"' in page.content
    assert b'name="_save"' not in client.get(url(Team, "change", other.pk)).content
    nation = Team.objects.get(code="FRA")
    assert client.post(url(Team, "change", nation.pk), {"name": "Gaul", "code": "FRA"}).status_code == 403
    data = {"name": "Grey College", "code": "GCH", "primary_colour": "#002147", "secondary_colour": "#FFFFFF"}
    assert client.post(url(Team, "add"), data).status_code == 302
    assert Team.objects.get(code="GCH").created_by == staff_organiser


def test_changelists_run_a_fixed_number_of_queries(client, superuser, staff_organiser,
                                                   django_assert_max_num_queries):
    client.force_login(superuser)
    make_tournament("one", user=staff_organiser)
    bounds = {}
    for model in LEAGUE_MODELS:
        with django_assert_max_num_queries(14) as captured:
            assert client.get(url(model)).status_code == 200
        bounds[model] = len(captured)
    for index in range(4):
        tournament = make_tournament(f"more-{index}", user=staff_organiser, teams=("IRE", "RSA", "SCO", "TGA", "ROU"))
        for fixture in Fixture.objects.filter(tournament=tournament)[:4]:
            services.result_record(fixture=fixture, home_score=12, away_score=7, home_tries=2, away_tries=1)
    for model in LEAGUE_MODELS:
        with django_assert_max_num_queries(14):
            assert client.get(url(model)).status_code == 200


def test_a_tournament_with_fixtures_and_results_can_be_deleted(client, staff_organiser, two_cups):
    mine, theirs = two_cups
    client.force_login(staff_organiser)
    page = client.get(url(Tournament, "delete", mine.pk))
    assert page.status_code == 200 and not page.context["protected"]
    services.result_record(fixture=Fixture.objects.filter(tournament=mine).first(), home_score=10, away_score=10,
                           home_tries=2, away_tries=2)
    assert client.post(url(Tournament, "delete", mine.pk), {"post": "yes"}).status_code == 302
    assert not Tournament.objects.filter(pk=mine.pk).exists()
    assert not Fixture.objects.filter(tournament_id=mine.pk).exists()
    # Not another organiser's.
    assert client.post(url(Tournament, "delete", theirs.pk), {"post": "yes"}).status_code == 302
    assert Tournament.objects.filter(pk=theirs.pk).exists()


def test_an_entry_with_fixtures_cannot_be_deleted_alone(client, staff_organiser, two_cups):
    mine, _ = two_cups
    entry = Entry.objects.filter(tournament=mine).first()
    client.force_login(staff_organiser)
    page = client.get(url(Entry, "delete", entry.pk))
    assert page.status_code == 200 and page.context["protected"]  # the admin lists the fixtures in the way
    assert Entry.objects.filter(pk=entry.pk).exists()


def test_deleting_a_fixture_refreshes_the_public_pages(client, staff_organiser, two_cups):
    mine, _ = two_cups
    fixture = Fixture.objects.filter(tournament=mine).first()
    services.result_record(fixture=fixture, home_score=10, away_score=3, home_tries=2, away_tries=0)
    mine.refresh_from_db()
    version = mine.version
    client.force_login(staff_organiser)
    assert client.post(url(Fixture, "delete", fixture.pk), {"post": "yes"}).status_code == 302
    mine.refresh_from_db()
    assert mine.version > version
    assert not Result.objects.filter(fixture_id=fixture.pk).exists()


def test_results_import_in_the_admin(client, staff_organiser, two_cups):
    from django.core.files.uploadedfile import SimpleUploadedFile

    mine, theirs = two_cups
    fixture = Fixture.objects.filter(tournament=mine).order_by("id").first()
    home, away = fixture.home.team.code, fixture.away.team.code
    client.force_login(staff_organiser)
    change_page = client.get(url(Tournament, "change", mine.pk)).content.decode()
    import_url = reverse("admin:league_tournament_import_results", args=[mine.pk])
    assert import_url in change_page
    assert client.get(import_url).status_code == 200
    bad = SimpleUploadedFile("r.csv", f"A,1,,{home},{away},3,0,2,0\nA,1,,{home},NOPE,5,0,1,0\n".encode())
    response = client.post(import_url, {"file": bad})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Line 1" in page and "Line 2" in page
    assert not Result.objects.filter(fixture=fixture).exists()
    good = SimpleUploadedFile("r.csv", f"A,1,,{home},{away},12,5,2,1\n".encode())
    assert client.post(import_url, {"file": good}).status_code == 302
    assert Result.objects.get(fixture=fixture).home_score == 12
    # Not into another organiser's tournament.
    other = reverse("admin:league_tournament_import_results", args=[theirs.pk])
    assert client.get(other).status_code == 302


def test_tournament_actions_publish_and_hide(client, staff_organiser, two_cups):
    mine, theirs = two_cups
    Tournament.objects.filter(pk=mine.pk).update(status=Tournament.Status.DRAFT)
    client.force_login(staff_organiser)
    response = client.post(url(Tournament), {"action": "publish", "_selected_action": [mine.pk, theirs.pk]})
    assert response.status_code == 302
    mine.refresh_from_db()
    assert mine.status == Tournament.Status.IN_PROGRESS
    client.post(url(Tournament), {"action": "make_unlisted", "_selected_action": [mine.pk, theirs.pk]})
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert mine.visibility == "unlisted" and theirs.visibility == "public"  # only their own


@pytest.mark.parametrize("page, bound", [("tournament", 18), ("pool", 11), ("fixture", 22)])
def test_change_pages_run_a_fixed_number_of_queries(client, staff_organiser, django_assert_max_num_queries,
                                                    page, bound):
    from league.services import tournament_create_from_preset as preset_run

    small = make_tournament("small", user=staff_organiser, teams=("FRA", "NZL", "ITA"))
    large = preset_run("rwc2023", name="RWC", slug="rwc", user=staff_organiser)  # 20 entries, 4 pools, 40 fixtures
    client.force_login(staff_organiser)
    for tournament in (small, large):
        obj = {"tournament": tournament, "pool": tournament.pools.order_by("order").first(),
               "fixture": Fixture.objects.filter(tournament=tournament, pool__isnull=False).first()}[page]
        with django_assert_max_num_queries(bound):
            assert client.get(url(type(obj), "change", obj.pk)).status_code == 200

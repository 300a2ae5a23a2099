"""The money and prize-giving of an event on the web and the API: the organisers' money page and CSV, the public
total, thank-you list, prize-giving, big screen and certificates; permissions (money details 401/403 for
non-organisers, drafts 404); no contact and no minor's surname in any public response; bad input never a 500
and never stored; fixed query counts whatever the data size."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from league.models import AuditRecord, Donation, EntryFee, Pledge, Registration, Tournament
from league.services import fundraising
from tests.league.test_fundraising import make_evening, play, player_on

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def evening(organiser):
    return make_evening(organiser)


@pytest.fixture
def stranger(django_user_model):
    return django_user_model.objects.create_user(username="stranger", password="pw-stranger-1")


def api(user=None):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def fill(event, cup, players, organiser):
    """Fees, a donation for the minor, two per-try pledges, results."""
    fundraising.event_money_update(event=event, user=organiser, fundraising_goal="1000", entry_fee="50")
    for reg in players:
        fundraising.entry_fee_set(event=event, registration=reg.pk, paid=True, method="cash")
    ben = next(p for p in players if p.minor)
    fundraising.donation_create(event=event, donor_name="Gran", amount="25", registration=ben.pk, message="Go Ben")
    fundraising.donation_create(event=event, donor_name="Quiet Giver", amount="40", anonymous=True)
    fundraising.pledge_create(event=event, sponsor_name="Bakery", rate="10", registration=ben.pk)
    fundraising.pledge_create(event=event, sponsor_name="Garage", rate="5", entry=player_on(players, "FRA").entry_id)
    play(cup, "FRA", 21, 3, "IRE", 14, 2)


def test_organiser_records_money_on_the_web_and_the_public_total_follows(client, organiser, evening):
    event, cup, players = evening
    client.force_login(organiser)
    page = client.post("/e/evening/manage/money/", {"action": "settings", "money-currency": "NZD",
                                                     "money-fundraising_goal": "500", "money-entry_fee": "20"})
    assert page.status_code == 302
    anna = player_on(players, "FRA")
    page = client.post("/e/evening/manage/money/", {"action": "fee", "fee-registration": anna.pk,
                                                     "fee-method": "card"})
    assert page.status_code == 302
    assert EntryFee.objects.get(registration=anna).amount == Decimal("20.00")
    page = client.post("/e/evening/manage/money/", {"action": "pledge", "pledge-sponsor_name": "Bakery",
                                                     "pledge-basis": "try", "pledge-rate": "7.50",
                                                     "pledge-target": f"r{anna.pk}"})
    assert page.status_code == 302
    page = client.post("/e/evening/manage/money/", {"action": "donation", "donation-donor_name": "Gran",
                                                     "donation-amount": "12.345"})
    assert page.status_code == 200 and "decimal places" in page.content.decode()  # a form error, not stored
    assert not Donation.objects.exists()
    play(cup, "FRA", 21, 3, "IRE", 14, 2)
    html = client.get("/e/evening/manage/money/").content.decode()
    assert "NZ$22.50" in html and "NZ$42.50" in html  # 3 tries x 7.50; raised: fee 20 + 22.50
    public = Client().get("/e/evening/").content.decode()
    assert "NZ$42.50" in public and "NZ$500.00" in public
    csv = client.get("/e/evening/manage/money.csv")
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")
    assert "pledge,Bakery," in csv.content.decode()


def test_money_pages_are_for_organisers_only(client, organiser, stranger, evening):
    assert client.get("/e/evening/manage/money/").status_code == 302  # sign in first
    client.force_login(stranger)
    assert client.get("/e/evening/manage/money/").status_code == 403
    assert client.get("/e/evening/manage/money.csv").status_code == 403
    assert client.post("/e/evening/manage/money/", {"action": "donation", "donation-donor_name": "X",
                                                     "donation-amount": "5"}).status_code == 403
    assert not Donation.objects.exists()


def test_deleting_a_donation_or_a_pledge_asks_for_confirmation_and_is_audited(client, organiser, stranger, evening):
    event, cup, players = evening
    fill(event, cup, players, organiser)
    donation = Donation.objects.get(donor_name="Gran")
    pledge = Pledge.objects.get(sponsor_name="Garage")
    client.force_login(organiser)
    money = client.get("/e/evening/manage/money/").content.decode()
    donation_url = f"/e/evening/manage/money/donations/{donation.pk}/delete/"
    pledge_url = f"/e/evening/manage/money/pledges/{pledge.pk}/delete/"
    assert f'href="{donation_url}"' in money and f'href="{pledge_url}"' in money
    # The money page's own form no longer deletes anything without the confirmation.
    client.post("/e/evening/manage/money/", {"action": "donation_delete", "id": donation.pk})
    assert Donation.objects.filter(pk=donation.pk).exists()
    page = client.get(donation_url)
    assert page.status_code == 200 and "Gran" in page.content.decode() and 'name="confirm"' in page.content.decode()
    unconfirmed = client.post(donation_url, {})
    assert unconfirmed.status_code == 200 and Donation.objects.filter(pk=donation.pk).exists()
    done = client.post(donation_url, {"confirm": "on"})
    assert done.status_code == 302 and done["Location"] == "/e/evening/manage/money/"
    assert not Donation.objects.filter(pk=donation.pk).exists()
    page = client.get(pledge_url)
    assert page.status_code == 200 and "Garage" in page.content.decode()
    assert client.post(pledge_url, {"confirm": "on"}).status_code == 302
    assert not Pledge.objects.filter(pk=pledge.pk).exists()
    assert client.get(pledge_url).status_code == 404
    deleted = AuditRecord.objects.filter(event=event, new__isnull=True).exclude(old__isnull=True)
    trail = " ".join(str(r.old) for r in deleted)
    assert "Gran" in trail and "Garage" in trail and all(r.changed_by == organiser for r in deleted)
    other = Client()
    other.force_login(stranger)
    pledge = Pledge.objects.get(sponsor_name="Bakery")
    assert other.get(f"/e/evening/manage/money/pledges/{pledge.pk}/delete/").status_code == 403
    assert other.post(f"/e/evening/manage/money/pledges/{pledge.pk}/delete/", {"confirm": "on"}).status_code == 403
    assert Client().post(f"/e/evening/manage/money/pledges/{pledge.pk}/delete/", {"confirm": "on"}
                         ).status_code == 302
    assert Pledge.objects.filter(pk=pledge.pk).exists()


def test_money_api_permissions_and_crud(organiser, stranger, evening):
    event, cup, players = evening
    for url in ("/api/events/evening/fees/", "/api/events/evening/donations/", "/api/events/evening/pledges/",
                "/api/events/evening/money/details/"):
        assert api().get(url).status_code == 401
        assert api(stranger).get(url).status_code == 403
        assert api(organiser).get(url).status_code == 200
    assert api(stranger).post("/api/events/evening/donations/", {"donor_name": "X", "amount": "5"},
                              format="json").status_code == 403
    assert api().get("/api/events/evening/money/").json() == {"currency": "ZAR", "raised": "0.00", "goal": None,
                                                              "percent": None}
    owner = api(organiser)
    made = owner.post("/api/events/evening/donations/", {"donor_name": "Gran", "amount": "10.10"}, format="json")
    assert made.status_code == 201 and made.json()["amount"] == "10.10"
    donation_id = made.json()["id"]
    changed = owner.patch(f"/api/events/evening/donations/{donation_id}/", {"amount": "11"}, format="json")
    assert changed.status_code == 200 and changed.json()["amount"] == "11.00"
    anna = player_on(players, "FRA")
    pledge = owner.post("/api/events/evening/pledges/", {"sponsor_name": "Bakery", "basis": "try", "rate": "2.5",
                                                          "registration": anna.pk}, format="json")
    assert pledge.status_code == 201
    play(cup, "FRA", 21, 3, "IRE", 14, 2)
    listed = owner.get("/api/events/evening/pledges/").json()
    assert listed[0]["count"] == 3 and listed[0]["amount"] == "7.50"
    fee = owner.put(f"/api/events/evening/fees/{anna.pk}/", {"amount": "30", "paid": True, "method": "transfer"},
                    format="json")
    assert fee.status_code == 200 and fee.json()["paid"] is True
    assert owner.patch("/api/events/evening/money/", {"fundraising_goal": "100"}, format="json").json()[
        "raised"] == "48.50"  # 11 + 7.50 + 30
    assert api().get("/api/events/evening/money/").json()["percent"] == 48
    assert owner.delete(f"/api/events/evening/donations/{donation_id}/").status_code == 204
    assert owner.delete(f"/api/events/evening/pledges/{pledge.json()['id']}/").status_code == 204
    assert owner.delete(f"/api/events/evening/fees/{anna.pk}/").status_code == 204
    assert api().get("/api/events/evening/money/").json()["raised"] == "0.00"


@pytest.mark.parametrize("url, body", [
    ("/api/events/evening/donations/", {"donor_name": "Gran", "amount": "1.234"}),
    ("/api/events/evening/donations/", {"donor_name": "Gran", "amount": "-1"}),
    ("/api/events/evening/donations/", {"donor_name": "Gran", "amount": "0"}),
    ("/api/events/evening/donations/", {"donor_name": "", "amount": "1"}),
    ("/api/events/evening/donations/", {"donor_name": "Gran", "amount": "1", "registration": 999999}),
    ("/api/events/evening/pledges/", {"sponsor_name": "X", "rate": "1"}),
    ("/api/events/evening/pledges/", {"sponsor_name": "X", "rate": "1", "basis": "kick", "entry": 1}),
    ("/api/events/evening/pledges/", {"sponsor_name": "X", "rate": "1", "entry": 999999}),
])
def test_bad_money_input_is_refused_and_stores_nothing(organiser, evening, url, body):
    response = api(organiser).post(url, body, format="json")
    assert response.status_code in (400, 404)
    assert not Donation.objects.exists() and not Pledge.objects.exists()


def test_a_draft_events_money_is_hidden(organiser, stranger, evening):
    event = evening[0]
    from league.services import events as event_services
    event_services.event_update(event=event, status=Tournament.Status.DRAFT, user=organiser)
    assert api().get("/api/events/evening/money/").status_code == 404
    assert api(stranger).get("/api/events/evening/awards/").status_code == 404
    assert api(stranger).get("/api/events/evening/donations/").status_code == 404
    assert Client().get("/e/evening/prizes/").status_code == 404


def test_no_contact_nor_minor_surname_in_any_public_response(organiser, evening):
    event, cup, players = evening
    fill(event, cup, players, organiser)
    for reg in players:
        assert reg.contact and "@" in reg.contact
    urls = ["/e/evening/", "/e/evening/screen/", "/e/evening/thanks/", "/e/evening/prizes/",
            "/e/evening/prizes/screen/", "/e/evening/prizes/certificates/", "/api/events/evening/money/",
            "/api/events/evening/awards/", "/api/events/evening/thanks/"]
    for url in urls:
        response = Client().get(url)
        assert response.status_code == 200, url
        text = response.content.decode()
        assert "Coetzee" not in text, url  # Ben is a minor
        assert "Du Toit" not in text, url  # Cara did not consent to her name being shown
        assert "@example.org" not in text, url
        assert "Quiet Giver" not in text, url  # an anonymous donor
    prizes = Client().get("/e/evening/prizes/").content.decode()
    assert "Ben C." in prizes  # the top fundraiser: 25 donated + 10 pledged per try, his side
    thanks = Client().get("/e/evening/thanks/").content.decode()
    assert "Gran" in thanks and "Anonymous" in thanks and "Bakery" in thanks


def test_prize_giving_pages_and_certificates(organiser, evening):
    event, cup, players = evening
    fill(event, cup, players, organiser)
    page = Client().get("/e/evening/prizes/").content.decode()
    assert "Most tries" in page and "Top fundraiser" in page
    assert "Biggest comeback is not awarded: no match was scored live" in page
    screen = Client().get("/e/evening/prizes/screen/").content.decode()
    assert screen.count('class="slide award"') >= 4
    one = Client().get("/e/evening/prizes/certificates/?n=1")
    assert one.status_code == 200 and one.content.decode().count('class="certificate"') == 1
    assert Client().get("/e/evening/prizes/certificates/?n=99").status_code == 404
    assert Client().get("/e/evening/prizes/certificates/?n=x").status_code == 404


def _bigger_evening(organiser):
    event, cup, players = make_evening(organiser, slug="big", nations=("ENG", "WAL", "SCO", "ITA", "ARG", "JPN",
                                                                       "FIJ", "SAM"))
    for index, reg in enumerate(Registration.objects.filter(event=event)):
        fundraising.entry_fee_set(event=event, registration=reg.pk, amount="10", paid=True, method="cash")
        fundraising.donation_create(event=event, donor_name=f"Donor {index}", amount="5", registration=reg.pk)
    entries = list(cup.entries.all())
    for index, entry in enumerate(entries):
        fundraising.pledge_create(event=event, sponsor_name=f"Sponsor {index}", rate="1", entry=entry.pk)
        fundraising.pledge_create(event=event, sponsor_name=f"Win {index}", rate="3", basis="win", entry=entry.pk)
    from league.models import Fixture
    from league.services import result_record
    for fixture in Fixture.objects.filter(tournament=cup)[:12]:
        result_record(fixture=fixture, home_score=12, away_score=5, home_tries=2, away_tries=1)
    return event


def test_public_money_awards_and_prizes_run_a_fixed_number_of_queries(organiser, evening,
                                                                        django_assert_max_num_queries):
    small = evening[0]
    fill(small, evening[1], evening[2], organiser)
    big = _bigger_evening(organiser)
    for event in (small, big):
        cache.clear()
        with django_assert_max_num_queries(5):
            assert api().get(f"/api/events/{event.slug}/money/").status_code == 200
        with django_assert_max_num_queries(16):  # one division: its honours, then the event's awards
            assert api().get(f"/api/events/{event.slug}/awards/").status_code == 200
        with django_assert_max_num_queries(16):
            assert Client().get(f"/e/{event.slug}/prizes/", HTTP_COOKIE="sessionid=x").status_code == 200
        with django_assert_max_num_queries(4):
            assert api(organiser).get(f"/api/events/{event.slug}/pledges/").status_code == 200
        with django_assert_max_num_queries(3):
            assert api(organiser).get(f"/api/events/{event.slug}/donations/").status_code == 200
        with django_assert_max_num_queries(3):
            assert api(organiser).get(f"/api/events/{event.slug}/fees/").status_code == 200
        with django_assert_max_num_queries(16):  # cold: the divisions' parts and the money box are built
            assert Client().get(f"/e/{event.slug}/", HTTP_COOKIE="sessionid=x").status_code == 200
        with django_assert_max_num_queries(5):  # warm: the money box comes from the cache too
            assert Client().get(f"/e/{event.slug}/", HTTP_COOKIE="sessionid=x").status_code == 200
        money_page = Client()
        money_page.force_login(organiser)
        with django_assert_max_num_queries(30):
            assert money_page.get(f"/e/{event.slug}/manage/money/").status_code == 200

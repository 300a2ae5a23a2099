"""The admin of an event's registrations, nation draws and money: every change goes through the services that
the players and money pages use (the same checks and messages, the registration log, the money's audit trail),
a refused change stores nothing, nation draws are read-only, and a staff user sees only the events they
organise."""

from __future__ import annotations

import pytest

from league.models import (
    AuditRecord,
    Donation,
    EntryFee,
    NationDraw,
    Pledge,
    Registration,
    RegistrationChange,
    Team,
)
from league.services import fundraising
from league.services import registrations as reg_services
from tests.league.test_admin import form_data, url
from tests.league.test_fundraising import make_evening, player_on

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_organiser(organiser):
    organiser.is_staff = True
    organiser.save()
    return organiser


@pytest.fixture
def evening(staff_organiser):
    return make_evening(staff_organiser)


def test_event_models_are_registered_and_their_pages_load(client, staff_organiser, evening):
    event, cup, players = evening
    fundraising.donation_create(event=event, donor_name="Gran", amount="25")
    client.force_login(staff_organiser)
    for model in (Registration, NationDraw, EntryFee, Donation, Pledge):
        assert client.get(url(model)).status_code == 200, model
    assert client.get(url(Registration, "change", players[0].pk)).status_code == 200
    assert client.get(url(Donation, "add")).status_code == 200


def test_a_donation_added_changed_and_deleted_in_the_admin_is_audited_and_bad_amounts_are_refused(
        client, staff_organiser, evening):
    event, cup, players = evening
    client.force_login(staff_organiser)
    refused = client.post(url(Donation, "add"), {"event": event.pk, "donor_name": "Gran", "amount": "12.345"})
    assert refused.status_code == 200 and not Donation.objects.exists()
    assert "two decimal" in refused.content.decode() or "decimal" in refused.content.decode()
    added = client.post(url(Donation, "add"), {"event": event.pk, "donor_name": "Gran", "amount": "25.00",
                                               "registration": player_on(players, "FRA").pk})
    assert added.status_code == 302
    donation = Donation.objects.get()
    assert AuditRecord.objects.filter(event=event, old__isnull=True, new__donor_name="Gran").count() == 1
    page = client.get(url(Donation, "change", donation.pk))
    data = {**form_data(page), "amount": "30.00"}
    data.pop("event", None)
    assert client.post(url(Donation, "change", donation.pk), data).status_code == 302
    donation.refresh_from_db()
    assert str(donation.amount) == "30.00"
    assert AuditRecord.objects.filter(event=event, old__amount="25.00", new__amount="30.00").exists()
    assert client.post(url(Donation, "delete", donation.pk), {"post": "yes"}).status_code == 302
    assert not Donation.objects.exists()
    assert AuditRecord.objects.filter(event=event, old__donor_name="Gran", new__isnull=True).exists()


def test_pledges_and_fees_go_through_their_services(client, staff_organiser, evening):
    event, cup, players = evening
    client.force_login(staff_organiser)
    both = client.post(url(Pledge, "add"), {"event": event.pk, "sponsor_name": "Bakery", "basis": "try",
                                            "rate": "10", "registration": players[0].pk,
                                            "entry": player_on(players, "FRA").entry_id})
    assert both.status_code == 200 and "either a player or a team" in both.content.decode()
    assert not Pledge.objects.exists()
    assert client.post(url(Pledge, "add"), {"event": event.pk, "sponsor_name": "Bakery", "basis": "try",
                                            "rate": "10", "registration": players[0].pk}).status_code == 302
    pledge = Pledge.objects.get()
    assert client.post(url(Pledge, "delete", pledge.pk), {"post": "yes"}).status_code == 302
    assert AuditRecord.objects.filter(event=event, old__sponsor_name="Bakery", new__isnull=True).exists()
    unpaid_how = client.post(url(EntryFee, "add"), {"registration": players[0].pk, "amount": "50", "paid": "on"})
    assert unpaid_how.status_code == 200 and not EntryFee.objects.exists()
    assert client.post(url(EntryFee, "add"), {"registration": players[0].pk, "amount": "50", "paid": "on",
                                              "method": "cash"}).status_code == 302
    assert AuditRecord.objects.filter(event=event, new__money="fee", new__paid=True).exists()


def test_registrations_are_added_edited_approved_and_removed_through_the_services(client, staff_organiser,
                                                                                  evening):
    event, cup, players = evening
    client.force_login(staff_organiser)
    assert client.post(url(Registration, "add"), {"event": event.pk, "first_name": "Zoe", "surname": "Ndlovu",
                                                  "show_name": "on"}).status_code == 302
    zoe = Registration.objects.get(first_name="Zoe")
    assert zoe.status == Registration.Status.PENDING
    assert RegistrationChange.objects.filter(event=event, registration=zoe, action="registered").exists()
    twice = client.post(url(Registration, "add"), {"event": event.pk, "first_name": "zoe", "surname": "NDLOVU"})
    assert twice.status_code == 200 and "already registered" in twice.content.decode()
    page = client.get(url(Registration, "change", zoe.pk))
    data = {**form_data(page), "surname": "Mokoena"}
    assert client.post(url(Registration, "change", zoe.pk), data).status_code == 302
    assert RegistrationChange.objects.filter(registration=zoe, action="edited").exists()
    client.post(url(Registration), {"action": "approve", "_selected_action": [zoe.pk]})
    zoe.refresh_from_db()
    assert zoe.status == Registration.Status.APPROVED and zoe.surname == "Mokoena"
    assert client.post(url(Registration, "delete", zoe.pk), {"post": "yes"}).status_code == 302
    zoe.refresh_from_db()
    assert zoe.status == Registration.Status.REMOVED
    assert RegistrationChange.objects.filter(registration=zoe, action="removed").exists()


def test_draws_are_read_only_and_other_organisers_see_nothing(client, staff_organiser, evening, django_user_model):
    event, cup, players = evening
    reg = reg_services.registration_create(event=event, first_name="Ann", surname="Smith", by_organiser=True,
                                           user=staff_organiser)
    reg_services.registration_approve(registration=reg, user=staff_organiser)
    division = cup.division
    draw = reg_services.nations_draw(event=event, division=division, method="random",
                                     cards=[Team.objects.get(code="ENG")], user=staff_organiser, seed=1)
    client.force_login(staff_organiser)
    assert client.get(url(NationDraw, "change", draw.pk)).status_code == 200
    assert client.post(url(NationDraw, "delete", draw.pk), {"post": "yes"}).status_code == 403
    assert client.get(url(NationDraw, "add")).status_code == 403
    rival = django_user_model.objects.create_user(username="rival", password="pw-rival-1", is_staff=True)
    fundraising.donation_create(event=event, donor_name="Gran", amount="25")
    client.force_login(rival)
    listing = client.get(url(Donation)).content.decode()
    assert "Gran" not in listing
    donation = Donation.objects.get()
    assert client.get(url(Donation, "change", donation.pk)).status_code in (302, 403, 404)
    assert client.post(url(Donation, "delete", donation.pk), {"post": "yes"}).status_code in (302, 403, 404)
    assert Donation.objects.exists()
    refused = client.post(url(Donation, "add"), {"event": event.pk, "donor_name": "X", "amount": "5"})
    assert refused.status_code == 200 and Donation.objects.count() == 1

"""Money of an event (``league.services.fundraising``, ``league.fundraising_selectors``) and its prize-giving
(``league.award_selectors``): pledges per try, point and win worked out from the results (caps, a corrected
result changing the total, Decimal exactness), fees and donations, the audit trail, the awards (ties shared, an
event with no results), and refused input that stores nothing."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from league import services
from league.award_selectors import certificates, event_awards
from league.errors import DomainError, NotFound
from league.fundraising_selectors import (
    money_csv,
    money_totals,
    pledge_rows,
    public_money,
    thank_you_list,
)
from league.models import AuditRecord, Donation, Event, Fixture, Pledge, Registration, Tournament
from league.money import money_text
from league.registration_selectors import public_name
from league.services import events as event_services
from league.services import fundraising

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 6, 13)


def make_evening(user, slug="evening", nations=("FRA", "NZL", "IRE", "RSA")):
    """A fundraiser evening: one league division of nations, a registered player on each nation."""
    event = event_services.event_create(name="Fundraiser evening", slug=slug, user=user, day=DAY,
                                        pitches=["Table 1", "Table 2"], status=Tournament.Status.IN_PROGRESS)
    tournament = services.tournament_create_from_preset("league", name="Cup", slug=f"{slug}-cup",
                                                        teams=list(nations), user=user)
    event_services.division_add(event=event, tournament=tournament, user=user)
    players = []
    people = [("Anna", "Botha", False, True), ("Ben", "Coetzee", True, True), ("Cara", "Du Toit", False, False),
              ("Dan", "Erasmus", False, True)]
    for entry, (first, surname, minor, show) in zip(tournament.entries.order_by("team__code"), people,
                                                     strict=False):
        players.append(Registration.objects.create(event=event, first_name=first, surname=surname, minor=minor,
                                                   show_name=show, contact=f"{first.lower()}@example.org",
                                                   status=Registration.Status.APPROVED, entry=entry))
    return event, tournament, players


def fixture_between(tournament, home_code, away_code):
    return Fixture.objects.get(tournament=tournament, home__team__code=home_code, away__team__code=away_code) \
        if Fixture.objects.filter(tournament=tournament, home__team__code=home_code,
                                  away__team__code=away_code).exists() else \
        Fixture.objects.get(tournament=tournament, home__team__code=away_code, away__team__code=home_code)


def play(tournament, code_a, score_a, tries_a, code_b, score_b, tries_b, user=None):
    fixture = fixture_between(tournament, code_a, code_b)
    if fixture.home.team.code != code_a:
        score_a, tries_a, score_b, tries_b = score_b, tries_b, score_a, tries_a
    return services.result_record(fixture=fixture, home_score=score_a, away_score=score_b, home_tries=tries_a,
                                  away_tries=tries_b, user=user)


@pytest.fixture
def evening(organiser):
    return make_evening(organiser)


def player_on(players, code):
    return next(p for p in players if p.entry.team.code == code)


# --- pledges -----------------------------------------------------------------------------------------------------


def test_per_try_pledges_follow_the_results_and_a_corrected_result_corrects_them(evening, organiser):
    event, cup, players = evening
    anna = player_on(players, "FRA")
    fundraising.pledge_create(event=event, user=organiser, sponsor_name="Bakery", basis="try", rate="12.50",
                              registration=anna.pk)
    fundraising.pledge_create(event=event, user=organiser, sponsor_name="Garage", basis="try", rate=Decimal("0.10"),
                              entry=anna.entry_id)
    assert money_totals(event).pledges == Decimal("0.00")
    play(cup, "FRA", 21, 3, "NZL", 14, 2)
    totals = money_totals(event)
    assert totals.pledges == Decimal("37.80")  # 3 x 12.50 + 3 x 0.10, exactly
    assert isinstance(totals.pledges, Decimal)
    fixture = fixture_between(cup, "FRA", "NZL")
    home_is_fra = fixture.home.team.code == "FRA"
    services.result_record(fixture=fixture, home_score=28 if home_is_fra else 14, away_score=14 if home_is_fra
                           else 28, home_tries=4 if home_is_fra else 2, away_tries=2 if home_is_fra else 4,
                           user=organiser)
    assert money_totals(event).pledges == Decimal("50.40")  # the corrected result: 4 tries


def test_results_of_a_draft_division_count_toward_no_pledge_until_it_is_published(evening, organiser):
    event, cup, players = evening
    social = services.tournament_create_from_preset("league", name="Social", slug="evening-social",
                                                    teams=["ENG", "ARG"], user=organiser,
                                                    status=Tournament.Status.DRAFT)
    event_services.division_add(event=event, tournament=social, user=organiser)
    social.refresh_from_db()
    assert social.status == Tournament.Status.DRAFT
    eng = social.entries.get(team__code="ENG")
    fundraising.pledge_create(event=event, user=organiser, sponsor_name="Butcher", basis="try", rate="10.00",
                              entry=eng.pk)
    fundraising.pledge_create(event=event, user=organiser, sponsor_name="Bakery", basis="try", rate="1.00",
                              entry=player_on(players, "FRA").entry_id)
    play(social, "ENG", 35, 5, "ARG", 7, 1)
    play(cup, "FRA", 21, 3, "NZL", 14, 2)
    assert money_totals(event).pledges == Decimal("3.00")  # the draft division's five tries do not count
    assert public_money(event)["raised"] == Decimal("3.00")
    awards = {a["key"]: a for a in event_awards(event)["awards"]}
    assert [w["side"] or w["name"] for w in awards["most_tries"]["winners"]] == ["France"]
    services.tournament_update(tournament=social, user=organiser, status=Tournament.Status.IN_PROGRESS)
    assert money_totals(event).pledges == Decimal("53.00")


def test_points_wins_and_caps(evening, organiser):
    event, cup, players = evening
    nzl = player_on(players, "NZL").entry
    fundraising.pledge_create(event=event, sponsor_name="Points", basis="point", rate="0.33", entry=nzl.pk)
    fundraising.pledge_create(event=event, sponsor_name="Wins", basis="win", rate="100", entry=nzl.pk)
    fundraising.pledge_create(event=event, sponsor_name="Capped", basis="try", rate="10", cap="25",
                              entry=nzl.pk)
    play(cup, "NZL", 17, 3, "FRA", 10, 1)
    play(cup, "NZL", 5, 1, "IRE", 12, 2)
    rows = {row["pledge"].sponsor_name: row for row in pledge_rows(event)}
    assert rows["Points"]["count"] == 22 and rows["Points"]["amount"] == Decimal("7.26")
    assert rows["Wins"]["count"] == 1 and rows["Wins"]["amount"] == Decimal("100.00")
    assert rows["Capped"]["count"] == 4 and rows["Capped"]["amount"] == Decimal("25.00")
    assert rows["Capped"]["capped"] and not rows["Wins"]["capped"]
    assert money_totals(event).pledges == Decimal("132.26")


def test_a_pledge_on_a_player_without_a_side_yet_comes_to_nothing(evening, organiser):
    event, cup, players = evening
    late = Registration.objects.create(event=event, first_name="Eve", surname="Fourie",
                                       status=Registration.Status.APPROVED)
    fundraising.pledge_create(event=event, sponsor_name="Aunt", basis="try", rate="5", registration=late.pk)
    play(cup, "FRA", 21, 3, "NZL", 14, 2)
    assert money_totals(event).pledges == Decimal("0.00")


def test_fees_donations_and_the_raised_total(evening, organiser):
    event, cup, players = evening
    fundraising.event_money_update(event=event, user=organiser, currency="GBP", fundraising_goal="500",
                                   entry_fee="20")
    fundraising.entry_fee_set(event=event, registration=players[0].pk, paid=True, method="cash", user=organiser)
    fundraising.entry_fee_set(event=event, registration=players[1].pk, amount="15.50", paid=True, method="card")
    fundraising.entry_fee_set(event=event, registration=players[2].pk)  # not paid: not raised yet
    fundraising.donation_create(event=event, donor_name="Granny", amount="50.05", message="Go Anna!")
    fundraising.donation_create(event=event, donor_name="Secret", amount="100", anonymous=True,
                                registration=players[1].pk)
    totals = money_totals(event)
    assert (totals.fees_paid, totals.fees_due, totals.donations) == (Decimal("35.50"), Decimal("20.00"),
                                                                     Decimal("150.05"))
    assert totals.raised == Decimal("185.55")
    assert totals.percent == 37
    shown = public_money(event)
    assert shown["raised_text"] == "£185.55" and shown["goal_text"] == "£500.00"
    assert money_text(Decimal("1250"), "ZAR") == "R1,250.00"


def test_every_change_is_in_the_audit_trail_and_bumps_the_event(evening, organiser):
    event, cup, players = evening
    version = Event.objects.get(pk=event.pk).version
    donation = fundraising.donation_create(event=event, donor_name="Granny", amount="10", user=organiser)
    fundraising.donation_update(donation=donation, amount="12", user=organiser)
    fundraising.donation_delete(donation=donation, user=organiser)
    pledge = fundraising.pledge_create(event=event, sponsor_name="Bakery", rate="1", entry=players[0].entry_id)
    fundraising.pledge_update(pledge=pledge, rate="2", cap="10")
    fundraising.pledge_delete(pledge=pledge)
    fundraising.entry_fee_set(event=event, registration=players[0].pk, amount="5", paid=True, method="transfer")
    records = list(AuditRecord.objects.filter(event=event, action=AuditRecord.Action.MONEY_CHANGED)
                   .order_by("id"))
    assert len(records) == 7
    assert records[1].old["amount"] == "10.00" and records[1].new["amount"] == "12.00"
    assert records[2].new is None and records[2].old["donor_name"] == "Granny"
    assert records[0].changed_by == organiser
    assert Event.objects.get(pk=event.pk).version == version + 7


@pytest.mark.parametrize("fields, field", [
    ({"amount": 12.5}, "amount"),  # a float is refused, never rounded
    ({"amount": "12.345"}, "amount"),
    ({"amount": "-3"}, "amount"),
    ({"amount": "0"}, "amount"),
    ({"amount": "abc"}, "amount"),
    ({"amount": "1e12"}, "amount"),
    ({"amount": "NaN"}, "amount"),
    ({"amount": "5", "donor_name": "  "}, "donor_name"),
    ({"amount": "5", "method": "cheque"}, "method"),
])
def test_bad_donations_are_refused_and_store_nothing(evening, fields, field):
    event = evening[0]
    with pytest.raises(DomainError) as caught:
        fundraising.donation_create(event=event, **{"donor_name": "Granny", **fields})
    assert field in caught.value.message_dict
    assert not Donation.objects.exists()
    assert not AuditRecord.objects.filter(event=event).exists()


def test_a_pledge_needs_one_target_of_this_event(evening, organiser):
    event, cup, players = evening
    other_event, _other_cup, other_players = make_evening(organiser, slug="other", nations=("ENG", "WAL"))
    with pytest.raises(DomainError):
        fundraising.pledge_create(event=event, sponsor_name="X", rate="1")
    with pytest.raises(DomainError):
        fundraising.pledge_create(event=event, sponsor_name="X", rate="1", registration=players[0].pk,
                                  entry=players[1].entry_id)
    with pytest.raises(NotFound):
        fundraising.pledge_create(event=event, sponsor_name="X", rate="1", entry=other_players[0].entry_id)
    with pytest.raises(NotFound):
        fundraising.pledge_create(event=event, sponsor_name="X", rate="1", registration=other_players[0].pk)
    with pytest.raises(DomainError):
        fundraising.pledge_create(event=event, sponsor_name="X", rate="1", basis="kick", entry=players[0].entry_id)
    with pytest.raises(DomainError):
        fundraising.event_money_update(event=event, currency="XYZ")
    assert not Pledge.objects.exists()


def test_a_paid_fee_says_how(evening):
    event, _cup, players = evening
    with pytest.raises(DomainError) as caught:
        fundraising.entry_fee_set(event=event, registration=players[0].pk, amount="10", paid=True)
    assert "method" in caught.value.message_dict


def test_thank_you_list_and_public_names(evening, organiser):
    event, cup, players = evening
    fundraising.donation_create(event=event, donor_name="Granny Smith", amount="10", message="Go!")
    fundraising.donation_create(event=event, donor_name="Hidden Donor", amount="10", anonymous=True)
    fundraising.pledge_create(event=event, sponsor_name="Bakery", rate="1", entry=players[0].entry_id)
    fundraising.pledge_create(event=event, sponsor_name="Shy Sponsor", rate="1", anonymous=True,
                              entry=players[0].entry_id)
    thanks = thank_you_list(event)
    assert [d["name"] for d in thanks["donors"]] == ["Granny Smith", "Anonymous"]
    assert [s["name"] for s in thanks["sponsors"]] == ["Bakery", "Anonymous"]
    ben = next(p for p in players if p.first_name == "Ben")
    assert public_name(ben, event) == "Ben C."  # a minor: the surname's initial
    cara = next(p for p in players if p.first_name == "Cara")
    assert public_name(cara, event, nation="Ireland") == "Ireland"  # no consent to show the name


def test_treasurer_csv_is_formula_safe(evening, organiser):
    event, _cup, players = evening
    fundraising.donation_create(event=event, donor_name="=HYPERLINK(\"http://x\")", amount="10")
    fundraising.pledge_create(event=event, sponsor_name="Bakery", rate="2.50", cap="30", entry=players[0].entry_id)
    fundraising.entry_fee_set(event=event, registration=players[0].pk, amount="20", paid=True, method="cash")
    text = money_csv(event)
    lines = text.splitlines()
    assert lines[0].startswith("kind,name,for,basis,rate,count,cap,amount,currency")
    assert "'=HYPERLINK" in text and ",=HYPERLINK" not in text
    assert any(line.startswith("pledge,Bakery,") and ",2.50,0,30.00,0.00,ZAR," in line for line in lines)
    assert any(line.startswith("entry_fee,") and ",20.00,ZAR,yes,cash," in line for line in lines)


# --- awards ------------------------------------------------------------------------------------------------------


def test_an_event_with_no_results_has_no_awards(evening):
    prizes = event_awards(evening[0])
    assert prizes["awards"] == []
    assert [d["awards"] for d in prizes["divisions"]] == [[]]
    assert prizes["not_awarded"]  # the comeback, with its reason
    assert certificates(evening[0], prizes) == []


def test_awards_from_the_results_with_ties_shared(evening, organiser):
    event, cup, players = evening
    play(cup, "FRA", 21, 3, "NZL", 19, 3)   # NZL lose by 2
    play(cup, "IRE", 10, 2, "RSA", 12, 2)   # IRE lose by 2 too: best losing side shared
    play(cup, "FRA", 7, 1, "IRE", 0, 0)
    prizes = event_awards(event)
    awards = {a["key"]: a for a in prizes["awards"]}
    assert [w["side"] or w["name"] for w in awards["most_tries"]["winners"]] == ["France"]  # 4 tries
    assert awards["most_tries"]["detail"] == "4 tries" and not awards["most_tries"]["shared"]
    assert awards["top_points"]["detail"] == "28 points"
    losing = awards["best_losing_side"]
    assert losing["shared"] and {w["entry_id"] for w in losing["winners"]} == {
        player_on(players, "NZL").entry_id, player_on(players, "IRE").entry_id}
    assert "lost by 2" in losing["detail"]
    assert "top_fundraiser" not in awards  # nobody has raised anything
    names = {w["name"] for a in prizes["awards"] for w in a["winners"]}
    assert "New Zealand" in names and "Cara Du Toit" not in names  # Cara did not consent: her side is named
    assert "Ben C." in names and not any("Coetzee" in name for name in names)  # a minor: the initial only


def test_most_tries_tie_and_top_fundraiser(evening, organiser):
    event, cup, players = evening
    play(cup, "FRA", 14, 2, "NZL", 14, 2)
    fundraising.donation_create(event=event, donor_name="Mum", amount="30", registration=player_on(players, "NZL").pk)
    fundraising.pledge_create(event=event, sponsor_name="Bakery", rate="15", entry=player_on(players, "FRA").entry_id)
    fundraising.entry_fee_set(event=event, registration=player_on(players, "RSA").pk, amount="500", paid=True,
                              method="cash")  # a fee is not fundraising
    awards = {a["key"]: a for a in event_awards(event)["awards"]}
    assert awards["most_tries"]["shared"] and len(awards["most_tries"]["winners"]) == 2
    assert "best_losing_side" not in awards  # a draw: nobody lost
    top = awards["top_fundraiser"]
    assert top["shared"] and top["detail"] == ""  # what a person raised is not shown publicly
    assert sorted(w["name"] for w in top["winners"]) == ["Anna Botha", "New Zealand"]  # Cara: no consent


def test_champion_and_runner_up_once_the_division_is_finished(evening, organiser):
    event, cup, players = evening
    for a, b in (("FRA", "NZL"), ("FRA", "IRE"), ("FRA", "RSA"), ("NZL", "IRE"), ("NZL", "RSA")):
        play(cup, a, 20, 3, b, 10, 1)
    assert event_awards(event)["divisions"][0]["awards"] == []  # the table's leader is not champion yet
    play(cup, "IRE", 20, 3, "RSA", 10, 1)  # the last result finishes the division
    assert Tournament.objects.get(pk=cup.pk).status == Tournament.Status.FINISHED
    division = event_awards(event)["divisions"][0]
    titles = {a["key"]: a["winners"][0]["entry_id"] for a in division["awards"]}
    assert titles == {"champion": player_on(players, "FRA").entry_id,
                      "runner_up": player_on(players, "NZL").entry_id}
    certs = certificates(event, event_awards(event))
    assert {c["award"] for c in certs} >= {"Champion", "Runner-up", "Most tries"}
    assert all("Coetzee" not in str(c) and "@" not in str(c) for c in certs)


def test_biggest_comeback_from_a_match_scored_live_and_not_from_a_changed_result(evening, organiser):
    from league import match_clock
    from league.models import Result
    from league.services import live as live_services

    event, cup, players = evening
    assert "no match was scored live" in event_awards(event)["not_awarded"][0]
    fixture = fixture_between(cup, "FRA", "NZL")
    calls = iter(range(1, 100))

    def send(kind, code="", side=None):
        live_services.live_event_record(fixture=Fixture.objects.get(pk=fixture.pk), client_id=f"c{next(calls)}",
                                        kind=kind, code=code, side=side, user=organiser)

    send("clock", match_clock.START)
    for code, side in [("try", 1), ("conversion", 1), ("penalty-goal", 1), ("try", 0), ("try", 0),
                       ("conversion", 0)]:
        send("score", code, side)  # the away side leads 10-0, the home side wins 12-10
    send("clock", match_clock.HALF_TIME_CALL)
    send("clock", match_clock.SECOND_HALF_CALL)
    send("clock", match_clock.FULL_TIME_CALL)
    result = Result.objects.filter(fixture=fixture).first()
    if result is None:
        result = live_services.live_result_confirm(fixture=fixture, user=organiser)
    assert (result.home_score, result.away_score) == (12, 10)
    play(cup, "IRE", 10, 2, "RSA", 12, 2)  # typed in: never a comeback, whatever the score went through
    awards = {a["key"]: a for a in event_awards(event)["awards"]}
    comeback = awards["biggest_comeback"]
    assert [w["entry_id"] for w in comeback["winners"]] == [fixture.home_id]
    assert comeback["detail"] == "won from 10 points down"
    # The result corrected afterwards: the live events no longer tell how it went.
    services.result_record(fixture=fixture, home_score=19, away_score=10, home_tries=3, away_tries=1,
                           user=organiser)
    prizes = event_awards(event)
    assert "biggest_comeback" not in {a["key"] for a in prizes["awards"]}
    assert "no match was scored live (or its result was changed since)" in prizes["not_awarded"][0]

"""Players registering for an event (``league.services.registrations``): the places and the waiting list (first
come; a removal or more places move the first waiting player up, recorded), the organisers' approval, edits and
removal, the public name rules, and the nation draws (``league.nation_draws``: players' choice, random and dice,
reproducible from their seed, dice ties thrown again) making the players' entries in a division."""

from __future__ import annotations

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from league import nation_draws, services
from league.errors import Conflict, DomainError
from league.event_selectors import event_fixtures
from league.models import Entry, NationDraw, Registration, RegistrationChange, Team, Tournament
from league.registration_selectors import (
    draws_in_progress,
    nations_left,
    next_turn,
    public_name,
    public_players,
    registration_counts,
    waiting_position,
)
from league.services import events as event_services
from league.services import registrations as reg_services
from tests.league.test_events import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(organiser):
    """A fundraiser evening, registration open with 4 places, and its cup division (no entries yet)."""
    event = make_event(organiser, slug="evening")
    reg_services.registration_settings_save(event=event, user=organiser, registration_open=True,
                                            registration_cap=4)
    tournament = event_services.division_create(event=event, name="Cup", user=organiser)
    return event, tournament.division


def test_a_settings_change_reads_in_words_in_each_language(evening, organiser):
    """The history says "closed, places 4 → no limit, surnames hidden", in the reader's language, not the
    fields' names and Python's True/False."""
    event, _division = evening
    reg_services.registration_settings_save(event=event, user=organiser, registration_open=False,
                                            registration_cap=None, hide_surnames=True)
    change = RegistrationChange.objects.filter(event=event).order_by("-pk").first()
    assert change.summary_text == "Registration: closed, places 4 → no limit, surnames hidden."
    with translation.override("fr"):
        text = change.summary_text
    assert "fermée" in text and "aucune limite" in text and "True" not in text and "registration_open" not in text


def sign_up(event, first, surname="Smith", **fields):
    return reg_services.registration_create(event=event, first_name=first, surname=surname, **fields)


def nations(*codes):
    return [Team.objects.get(code=code) for code in codes]


# --- places and the waiting list -----------------------------------------------------------------------------


def test_players_past_the_places_wait_and_move_up_first_come_when_a_place_frees(evening, organiser):
    event, _division = evening
    players = [sign_up(event, name) for name in ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")]
    assert [p.status for p in players] == ["pending"] * 4 + ["waiting"] * 2
    assert [p.number for p in players] == [1, 2, 3, 4, 5, 6]
    assert waiting_position(players[5]) == 2
    assert registration_counts(event) == {"pending": 4, "approved": 0, "waiting": 2, "cap": 4, "left": 0}

    reg_services.registration_remove(registration=players[1], user=organiser)
    statuses = dict(Registration.objects.filter(event=event).values_list("first_name", "status"))
    assert statuses == {"Ann": "pending", "Ben": "removed", "Cat": "pending", "Dan": "pending", "Eve": "pending",
                        "Fay": "waiting"}
    moved = RegistrationChange.objects.get(event=event, action="moved_up")
    assert moved.registration.first_name == "Eve" and "Ben" in moved.summary_text
    assert moved.changed_by == organiser
    assert "Smith" not in " ".join(RegistrationChange.objects.values_list("summary", flat=True))

    reg_services.registration_settings_save(event=event, user=organiser, registration_cap=6)
    assert Registration.objects.get(first_name="Fay").status == "pending"
    assert RegistrationChange.objects.filter(event=event, action="moved_up").count() == 2


def test_fewer_places_than_held_is_refused_and_approval_needs_a_place(evening, organiser):
    event, _division = evening
    players = [sign_up(event, name) for name in ("Ann", "Ben", "Cat", "Dan", "Eve")]
    with pytest.raises(Conflict):
        reg_services.registration_settings_save(event=event, user=organiser, registration_cap=3)
    event.refresh_from_db()
    assert event.registration_cap == 4
    with pytest.raises(Conflict):
        reg_services.registration_approve(registration=players[4], user=organiser)
    assert reg_services.registrations_approve_all(event=event, user=organiser) == 4
    assert registration_counts(event)["approved"] == 4
    assert Registration.objects.get(first_name="Eve").status == "waiting"


def test_closed_registration_twice_the_same_name_and_a_taken_nation_are_refused(evening, organiser):
    event, _division = evening
    sign_up(event, "Ann", choice=Team.objects.get(code="FRA"))
    with pytest.raises(DomainError) as twice:
        sign_up(event, " ann ", surname="SMITH")
    assert "first_name" in twice.value.message_dict
    with pytest.raises(DomainError) as taken:
        sign_up(event, "Ben", choice=Team.objects.get(code="FRA"))
    assert "choice" in taken.value.message_dict
    assert "FRA" not in [t.code for t in nations_left(event)] and len(nations_left(event)) == 19
    with pytest.raises(DomainError) as blank:
        sign_up(event, "  ", surname="")
    assert set(blank.value.message_dict) == {"first_name", "surname"}
    reg_services.registration_settings_save(event=event, user=organiser, registration_open=False)
    with pytest.raises(Conflict):
        sign_up(event, "Cat")
    added = sign_up(event, "Cat", by_organiser=True, user=organiser)
    assert added.status == "pending"
    assert Registration.objects.filter(event=event).count() == 2


def test_public_name_hides_surnames_of_minors_and_everything_without_consent(evening, organiser):
    event, _division = evening
    adult = sign_up(event, "Ann", surname="Botha", show_name=True)
    minor = sign_up(event, "Ben", surname="Cronje", show_name=True, minor=True)
    shy = sign_up(event, "Cat", surname="Dlamini", show_name=False)
    assert public_name(adult, event) == "Ann Botha"
    assert public_name(minor, event) == "Ben C."
    assert public_name(shy, event) == "Player 3"
    assert public_name(shy, event, nation="Fiji") == "Fiji"
    reg_services.registration_settings_save(event=event, user=organiser, hide_surnames=True)
    event.refresh_from_db()
    assert public_name(adult, event) == "Ann B."


def test_an_edit_renames_the_players_entry_and_removal_takes_the_entry_out(evening, organiser):
    event, division = evening
    ann = sign_up(event, "Ann", surname="Botha", show_name=True)
    reg_services.registration_approve(registration=ann, user=organiser)
    reg_services.nations_draw(event=event, division=division, method="random", cards=nations("FRA"), user=organiser,
                              seed=1)
    ann.refresh_from_db()
    assert ann.entry.team.code == "FRA" and ann.entry.player_name == "Ann Botha"
    reg_services.registration_update(registration=ann, user=organiser, minor=True)
    assert Entry.objects.get(pk=ann.entry_id).player_name == "Ann B."
    reg_services.registration_update(registration=ann, user=organiser, show_name=False)
    assert Entry.objects.get(pk=ann.entry_id).player_name == ""
    reg_services.registration_remove(registration=ann, user=organiser)
    assert not Entry.objects.filter(tournament=division.tournament).exists()
    with pytest.raises(Conflict):
        reg_services.registration_update(registration=ann, user=organiser, first_name="Anna")


# --- the draws ---------------------------------------------------------------------------------------------------


@given(seed=st.integers(min_value=0, max_value=2 ** 32), players=st.integers(min_value=1, max_value=20))
def test_random_and_dice_draws_are_reproducible_from_their_seed_and_give_each_player_one_card(seed, players):
    people = list(range(players))
    cards = [f"N{i}" for i in range(20)]
    for method in (nation_draws.RANDOM, nation_draws.DICE):
        first = nation_draws.draw(method, people, cards, {}, seed=seed)
        assert first == nation_draws.draw(method, people, cards, {}, seed=seed)
        assert sorted(p.player for p in first) == people
        assert len({p.card for p in first}) == players
    order, throws = nation_draws.dice_order(people, seed=seed)
    # Highest first, compared throw by throw: a tie on a throw is settled by the next throw of the tied players.
    keys = [[sum(t) for t in throws[p]] for p in order]
    assert keys == sorted(keys, reverse=True)


def test_dice_ties_are_thrown_again_among_the_tied_players_only():
    # The first seed with which some of 12 players tie on their first throw (with 11 totals, most seeds do).
    seed = next(s for s in range(200)
                if any(len(t) > 1 for t in nation_draws.dice_order(list(range(12)), seed=s)[1].values()))
    order, throws = nation_draws.dice_order(list(range(12)), seed=seed)
    rethrown = [p for p in order if len(throws[p]) > 1]
    assert rethrown
    firsts = [sum(throws[p][0]) for p in rethrown]
    for player in rethrown:  # everybody who threw again had tied with another on the first throw
        assert firsts.count(sum(throws[player][0])) >= 2
    once = [p for p in order if len(throws[p]) == 1]
    for player in once:
        assert [sum(throws[q][0]) for q in order].count(sum(throws[player][0])) == 1


def test_dice_picks_the_wish_if_free_else_the_first_free_card_and_choice_needs_free_wishes():
    picks = nation_draws.dice_draw([1, 2, 3], ["NZL", "RSA", "FRA", "IRE"], {1: "FRA", 2: "FRA", 3: "FRA"}, seed=5)
    order = [p.player for p in picks]
    assert picks[0].card == "FRA"
    assert [p.card for p in picks[1:]] == ["NZL", "RSA"]
    assert sorted(order) == [1, 2, 3]
    with pytest.raises(nation_draws.NationDrawError) as refused:
        nation_draws.choice_draw([1, 2, 3], ["NZL", "FRA", "IRE"], {1: "FRA", 2: "FRA"})
    assert refused.value.players == [2, 3]
    picks = nation_draws.choice_draw([1, 2], ["NZL", "FRA"], {1: "FRA", 2: "NZL"})
    assert [(p.player, p.card) for p in picks] == [(1, "FRA"), (2, "NZL")]


def test_a_stored_draw_replays_to_the_same_outcome_and_makes_the_entries(evening, organiser):
    event, division = evening
    reg_services.registration_settings_save(event=event, user=organiser, registration_cap=None)
    players = [sign_up(event, f"P{i}", show_name=i % 2 == 0) for i in range(6)]
    for player in players:
        reg_services.registration_approve(registration=player, user=organiser)
    cards = [*nations("NZL", "RSA", "IRE", "FRA", "ENG", "ARG"),
             *reg_services.team_cards_create(names=["Grey College"], user=organiser)]
    draw = reg_services.nations_draw(event=event, division=division, method="dice", cards=cards, user=organiser)
    assert draw.seed is not None and len(draw.outcome) == 6
    replay = nation_draws.draw("dice", [p.pk for p in players], draw.cards, {}, seed=draw.seed)
    assert [(p.player, p.card, p.throws) for p in replay] == [
        (row["registration"], row["team"], row["throws"]) for row in draw.outcome]
    entries = Entry.objects.filter(tournament=division.tournament)
    assert entries.count() == 6
    assert {e.player_name for e in entries} == {"P0 Smith", "P2 Smith", "P4 Smith", ""}
    shown = public_players(event)
    assert len(shown) == 6 and all("Smith" not in row["name"] or row["name"].startswith("P") for row in shown)
    # Nobody left to draw: a second draw is refused, nothing changes.
    with pytest.raises(DomainError):
        reg_services.nations_draw(event=event, division=division, method="random", cards=cards, user=organiser)
    assert NationDraw.objects.count() == 1


def test_too_few_cards_or_unchosen_players_refuse_the_draw_and_store_nothing(evening, organiser):
    event, division = evening
    players = [sign_up(event, name) for name in ("Ann", "Ben", "Cat")]
    for player in players:
        reg_services.registration_approve(registration=player, user=organiser)
    with pytest.raises(DomainError) as few:
        reg_services.nations_draw(event=event, division=division, method="random", cards=nations("FRA", "NZL"),
                                  user=organiser)
    assert "cards" in few.value.message_dict
    reg_services.registration_update(registration=players[0], user=organiser, choice=Team.objects.get(code="FRA"))
    with pytest.raises(DomainError) as unchosen:
        reg_services.nations_draw(event=event, division=division, method="choice",
                                  cards=nations("FRA", "NZL", "IRE"), user=organiser)
    assert "Ben, Cat" in unchosen.value.message_dict["method"][0]
    assert not Entry.objects.filter(tournament=division.tournament).exists()
    assert not NationDraw.objects.exists()


# --- the scheduler across divisions knows players by who they are ----------------------------------------------


def test_two_players_shown_alike_may_play_at_once_and_one_player_in_two_divisions_may_not(organiser):
    """Two registered players both shown as "Sam K." are two people: the day may put them on two pitches at
    the same time. A player the organiser typed into both divisions ("Ann Botha") is one person: never."""
    event = make_event(organiser, slug="evening", pitches=["Table 1", "Table 2", "Table 3", "Table 4"])
    reg_services.registration_settings_save(event=event, user=organiser, registration_open=True, hide_surnames=True)
    event.refresh_from_db()
    cup = event_services.division_create(event=event, name="Cup", user=organiser).division
    social = event_services.division_create(event=event, name="Social", user=organiser).division
    sams = {}
    for division, surname, other, codes in ((cup, "Khumalo", "Ben", ("FRA", "NZL")),
                                            (social, "Kruger", "Cat", ("IRE", "RSA"))):
        sam = sign_up(event, "Sam", surname=surname, show_name=True, division=division)
        sign_up(event, other, surname=surname, show_name=True, division=division)
        reg_services.registrations_approve_all(event=event, user=organiser)
        reg_services.nations_draw(event=event, division=division, method="random", cards=nations(*codes),
                                  user=organiser, seed=3)
        sams[division.pk] = Registration.objects.get(pk=sam.pk).entry
        services.entries_add(tournament=division.tournament, teams=["ENG" if division == cup else "ARG"],
                             user=organiser, player_name="Ann Botha")
        services.fixtures_generate(tournament=division.tournament, user=organiser)
    assert {e.player_name for e in sams.values()} == {"Sam K."}
    event_services.event_schedule(event=event, user=organiser)

    def kickoffs(predicate):
        return [f.kickoff for f in event_fixtures(event) if predicate(f)]

    sam_times = [set(kickoffs(lambda f, e=entry: e.pk in (f.home_id, f.away_id))) for entry in sams.values()]
    assert sam_times[0] & sam_times[1], "two different players shown as Sam K. were kept apart as one person"
    ann = kickoffs(lambda f: "Ann Botha" in (f.home.player_name, f.away.player_name))
    assert len(ann) == 4 and len(set(ann)) == 4


# --- drawn players into the division's pools -------------------------------------------------------------------


@pytest.fixture
def pooled_evening(organiser):
    """An evening with a pools-then-knockout division and 8 approved players waiting for a nation."""
    event = make_event(organiser, slug="pooled")
    cup = event_services.division_create(event=event, name="Cup", user=organiser,
                                         format=Tournament.Format.POOLS_KNOCKOUT).division
    reg_services.registration_settings_save(event=event, user=organiser, registration_open=True)
    for i in range(8):
        sign_up(event, f"P{i}")
    reg_services.registrations_approve_all(event=event, user=organiser)
    return event, cup


EIGHT = ("NZL", "RSA", "IRE", "FRA", "ENG", "ARG", "WAL", "FIJ")


def test_a_draw_puts_its_players_into_pools_in_the_order_drawn_in_one_step(pooled_evening, organiser):
    event, cup = pooled_evening
    draw = reg_services.nations_draw(event=event, division=cup, method="random", cards=nations(*EIGHT),
                                     user=organiser, seed=11, pools="draw_order")
    drawn = [Team.objects.get(pk=row["team"]).code for row in draw.outcome]
    pools = {e.team.code: e.pool.name for e in Entry.objects.filter(tournament=cup.tournament).select_related(
        "team", "pool")}
    assert pools == {code: "AB"[i % 2] for i, code in enumerate(drawn)}
    change = RegistrationChange.objects.get(event=event, summary_code="pools_filled")
    assert change.summary_params == {"division": "Cup", "count": 2, "order": "draw_order"}


def test_pools_by_the_seeded_draw_again_enter_nobody_twice_and_fixtures_refuse(pooled_evening, organiser):
    event, cup = pooled_evening
    reg_services.nations_draw(event=event, division=cup, method="dice", cards=nations(*EIGHT), user=organiser)
    tournament = cup.tournament
    first = reg_services.division_pools_fill(event=event, division=cup, user=organiser, seed=5)
    again = reg_services.division_pools_fill(event=event, division=cup, user=organiser, seed=5)
    assert first == again and sorted(len(codes) for codes in first.values()) == [4, 4]
    # The seeded draw: one of each band of seeds (the order drawn) in each pool.
    seeds = dict(Entry.objects.filter(tournament=tournament).values_list("team__code", "seed"))
    assert all(sorted((seeds[c] - 1) // 2 for c in codes) == [0, 1, 2, 3] for codes in first.values())
    assert Entry.objects.filter(tournament=tournament).count() == 8
    assert Entry.objects.filter(tournament=tournament, pool__isnull=True).count() == 0
    services.fixtures_generate(tournament=tournament, user=organiser)
    with pytest.raises(Conflict) as refused:
        reg_services.division_pools_fill(event=event, division=cup, user=organiser, order="draw_order")
    assert refused.value.reason == "has_fixtures" and "clear them" in refused.value.text
    league = event_services.division_create(event=event, name="Social", user=organiser).division
    with pytest.raises(DomainError) as no_pools:
        reg_services.division_pools_fill(event=event, division=league, user=organiser)
    assert "pools" in no_pools.value.message_dict


# --- a dice draw picked live -------------------------------------------------------------------------------------


def test_dice_draw_picked_in_turn_follows_the_throws_and_each_pick_is_stored_and_recorded(pooled_evening, organiser):
    event, cup = pooled_evening
    players = list(Registration.objects.filter(event=event).order_by("created_at", "id"))
    cards = nations(*EIGHT)
    draw = reg_services.nations_draw(event=event, division=cup, method="dice", cards=cards, user=organiser,
                                     seed=77, live=True)
    order, throws = nation_draws.dice_order([p.pk for p in players], seed=77)
    assert [row["registration"] for row in draw.outcome] == order
    assert [row["throws"] for row in draw.outcome] == [throws[p] for p in order]
    assert all(row["team"] is None for row in draw.outcome)
    assert not Entry.objects.filter(tournament=cup.tournament).exists()
    assert [d.pk for d in draws_in_progress(event)] == [draw.pk]
    # No second draw of the division while it is being picked.
    with pytest.raises(Conflict):
        reg_services.nations_draw(event=event, division=cup, method="random", cards=cards, user=organiser)
    # The player removed before their turn is passed over.
    reg_services.registration_remove(registration=Registration.objects.get(pk=order[2]), user=organiser)
    # Each picks what is left, in the dice order; the best nation goes to whoever picks it, not to a wish.
    picked = ["WAL", "FIJ", "NZL", "RSA", "IRE", "FRA", "ENG"]
    for index, code in enumerate(picked):
        draw = reg_services.nation_pick(draw=draw, team=Team.objects.get(code=code), user=organiser)
        if index == 0:
            with pytest.raises(DomainError) as taken:
                reg_services.nation_pick(draw=draw, team=Team.objects.get(code="WAL"), user=organiser)
            assert "not free" in taken.value.message_dict["team"][0]
            with pytest.raises(DomainError):
                reg_services.nation_pick(draw=draw, team=Team.objects.get(code="SCO"), user=organiser)
    draw.refresh_from_db()
    assert next_turn(draw) is None and draws_in_progress(event) == []
    takers = [o for i, o in enumerate(order) if i != 2]
    assert {row["registration"]: row["team"] for row in draw.outcome if row["team"]} == {
        reg: Team.objects.get(code=code).pk for reg, code in zip(takers, picked, strict=True)}
    assert draw.outcome[2].get("skipped") is True
    entries = {r.entry.team.code for r in Registration.objects.filter(pk__in=takers).select_related("entry__team")}
    assert entries == set(picked)
    assert RegistrationChange.objects.filter(event=event, summary_code="picked").count() == 7
    first = RegistrationChange.objects.filter(event=event, summary_code="picked").order_by("id").first()
    assert first.summary_params["team"] == "Wales" and (first.summary_params["turn"], first.summary_params[
        "count"]) == (1, 8)
    assert "Wales" in first.summary_text and "turn 1 of 8" in first.summary_text
    with pytest.raises(Conflict):
        reg_services.nation_pick(draw=draw, team=Team.objects.get(code="ARG"), user=organiser)
    # Only dice draws are picked in turn; pools come after the picks.
    with pytest.raises(DomainError):
        reg_services.nations_draw(event=event, division=cup, method="random", cards=cards, live=True)

"""Reads of an event's registrations and nation draws: the organisers' list (with contacts), and what the public
sees of a player.

A player's public name is the one rule every public page, the big screen and the public API go through
(``public_name``): nothing at all of a player who did not consent to show their first name (the nation they
play, or "Player 7"); the first name and the surname's initial for a minor or when the event hides surnames;
otherwise the first name and surname. Contacts never leave the organisers' pages, API and CSV.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _

from league.exports import csv_text
from league.models import Division, Entry, Event, NationDraw, Registration, Team

# Registrations that hold a place (the others wait, or were removed).
HOLDING = (Registration.Status.PENDING, Registration.Status.APPROVED)
ACTIVE = (*HOLDING, Registration.Status.WAITING)


def neutral_label(registration: Registration) -> str:
    """"Player 7": a player shown without their name."""
    return _("Player %(number)s") % {"number": registration.number}


def public_name(registration: Registration, event: Event, *, nation: str = "") -> str:
    """What the public may see of a player's name (see the module); ``nation``: the card they play, if drawn."""
    if not registration.show_name:
        return nation or neutral_label(registration)
    first = registration.first_name.strip()
    surname = registration.surname.strip()
    if not surname:
        return first
    if registration.minor or event.hide_surnames:
        return f"{first} {surname[0].upper()}."
    return f"{first} {surname}"


def entry_player_name(registration: Registration, event: Event) -> str:
    """The name written on the player's ``Entry`` (shown with the nation on every division page): the public
    name, or nothing for a player shown without a name (the pages show the nation alone)."""
    return public_name(registration, event) if registration.show_name else ""


def event_registrations(event: Event) -> QuerySet[Registration]:
    """Every registration of the event in order of registration, for its organisers: one query."""
    return (Registration.objects.filter(event=event)
            .select_related("division__tournament", "choice", "entry__team", "entry__tournament")
            .order_by("created_at", "id"))


def registration_counts(event: Event) -> dict[str, Any]:
    """How many registrations are pending, approved, waiting; the places and how many are left (None: no cap)."""
    counts = Registration.objects.filter(event=event).aggregate(
        pending=Count("id", filter=Q(status=Registration.Status.PENDING)),
        approved=Count("id", filter=Q(status=Registration.Status.APPROVED)),
        waiting=Count("id", filter=Q(status=Registration.Status.WAITING)))
    held = counts["pending"] + counts["approved"]
    cap = event.registration_cap
    return {**counts, "cap": cap, "left": None if cap is None else max(0, cap - held)}


def waiting_position(registration: Registration) -> int | None:
    """A waiting player's place on the waiting list (1: next to move up); None for the others."""
    if registration.status != Registration.Status.WAITING:
        return None
    return Registration.objects.filter(event_id=registration.event_id, status=Registration.Status.WAITING).filter(
        Q(created_at__lt=registration.created_at) | Q(created_at=registration.created_at, id__lt=registration.pk)
    ).count() + 1


def nations_left(event: Event) -> list[Team]:
    """The nations no active registration of the event has asked for yet: what is left to choose."""
    asked = Registration.objects.filter(event=event, status__in=ACTIVE, choice__isnull=False).values("choice_id")
    return list(Team.objects.filter(is_nation=True).exclude(pk__in=asked).order_by("name"))


def public_players(event: Event) -> list[dict[str, Any]]:
    """The approved players as the public sees them (no surname beyond its initial where hidden, no contact, no
    name at all without consent), with the nation and division they play once drawn. One query."""
    rows = []
    for reg in (Registration.objects.filter(event=event, status=Registration.Status.APPROVED)
                .select_related("entry__team", "division__tournament").order_by("number", "id")):
        team = reg.entry.team if reg.entry is not None else None
        rows.append({"number": reg.number, "name": public_name(reg, event, nation=team.name if team else ""),
                     "team": team, "division": reg.division.tournament if reg.division is not None else None})
    return rows


def event_draws(event: Event) -> list[NationDraw]:
    """The event's nation draws, newest first, with their divisions."""
    return list(NationDraw.objects.filter(event=event).select_related("division__tournament")
                .order_by("-made_at", "-id"))


def draw_reveal(draw: NationDraw, event: Event) -> list[dict[str, Any]]:
    """A draw as the big screen reveals it, card by card: the player's public name, the card (team) and the
    dice throws. Two queries whatever the size of the draw."""
    ids = [row["registration"] for row in draw.outcome]
    regs = Registration.objects.in_bulk(ids)
    teams = Team.objects.in_bulk([row["team"] for row in draw.outcome])
    cards = []
    for row in draw.outcome:
        reg, team = regs.get(row["registration"]), teams.get(row["team"])
        if team is None:
            continue
        name = public_name(reg, event, nation=team.name) if reg is not None else team.name
        throws = [list(t) for t in row.get("throws", [])]
        cards.append({"name": name, "team": team, "throws": throws,
                      "totals": [sum(t) for t in throws]})
    return cards


# --- a dice draw picked live: the throws give the order, then each player in turn picks what is left ----------


def next_turn(draw: NationDraw) -> int | None:
    """The index in ``draw.outcome`` of the player whose turn it is to pick; None: everyone has picked (or the
    draw was dealt at once)."""
    for index, row in enumerate(draw.outcome):
        if row.get("team") is None and not row.get("skipped"):
            return index
    return None


def draws_in_progress(event: Event, division: Division | None = None) -> list[NationDraw]:
    """The event's (or one division's) dice draws still being picked, oldest first."""
    draws = NationDraw.objects.filter(event=event, method=NationDraw.Method.DICE).select_related(
        "division__tournament").order_by("made_at", "id")
    if division is not None:
        draws = draws.filter(division=division)
    return [d for d in draws if next_turn(d) is not None]


def draw_turns(draw: NationDraw, event: Event) -> list[dict[str, Any]]:
    """Every player of a draw in the order of their turn (the dice order), with their public name, throws and
    the card picked (None: not yet), ``state`` "picked", "now", "waiting" or "skipped" (removed before their
    turn), and the card they asked for. Two queries whatever the size of the draw."""
    regs = Registration.objects.in_bulk([row["registration"] for row in draw.outcome])
    teams = Team.objects.in_bulk([row["team"] for row in draw.outcome if row.get("team")]
                                 + [r.choice_id for r in regs.values() if r.choice_id])
    turn = next_turn(draw)
    rows = []
    for index, row in enumerate(draw.outcome):
        reg, team = regs.get(row["registration"]), teams.get(row.get("team") or 0)
        state = ("picked" if team is not None else "skipped" if row.get("skipped")
                 else "now" if index == turn else "waiting")
        throws = [list(t) for t in row.get("throws", [])]
        rows.append({"registration": reg, "team": team, "state": state, "throws": throws,
                     "totals": [sum(t) for t in throws], "turn": index + 1,
                     "wish": teams.get(reg.choice_id) if reg is not None and reg.choice_id else None,
                     "name": (public_name(reg, event, nation=team.name if team else "") if reg is not None
                              else team.name if team else "")})
    return rows


def cards_left(draw: NationDraw) -> list[Team]:
    """The cards of a draw still free to pick in its division, in the order offered (best-ranked first)."""
    taken = drawn_cards(draw.division)
    teams = Team.objects.in_bulk([pk for pk in draw.cards if pk not in taken])
    return [teams[pk] for pk in draw.cards if pk in teams]


def division_choices(event: Event) -> list[Division]:
    """The divisions a player may ask for, in order."""
    return list(event.divisions.select_related("tournament").order_by("order", "id"))


def drawn_cards(division: Division) -> set[int]:
    """The teams already entered in the division (their cards are no longer in the draw)."""
    return set(Entry.objects.filter(tournament_id=division.tournament_id).values_list("team_id", flat=True))


def registrations_csv(event: Event) -> str:
    """The organisers' export: every registration with its contact (formula-safe: ``league.exports.csv_text``)."""
    rows = []
    for reg in event_registrations(event):
        team = reg.entry.team.name if reg.entry is not None else ""
        rows.append([reg.number, reg.first_name, reg.surname, reg.contact, "yes" if reg.minor else "no",
                     "yes" if reg.show_name else "no", reg.status,
                     reg.division.tournament.name if reg.division is not None else "",
                     reg.choice.name if reg.choice is not None else "", team,
                     reg.created_at.isoformat(timespec="seconds")])
    return csv_text(rows, ["number", "first_name", "surname", "contact", "under_18", "name_shown", "status",
                           "division", "asked_for", "plays", "registered_at"])

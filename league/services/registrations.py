"""Writes of an event's registrations: players signing up from the event's link or QR code, the organisers
approving, editing and removing them, the places and the waiting list, and the nation draws that give approved
players their nation (or team card) in a division.

The waiting list is first come, first served: a player who registers once every place is held (pending or
approved) waits; when a place comes free (a player removed, the places raised) the first waiting player moves up
to pending, and that is recorded (``RegistrationChange``). Every write locks the event's row first, so two
players registering at once cannot both take the last place.

A draw (``nations_draw``) makes each drawn player's ``Entry`` in the division through the entry services
(``league.services.teams.entries_add``), with the player's public name as the entry's player name; the draw
itself (method, seed, cards, outcome in the order revealed) is kept (``NationDraw``) and can be replayed with
``league.nation_draws``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _

from league import draws, nation_draws
from league.draws import new_draw_seed
from league.errors import Conflict, DomainError, NotFound
from league.formats import format_of
from league.models import Division, Entry, Event, Fixture, NationDraw, Registration, RegistrationChange, Team
from league.registration_selectors import HOLDING, drawn_cards, draws_in_progress, entry_player_name, next_turn
from league.selectors import teams_for
from league.services.events import event_changed
from league.services.setup import pools_draw
from league.services.teams import entries_add, entry_delete, entry_update, teams_from_rows
from league.stored_texts import Coded
from league.text import clean_text

# What a registration holds (the sign-up form, the organisers' edit form and the API give these).
REGISTRATION_FIELDS = ("first_name", "surname", "contact", "minor", "show_name", "division", "choice")
SETTINGS_FIELDS = ("registration_open", "registration_cap", "hide_surnames")
# However many places, an event keeps at most this many registrations (a flood of sign-ups stops here).
MAX_REGISTRATIONS = 1000
MAX_CAP = 500
MAX_CARDS = 64
# How a division's drawn entries go into its pools: its usual seeded pool draw, or dealt in the order drawn
# (the first drawn to Pool A, the second to Pool B...).
POOLS_SEEDED = "seeded"
POOLS_DRAW_ORDER = "draw_order"
POOL_ORDERS = (POOLS_SEEDED, POOLS_DRAW_ORDER)


def _record(event: Event, action: str, summary: Coded, *, registration: Registration | None = None,
            user: Any = None) -> None:
    # What happened as a code (``league.stored_texts.REGISTRATION_SUMMARIES``): shown in each reader's language.
    RegistrationChange.objects.create(event=event, registration=registration, action=action, summary="",
                                      summary_code=summary.code, summary_params=dict(summary.params),
                                      changed_by=user if getattr(user, "is_authenticated", False) else None)


def _lock(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def _label(registration: Registration) -> str:
    """How the trail names a player: their number and first name (no surname, no contact)."""
    return f"#{registration.number} {registration.first_name}"


# --- checks ------------------------------------------------------------------------------------------------------


def registration_values_validate(event: Event, values: dict[str, Any], *, public: bool,
                                 user: Any = None) -> dict[str, Any]:
    """The registration's fields checked and tidied; field errors otherwise. ``public``: the sign-up form (a
    player may ask only for a nation still left); an organiser may also give one of their own team cards."""
    unknown = sorted(set(values) - set(REGISTRATION_FIELDS))
    if unknown:
        raise DomainError({name: [_("This cannot be set on a registration.")] for name in unknown})
    out = dict(values)
    errors: dict[str, list[str]] = {}
    for name, label_max in (("first_name", 60), ("surname", 60)):
        if name in out:
            out[name] = clean_text(out[name])
            if len(out[name]) > label_max:
                errors[name] = [_("At most %(count)s characters.") % {"count": label_max}]
    if "first_name" in out and not out["first_name"]:
        errors["first_name"] = [_("Give your first name.")]
    if "surname" in out and not out["surname"]:
        errors["surname"] = [_("Give your surname (the public pages show only its initial if you wish).")]
    if "contact" in out:
        out["contact"] = clean_text(out["contact"])
        if len(out["contact"]) > 120:
            errors["contact"] = [_("At most %(count)s characters.") % {"count": 120}]
    for name in ("minor", "show_name"):
        if name in out and not isinstance(out[name], bool):
            errors[name] = [_("Answer yes or no.")]
    division = out.get("division")
    if division is not None and (not isinstance(division, Division) or division.event_id != event.pk):
        errors["division"] = [_("Choose one of this event's divisions.")]
    choice = out.get("choice")
    if choice is not None:
        if not isinstance(choice, Team) or (public and not choice.is_nation):
            errors["choice"] = [_("Choose a nation from the list.")]
        elif not public and not choice.is_nation and not teams_for(user).filter(pk=choice.pk).exists():
            errors["choice"] = [_("Choose a nation or one of your own team cards.")]
    if errors:
        raise DomainError(errors)
    return out


def _check_choice_free(event: Event, registration: Registration) -> None:
    if registration.choice_id is None:
        return
    taken = (Registration.objects.filter(event=event, status__in=(*HOLDING, Registration.Status.WAITING),
                                         choice_id=registration.choice_id).exclude(pk=registration.pk))
    if taken.exists():
        raise DomainError({"choice": [_("%(nation)s has just been chosen by another player: choose another.")
                                      % {"nation": registration.choice.name if registration.choice else ""}]})


def _check_not_twice(event: Event, registration: Registration) -> None:
    same = Registration.objects.filter(event=event, first_name__iexact=registration.first_name,
                                       surname__iexact=registration.surname).exclude(
        status=Registration.Status.REMOVED).exclude(pk=registration.pk)
    if same.exists():
        raise DomainError({"first_name": [_("%(name)s is already registered for this event.")
                                          % {"name": f"{registration.first_name} {registration.surname}"}]})


def _held(event: Event) -> int:
    return Registration.objects.filter(event=event, status__in=HOLDING).count()


def _has_room(event: Event) -> bool:
    return event.registration_cap is None or _held(event) < event.registration_cap


def _move_up(event: Event, user: Any, removed: Registration | None = None) -> list[Registration]:
    """While a place is free, the first waiting player moves up to pending; each move recorded with why: the
    player ``removed``, or more places."""
    moved = []
    while _has_room(event):
        first = (Registration.objects.filter(event=event, status=Registration.Status.WAITING)
                 .order_by("created_at", "id").first())
        if first is None:
            break
        first.status = Registration.Status.PENDING
        first.save(update_fields=["status"])
        why = (Coded("moved_up_after_removal", {"player": _label(first), "removed": _label(removed)})
               if removed is not None else Coded("moved_up_more_places", {"player": _label(first)}))
        _record(event, RegistrationChange.Action.MOVED_UP, why, registration=first, user=user)
        moved.append(first)
    return moved


# --- the event's registration settings -----------------------------------------------------------------------


def registration_settings_save(*, event: Event, user: Any = None, **values: Any) -> Event:
    """Open or close registration, set the places (None: no limit) and whether surnames are hidden. More
    places move waiting players up, first come first served; fewer places than are held is refused."""
    unknown = sorted(set(values) - set(SETTINGS_FIELDS))
    if unknown:
        raise DomainError({name: [_("This cannot be set here.")] for name in unknown})
    cap = values.get("registration_cap")
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= MAX_CAP):
        raise DomainError({"registration_cap": [_("Give a whole number from %(low)s to %(high)s, or leave it "
                                                  "empty for no limit.") % {"low": 1, "high": MAX_CAP}]})
    for name in ("registration_open", "hide_surnames"):
        if name in values and not isinstance(values[name], bool):
            raise DomainError({name: [_("Answer yes or no.")]})
    with transaction.atomic():
        locked = _lock(event)
        if "registration_cap" in values and cap is not None and cap < _held(locked):
            raise Conflict({"registration_cap": [
                _("%(held)s players already hold a place: remove some first, or give at least %(held)s places.")
                % {"held": _held(locked)}]}, reason="below_held")
        old = {name: getattr(locked, name) for name in SETTINGS_FIELDS}
        for name, value in values.items():
            setattr(locked, name, value)
        locked.save(update_fields=[*values] if values else None)
        changed = [name for name in SETTINGS_FIELDS if old[name] != getattr(locked, name)]
        if changed:
            _record(locked, RegistrationChange.Action.SETTINGS, Coded("settings_changed", {"changes": [
                [name, old[name], getattr(locked, name)] for name in changed]}), user=user)
        if "registration_cap" in changed:
            _move_up(locked, user)
        # The entries' public names follow "hide surnames".
        if "hide_surnames" in changed:
            for reg in Registration.objects.filter(event=locked, entry__isnull=False).select_related("entry"):
                _sync_entry(reg, locked)
        event_changed(locked)
    for name in (*SETTINGS_FIELDS, "version"):
        setattr(event, name, getattr(locked, name))
    return event


# --- registrations -----------------------------------------------------------------------------------------------


def registration_create(*, event: Event, first_name: str, surname: str, contact: str = "", minor: bool = False,
                        show_name: bool = False, division: Division | None = None, choice: Team | None = None,
                        user: Any = None, by_organiser: bool = False) -> Registration:
    """A player registers (``by_organiser``: an organiser adds them, even while registration is closed). They
    hold a place (pending the organisers' approval) while places are left, otherwise they wait."""
    values = registration_values_validate(event, {
        "first_name": first_name, "surname": surname, "contact": contact, "minor": minor, "show_name": show_name,
        "division": division, "choice": choice}, public=not by_organiser, user=user)
    with transaction.atomic():
        locked = _lock(event)
        if not locked.registration_open and not by_organiser:
            raise Conflict(_("Registration for %(event)s is closed.") % {"event": locked.name}, reason="closed")
        if Registration.objects.filter(event=locked).count() >= MAX_REGISTRATIONS:
            raise Conflict(_("This event cannot take more registrations."), reason="full")
        registration = Registration(event=locked, **values)
        _check_not_twice(locked, registration)
        _check_choice_free(locked, registration)
        registration.status = (Registration.Status.PENDING if _has_room(locked)
                               else Registration.Status.WAITING)
        registration.number = (Registration.objects.filter(event=locked).aggregate(m=Max("number"))["m"] or 0) + 1
        registration.save()
        where = ("registered_waiting" if registration.status == Registration.Status.WAITING
                 else "registered_place")
        _record(locked, RegistrationChange.Action.REGISTERED, Coded(where, {"player": _label(registration)}),
                registration=registration, user=user)
        event_changed(locked)
    return registration


def _sync_entry(registration: Registration, event: Event) -> None:
    """The player's entry shows their public name as it is now."""
    if registration.entry is None:
        return
    name = entry_player_name(registration, event)
    if registration.entry.player_name != name:
        entry_update(entry=registration.entry, player_name=name)


def _locked_registration(event: Event, registration: Registration) -> Registration:
    found = (Registration.objects.select_for_update(of=("self",)).select_related("entry", "choice")
             .filter(pk=registration.pk, event=event).first())
    if found is None:
        raise NotFound(_("No such registration in this event."))
    return found


def registration_update(*, registration: Registration, user: Any = None, **fields: Any) -> Registration:
    """An organiser corrects a registration (names, contact, under 18, consent, division, nation asked for); a
    drawn player's entry shows the new public name."""
    event = registration.event
    values = registration_values_validate(event, fields, public=False, user=user)
    with transaction.atomic():
        locked_event = _lock(event)
        reg = _locked_registration(locked_event, registration)
        if reg.status == Registration.Status.REMOVED:
            raise Conflict(_("This player was removed."), reason="removed")
        changed = [name for name, value in values.items() if getattr(reg, name) != value]
        for name, value in values.items():
            setattr(reg, name, value)
        _check_not_twice(locked_event, reg)
        _check_choice_free(locked_event, reg)
        reg.save()
        _sync_entry(reg, locked_event)
        if changed:
            _record(locked_event, RegistrationChange.Action.EDITED, Coded("edited", {
                "player": _label(reg), "fields": ", ".join(changed)}), registration=reg, user=user)
        event_changed(locked_event)
    return reg


def registration_approve(*, registration: Registration, user: Any = None) -> Registration:
    """An organiser approves a player holding a place (or a waiting one while a place is free)."""
    with transaction.atomic():
        event = _lock(registration.event)
        reg = _locked_registration(event, registration)
        if reg.status == Registration.Status.APPROVED:
            return reg
        if reg.status == Registration.Status.REMOVED:
            raise Conflict(_("This player was removed: they register again to come back."), reason="removed")
        if reg.status == Registration.Status.WAITING and not _has_room(event):
            raise Conflict(_("Every place is taken: give more places or remove a player first, then approve "
                             "%(player)s.") % {"player": reg.first_name}, reason="no_place")
        reg.status = Registration.Status.APPROVED
        reg.save(update_fields=["status"])
        _record(event, RegistrationChange.Action.APPROVED, Coded("approved", {"player": _label(reg)}),
                registration=reg, user=user)
        event_changed(event)
    return reg


def registrations_approve_all(*, event: Event, user: Any = None) -> int:
    """Approve every player holding a place (pending); returns how many."""
    pending = list(Registration.objects.filter(event=event, status=Registration.Status.PENDING)
                   .order_by("created_at", "id"))
    with transaction.atomic():
        for reg in pending:
            registration_approve(registration=reg, user=user)
    return len(pending)


def registration_remove(*, registration: Registration, user: Any = None) -> Registration:
    """An organiser removes a player: their entry leaves the division (refused once it has results: withdraw it
    on the division's page instead), and the first waiting player moves up into the place."""
    with transaction.atomic():
        event = _lock(registration.event)
        reg = _locked_registration(event, registration)
        if reg.status == Registration.Status.REMOVED:
            return reg
        if reg.entry is not None:
            entry_delete(entry=reg.entry, user=user)
            reg.entry = None
        reg.status = Registration.Status.REMOVED
        reg.save(update_fields=["status", "entry"])
        for draw in draws_in_progress(event):  # a player removed before their turn to pick is passed over
            for row in draw.outcome:
                if row["registration"] == reg.pk and row.get("team") is None:
                    row["skipped"] = True
                    draw.save(update_fields=["outcome"])
        _record(event, RegistrationChange.Action.REMOVED, Coded("removed", {"player": _label(reg)}),
                registration=reg, user=user)
        _move_up(event, user, removed=reg)
        event_changed(event)
    return reg


# --- nation draws ------------------------------------------------------------------------------------------------


def team_cards_create(*, names: Sequence[str], user: Any = None) -> list[Team]:
    """Custom team cards (a school, a club) instead of nations: the organiser's own teams, found or made."""
    names = [clean_text(n) for n in names if clean_text(n)]
    if len(names) > MAX_CARDS:
        raise DomainError({"custom_cards": [_("At most %(count)s cards.") % {"count": MAX_CARDS}]})
    return teams_from_rows(rows=[{"name": name, "line": i} for i, name in enumerate(names, start=1)], owner=user)


def nations_draw(*, event: Event, division: Division, method: str, cards: Sequence[Team], user: Any = None,
                 seed: int | None = None, pools: str = "", live: bool = False) -> NationDraw:
    """Give the division's approved players who have no nation yet a card each (``league.nation_draws``): the
    players' choice, a random draw or dice throws, from ``cards`` (nations or team cards, best first). Each
    drawn player gets an ``Entry`` in the division (player name: their public name). The draw is kept with its
    seed (a fresh one unless given) and outcome, in the order the big screen reveals it. ``pools`` (one of
    ``POOL_ORDERS``): the division's entries then go into its pools in the same step (``division_pools_fill``).

    ``live`` (dice throws only): the throws decide the order and nothing more; each player then picks a card in
    turn from what is left (``nation_pick``), as it happens on the big screen. The draw is kept from the start
    with the order and the throws; each pick fills it in."""
    if method not in nation_draws.METHODS:
        raise DomainError({"method": [_("Choose the players' choice, a random draw or dice throws.")]})
    if live and method != nation_draws.DICE:
        raise DomainError({"method": [_("Only a dice draw can be picked in turn.")]})
    if live and pools:
        raise DomainError({"pools": [_("Put the players into pools once everyone has picked.")]})
    if division.event_id != event.pk:
        raise NotFound(_("No such division in this event."))
    if seed is not None and (isinstance(seed, bool) or not 0 <= seed < 2 ** 63):
        raise DomainError({"seed": [_("Give a whole number from 0 upwards as the seed.")]})
    if method != nation_draws.CHOICE and seed is None:
        seed = new_draw_seed()
    if method == nation_draws.CHOICE:
        seed = None
    with transaction.atomic():
        locked = _lock(event)
        tournament = division.tournament
        picking = draws_in_progress(locked)
        if any(d.division_id == division.pk for d in picking):
            raise Conflict(_("The players of %(division)s are still picking in turn: finish that draw first.")
                           % {"division": tournament.name}, reason="draw_in_progress")
        # Players still waiting for their turn in another division's draw are that draw's.
        busy = [row["registration"] for d in picking for row in d.outcome]
        # The players who asked for this division, and those who asked for none.
        players = list(Registration.objects.select_for_update(of=("self",))
                       .filter(Q(division__isnull=True) | Q(division=division), event=locked,
                               status=Registration.Status.APPROVED, entry__isnull=True)
                       .exclude(pk__in=busy).order_by("created_at", "id"))
        if not players:
            raise DomainError(_("No approved player of %(division)s is waiting for a nation: approve players "
                                "first.") % {"division": tournament.name})
        used = drawn_cards(division)
        offered = []
        for card in cards:
            if card.pk not in used and card not in offered:
                offered.append(card)
        if len(offered) < len(players):
            raise DomainError({"cards": [_("%(players)s players but %(cards)s cards left to give: add nations or "
                                           "team cards.") % {"players": len(players), "cards": len(offered)}]})
        by_id = {r.pk: r for r in players}
        if live:
            return _live_draw(locked, division, players, offered, seed, user)
        wishes: dict[Hashable, Hashable] = {r.pk: r.choice_id for r in players if r.choice_id is not None}
        try:
            picks = nation_draws.draw(method, [r.pk for r in players], [c.pk for c in offered], wishes, seed=seed)
        except nation_draws.NationDrawError as exc:
            if exc.players:
                names = ", ".join(by_id[p].first_name if p in by_id else str(p) for p in exc.players)
                raise DomainError({"method": [_("These players have not asked for a free nation or team: %(names)s. "
                                                "Edit what they asked for, or use a random or dice draw.")
                                              % {"names": names}]})
            raise DomainError({"method": [str(exc)]})
        teams = {c.pk: c for c in offered}
        for pick in picks:
            reg = by_id[pick.player]  # type: ignore[index]
            team = teams[pick.card]  # type: ignore[index]
            entry = entries_add(tournament=tournament, teams=[team], user=user,
                                player_name=entry_player_name(reg, locked))[0]
            reg.entry, reg.division = entry, division
            reg.save(update_fields=["entry", "division"])
        draw = NationDraw.objects.create(
            event=locked, division=division, method=method, seed=seed, cards=[c.pk for c in offered],
            outcome=[{"registration": p.player, "team": p.card, "throws": p.throws} for p in picks],
            made_by=user if getattr(user, "is_authenticated", False) else None)
        params = {"count": len(picks), "division": tournament.name, "method": str(draw.method)}
        _record(locked, RegistrationChange.Action.DRAWN, Coded("drawn", params) if seed is None
                else Coded("drawn_seed", {**params, "seed": seed}), user=user)
        if pools:
            division_pools_fill(event=locked, division=division, order=pools, user=user)
        event_changed(locked)
    return draw


def _live_draw(event: Event, division: Division, players: list[Registration], offered: list[Team], seed: Any,
               user: Any) -> NationDraw:
    """A dice draw whose players pick in turn: the throws and the order stored, no card given yet."""
    order, throws = nation_draws.dice_order([r.pk for r in players], seed=seed)
    draw = NationDraw.objects.create(
        event=event, division=division, method=NationDraw.Method.DICE, seed=seed, cards=[c.pk for c in offered],
        outcome=[{"registration": p, "team": None, "throws": throws[p]} for p in order],
        made_by=user if getattr(user, "is_authenticated", False) else None)
    _record(event, RegistrationChange.Action.DRAWN, Coded("dice_thrown", {
        "count": len(order), "division": division.tournament.name, "seed": seed}), user=user)
    event_changed(event)
    return draw


def nation_pick(*, draw: NationDraw, team: Team, user: Any = None) -> NationDraw:
    """The player whose turn it is in a dice draw picked in turn takes ``team`` (a card of the draw still free in
    the division): their entry is made, the pick stored in the draw and recorded. A player removed before their
    turn is skipped. Refused when everyone has picked or the card is not free."""
    with transaction.atomic():
        event = _lock(draw.event)
        locked = NationDraw.objects.select_for_update().select_related("division__tournament").get(pk=draw.pk)
        tournament = locked.division.tournament
        reg: Registration | None = None
        while (turn := next_turn(locked)) is not None:
            row = locked.outcome[turn]
            reg = Registration.objects.select_for_update().filter(pk=row["registration"]).first()
            if reg is not None and reg.status == Registration.Status.APPROVED and reg.entry_id is None:
                break
            row["skipped"] = True
        if turn is None or reg is None:
            raise Conflict(_("Everyone in this draw has picked."), reason="draw_finished")
        if team.pk not in locked.cards or team.pk in drawn_cards(locked.division):
            raise DomainError({"team": [_("%(team)s is not free in %(division)s: pick another.")
                                        % {"team": team.name, "division": tournament.name}]})
        entry = entries_add(tournament=tournament, teams=[team], user=user,
                            player_name=entry_player_name(reg, event))[0]
        reg.entry, reg.division = entry, locked.division
        reg.save(update_fields=["entry", "division"])
        row["team"] = team.pk
        locked.save(update_fields=["outcome"])
        _record(event, RegistrationChange.Action.DRAWN, Coded("picked", {
            "player": _label(reg), "team": team.name, "division": tournament.name, "turn": turn + 1,
            "count": len(locked.outcome)}), registration=reg, user=user)
        event_changed(event)
    draw.outcome = locked.outcome
    return draw


def _draw_order(division: Division) -> list[int]:
    """The division's entries in the order its nation draws gave them (earlier draws first), then the others by
    seed."""
    order: list[int] = []
    by_registration = dict(Registration.objects.filter(division=division, entry__isnull=False)
                           .values_list("pk", "entry_id"))
    for draw in NationDraw.objects.filter(division=division).order_by("made_at", "id"):
        order += [by_registration[row["registration"]] for row in draw.outcome
                  if by_registration.get(row.get("registration")) is not None]
    seen = set(order)
    others = Entry.objects.filter(tournament_id=division.tournament_id).exclude(pk__in=seen)
    return [*dict.fromkeys(order), *others.order_by("seed", "id").values_list("pk", flat=True)]


def division_pools_fill(*, event: Event, division: Division, order: str = POOLS_SEEDED, user: Any = None,
                        seed: int | None = None) -> dict[str, list[str]]:
    """Put the division's entries (the players the nation draws gave nations, and any others) into the division's
    pools: by its usual seeded pool draw (``order`` "seeded", with ``seed``) or dealt in the order drawn ("draw_order":
    the first drawn to Pool A, the second to Pool B...). The entries are not touched otherwise, so doing it again
    re-draws the pools and never enters anyone twice. Refused once the division has fixtures (clear them first),
    and for a division whose format has no pools. Returns {pool name: [team codes]}."""
    if order not in POOL_ORDERS:
        raise DomainError({"pools": [_("Put the players into pools by the seeded draw or in the order drawn.")]})
    if division.event_id != event.pk:
        raise NotFound(_("No such division in this event."))
    tournament = division.tournament
    fmt = format_of(tournament)
    if not fmt.needs_draw:
        raise DomainError({"pools": [_("%(division)s has no pools: its players are its entries already. Make its "
                                       "fixtures next.") % {"division": tournament.name}]})
    with transaction.atomic():
        locked = _lock(event)
        if Fixture.objects.filter(tournament=tournament).exists():
            raise Conflict(_("%(division)s has fixtures already: clear them on its fixtures page before putting "
                             "the players into pools again.") % {"division": tournament.name}, reason="has_fixtures")
        entries = _draw_order(division)
        if len(entries) < 2:
            raise DomainError({"pools": [_("%(division)s has fewer than two players with a nation: draw the "
                                           "nations first.") % {"division": tournament.name}]})
        count = min(fmt.pool_count(tournament), len(entries) // 2)
        names = draws.pool_names(max(1, count))
        if order == POOLS_DRAW_ORDER:
            codes = dict(Entry.objects.filter(pk__in=entries).values_list("pk", "team__code"))
            assignment = {codes[pk]: names[i % len(names)] for i, pk in enumerate(entries)}
            drawn = pools_draw(tournament=tournament, method=draws.MANUAL, pools=names, assignment=assignment,
                               generate_fixtures=False, user=user)
        else:
            drawn = pools_draw(tournament=tournament, method=draws.SEEDED, pools=names, seed=seed,
                               generate_fixtures=False, user=user)
        _record(locked, RegistrationChange.Action.DRAWN, Coded("pools_filled", {
            "division": tournament.name, "count": len(names), "order": order}), user=user)
        event_changed(locked)
    return drawn


"""Web pages of online play: join by code, play, watch, replay, manage, start and friendlies.

Live updates use htmx polling with conditional requests rather than websockets:

* the play/watch page polls its board fragment every second (``hx-trigger="every 1s"``) and sends
  the ETag of what it shows in ``If-None-Match``; while nothing changed the server answers
  ``304 Not Modified`` after one indexed primary-key query (no engine replay, no template), and htmx
  is configured not to swap on 304. A move shows up on the other screens within about a second;
* it needs no Channels/ASGI server, no long-lived connections and no extra process: the same
  gunicorn workers and any number of them behind a load balancer serve it, with PostgreSQL as
  the only shared state;
* plain short HTTP requests go through school and club proxies and firewalls that often break
  websockets, and a phone that drops off the network simply resumes polling;
* the pages work without JavaScript too (forms post and redirect; the page can be reloaded).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.http import Http404, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import select_template
from django.utils.cache import patch_cache_control
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from engine import get_ruleset, get_spec, rulesets
from engine.core import GameState
from engine.help import cards_for, help_for
from league import live_selectors
from league.clients import limit_wait
from league.errors import error_text
from league.levels import DEFAULT_LEVEL, level_choices
from league.live_views import scorer_url
from league.models import Fixture
from league.permissions import tournament_for
from league.share import qr_svg_inline
from league.templatetags.league_tags import side_name
from matches import boards, permissions, selectors, services
from matches.forms import FriendlyForm, JoinForm
from matches.models import EntryPass, Match, MatchEvent, MatchSeat, normalise_code

# Join codes: at most settings.JOIN_FAILURE_RATE wrong codes per client (30 per 10 minutes), then 429. Generous,
# because a whole school's pupils often share one public address, and still hopeless for guessing: a code has
# about 59 bits. The client is league.clients.client_ip: behind the site's own proxy, the address the proxy saw.
JOIN_FAILURES = "join-failures"


def _match_or_404(pk) -> Match:
    try:
        return selectors.get_match(pk)
    except Match.DoesNotExist:
        raise Http404("No such match.")


def _join_wait(request) -> int | None:
    """Seconds this client must wait before trying a code again (None: go ahead)."""
    return limit_wait(request, group=JOIN_FAILURES, rate=settings.JOIN_FAILURE_RATE, increment=False)


def _join_failed(request) -> None:
    limit_wait(request, group=JOIN_FAILURES, rate=settings.JOIN_FAILURE_RATE)


def _find_code(code: str):
    """The seat or entry pass a code opens, or None."""
    code = normalise_code(code)
    if len(code) < 8:
        return None
    seat = MatchSeat.objects.select_related("match", "entry__team").filter(join_code=code).first()
    if seat is not None:
        return seat
    return EntryPass.objects.select_related("entry__team", "entry__tournament").filter(code=code).first()


def _remember(request, key: str, value: int) -> None:
    held = list(request.session.get(key, []))
    if value not in held:
        held.append(value)
        request.session[key] = held[-50:]


def _sign_in_with(request, found) -> str:
    """Bind the session to what a code opens; return the URL to go to next."""
    if isinstance(found, MatchSeat):
        if found.kind == MatchSeat.Kind.COMPUTER:
            raise PermissionDenied("This seat is played by the computer now.")
        _remember(request, permissions.SESSION_SEATS, found.pk)
        services.seat_join(seat=found, user=request.user)
        return f"/matches/{found.match_id}/"
    _remember(request, permissions.SESSION_ENTRIES, found.entry_id)
    live = Match.objects.filter(seats__entry_id=found.entry_id, status=Match.Status.LIVE).order_by("-id").first()
    if live is not None:
        for seat in live.seats.filter(entry_id=found.entry_id):
            services.seat_join(seat=seat, user=request.user)
        return f"/matches/{live.pk}/"
    if selectors.solo_attempts_to_start([found.entry_id]):
        messages.info(request, _("You are signed in as %(name)s. Start your attempt when you are ready.")
                      % {"name": found.entry.team.name})
        return "/matches/mine/"
    messages.info(request, _("You are signed in as %(name)s. Your match is not live yet: come back to this page "
                             "when the organiser starts it.") % {"name": found.entry.team.name})
    return "/matches/mine/"


def _blocked(request, form, wait: int):
    response = render(request, "matches/join.html", {"form": form, "blocked": True}, status=429)
    response["Retry-After"] = str(wait)
    return response


def join(request):
    """The form where a pupil types the code from their sheet; signs the browser into that seat only."""
    form = JoinForm(request.POST or None)
    if request.method == "POST":
        wait = _join_wait(request)
        if wait:
            return _blocked(request, form, wait)
        if form.is_valid():
            found = _find_code(form.cleaned_data["code"])
            if found is None:
                _join_failed(request)
                form.add_error("code", "That code does not open any seat. Check it and try again.")
            else:
                return redirect(_sign_in_with(request, found))
    return render(request, "matches/join.html", {"form": form})


def join_code(request, code):
    """A personal join link: shows whose seat it is and asks to confirm (link previews change nothing)."""
    wait = _join_wait(request)
    if wait:
        return _blocked(request, JoinForm(), wait)
    found = _find_code(code)
    if found is None:
        _join_failed(request)
        raise Http404("That code does not open any seat.")
    if request.method == "POST":
        return redirect(_sign_in_with(request, found))
    return render(request, "matches/join_confirm.html", {"found": found, "code": normalise_code(code),
                                                         "is_seat": isinstance(found, MatchSeat)})


def my_matches(request):
    """The live matches of the seats and entries this browser holds; the list refreshes itself every few seconds
    (``?fragment=1`` is the list alone), so a pupil waiting for the organiser sees their match appear."""
    seat_ids = request.session.get(permissions.SESSION_SEATS, [])
    entry_ids = request.session.get(permissions.SESSION_ENTRIES, [])
    qs = selectors.match_queryset().filter(status=Match.Status.LIVE)
    cond = Q(seats__pk__in=seat_ids) | Q(seats__entry_id__in=entry_ids)
    if request.user.is_authenticated:
        cond |= Q(seats__user=request.user) | Q(seats__entry__player=request.user)
    matches = list(qs.filter(cond).distinct()[:50])
    attempts = selectors.solo_attempts_to_start(_held_entries(request))
    names = {spec.id: spec.name for spec in rulesets()}
    rows = [(m, names.get(m.ruleset, m.ruleset)) for m in matches]
    template = "matches/_mine_list.html" if request.GET.get("fragment") else "matches/mine.html"
    response = render(request, template, {"rows": rows, "attempts": attempts})
    patch_cache_control(response, no_cache=True, private=True)
    return response


def _held_entries(request) -> set[int]:
    """The entries this browser plays: by pass code in the session, or as the signed-in player."""
    held = set(request.session.get(permissions.SESSION_ENTRIES, []))
    if request.user.is_authenticated:
        held.update(request.user.entries.values_list("pk", flat=True))
    return held


@require_POST
def start_attempt(request, fixture_pk):
    """A solo player starts one of their own attempts and goes to its page."""
    fixture = get_object_or_404(Fixture, pk=fixture_pk)
    try:
        match = services.match_start_solo_attempt(fixture=fixture, entry_ids=_held_entries(request),
                                                  user=request.user)
    except ValidationError as exc:
        if getattr(exc, "data", {}).get("match"):
            messages.info(request, error_text(exc))
            return redirect("matches:play", pk=exc.data["match"])
        messages.error(request, error_text(exc))
        return redirect("matches:mine")
    if match.status == Match.Status.LIVE:
        for seat in match.seats.filter(entry_id=fixture.home_id):
            services.seat_join(seat=seat, user=request.user)
    return redirect("matches:play", pk=match.pk)


# ---- play ----------------------------------------------------------------------------------------


def _board_template(kind: str) -> str:
    """The board drawing's template: the rule set's own, or the generic layout."""
    return select_template([f"matches/boards/{kind}.html", "matches/boards/generic.html"]).template.name


def _legend_template(kind: str) -> str:
    """The board kind's legend (what its colours and marks mean), or "" when it has none."""
    try:
        return select_template([f"matches/boards/{kind}.legend.html"]).template.name
    except TemplateDoesNotExist:  # a kind without a legend (the generic layout)
        return ""


def _help(match_or_ruleset) -> dict:
    ruleset = getattr(match_or_ruleset, "ruleset", match_or_ruleset)
    return help_for(ruleset, get_language() or "en")


def _score_context(match: Match, data: dict, state: GameState, seat: int | None) -> dict:
    """The scoreboard's figures: the result as the fixture and the standings count it, and -- where the rule set
    counts differently in the game (Seasons: a halved season is ½ each; the result counts whole seasons) --
    the game's own figure beside it, explained."""
    scoring = state.spec.scoring
    score = data.get("score") or {}
    sides = []
    differs = False
    for s in data["seats"]:
        mine = score.get(s["side"]) or {}
        game = boards.score_text(mine.get("points", 0))
        if scoring.score_stat:
            points = str((mine.get("stats") or {}).get(scoring.score_stat, 0))
            differs = differs or points != game
        else:
            points, game = game, ""
        sides.append({**s, "points": points, "game": game, "tries": mine.get("tries", 0) or 0,
                      "acting": s["seat"] in data["to_act"] and match.status == Match.Status.LIVE,
                      "you": seat is not None and s["seat"] == seat})
    if not differs:
        for side in sides:
            side["game"] = ""
    note = _("Large figures: the result, as the fixture and the standings count it; small: the game's own "
             "count.") if differs else ""
    return {"score_sides": sides, "score_note": note}


def _notices(match: Match, data: dict) -> list[dict]:
    """Lines the players must read: a seat handed to the computer (the move clock, the organiser), a draw
    declined just now."""
    names = {s["seat"]: s["name"] for s in data["seats"]}
    out = []
    for event in selectors.match_events(match):
        name = names.get(event.seat, "")
        if event.kind == MatchEvent.Kind.CLOCK:
            text = _("The move clock ran out for %(name)s: the computer plays their seat from now on.") % {
                "name": name}
        elif event.kind == MatchEvent.Kind.REPLACED:
            text = _("The organiser gave %(name)s's seat to the computer.") % {"name": name}
        elif event.kind == MatchEvent.Kind.DRAW_DECLINED and event.ply == match.ply:
            text = _("%(name)s declined the draw: play on.") % {"name": name}
        else:
            continue
        out.append({"kind": event.kind, "text": text})
    return out


def _live_context(request, match: Match, seat: int | None, *, spectator: bool, error: str = "",
                  state=None) -> dict:
    if state is None:
        state = services.match_state(match)
    data = selectors.match_view(match, state, seat)
    spec = state.spec
    help_data = _help(match)
    board = boards.board_context(spec.board_kind, data["view"], seat, data, help_data)
    previews = state.action_previews(seat) if data["legal_actions"] and seat is not None else {}
    live = match.status == Match.Status.LIVE
    waiting_seat = live and any(s["kind"] == MatchSeat.Kind.OPEN for s in data["seats"])
    seats = {s["seat"]: s for s in data["seats"]}
    player = seat is not None and not spectator and live and seats.get(seat, {}).get("kind") != "computer"
    draw: dict = {}
    if player and not waiting_seat:
        other = seats.get(1 - seat) or {}
        draw = {"offered_to_me": match.draw_offer == 1 - seat, "offered_by": other.get("name", ""),
                "offered_by_me": match.draw_offer == seat,
                "can_offer": match.draw_offer is None and other.get("kind") == MatchSeat.Kind.PERSON
                and services.draw_allowed(match, state)}
    clock = None
    deadline = selectors.clock_deadline(match)
    if deadline is not None and not waiting_seat:
        late = [s for s in data["seats"] if s["seat"] in data["to_act"] and s["kind"] == MatchSeat.Kind.PERSON]
        if late:
            clock = {"deadline": deadline, "seconds": match.move_clock, "who": " / ".join(s["name"] for s in late),
                     "mine": seat is not None and any(s["seat"] == seat for s in late)}
    return {
        "match": match, "data": data, "seat": seat, "spectator": spectator, "error": error,
        "etag": selectors.match_etag(match, seat),
        "board": board, "board_template": _board_template(board["kind"]),
        "legend_template": _legend_template(board["kind"]), "help": help_data,
        "counts_tries": spec.scoring.counts_tries, "solo": spec.solo,
        "buttons": boards.action_buttons(spec.board_kind, data["legal_actions"], previews, help_data),
        "waiting_for": _(" and ").join(s["name"] + (" " + _("(computer)") if s["kind"] == "computer" else "")
                                      for s in data["seats"] if s["seat"] in data["to_act"]),
        "waiting_seat": waiting_seat, "draw": draw, "can_resign": player and not waiting_seat, "clock": clock,
        "notices": _notices(match, data),
        "can_manage": permissions.can_manage(request.user, match),
        "poll": live,
        **_score_context(match, data, state, seat),
    }


def _archived(request, match: Match, seat: int | None, *, reason: str = "") -> object:
    """A match the engine cannot replay (recorded under other rules): its stored final position, result and log,
    with a note. While it is live, the other seat's moves stay hidden as everywhere else."""
    try:
        spec = get_spec(match.ruleset)
        current, name, hidden = spec.rules_version, spec.name, spec.hidden_information
    except KeyError:
        current, name, hidden = "", match.ruleset, True
    seats = sorted(match.seats.all(), key=lambda s: s.seat)
    names = {s.seat: s.label for s in seats}
    log = []
    for logged in selectors.match_actions(match):  # online moves' rows, or a simulated match's one-row log
        visible = selectors.action_visible(match, logged.seat, seat, hidden)
        log.append({"ply": logged.ply, "seat": logged.seat, "by_computer": logged.by_computer,
                    "created_at": logged.created_at, "name": names.get(logged.seat, ""),
                    "action": logged.action if visible else _("a hidden move")})
    outcome = match.outcome or {}
    score = [(names.get(n, ""), (outcome.get(side) or {}).get("points")) for n, side in ((0, "home"), (1, "away"))]
    result = getattr(match.fixture, "result", None) if match.fixture_id else None
    context = {"match": match, "ruleset_name": name, "stored_version": match.rules_version or "?",
               "current_version": current, "log": log, "score": score, "result": result, "reason": reason,
               "events": selectors.match_events(match), "names": names,
               "can_manage": permissions.can_manage(request.user, match)}
    return render(request, "matches/archived.html", context)


def _state_or_none(match: Match, upto: int | None = None) -> GameState | None:
    """The match's engine state, or None when its log does not replay on today's rules."""
    return services.match_state_or_none(match, upto=upto)


def _expire_clock(match: Match) -> bool:
    """Let the move clock hand late seats to the computer (any page or poll of the match does it)."""
    if selectors.clock_due(match):
        return services.match_clock_expire(match=match)
    return False


def _seat_for(request, match: Match, spectator: bool) -> int | None:
    if spectator:
        return None
    requested = request.GET.get("seat")
    return permissions.viewer_seat(match, user=request.user, session=request.session,
                                 requested=int(requested) if requested in ("0", "1") else None)


def _check_watch(request, match: Match, seat: int | None) -> None:
    if seat is None and not permissions.can_watch(request.user, match):
        raise Http404("No such match.")


def play(request, pk):
    """The play page: your seat's view, or the spectator view if you hold no seat."""
    match = _match_or_404(pk)
    seat = _seat_for(request, match, spectator=False)
    _check_watch(request, match, seat)
    if _expire_clock(match):
        match = _match_or_404(pk)
    state = _state_or_none(match)
    if state is None:
        return _archived(request, match, seat)
    return render(request, "matches/play.html", _live_context(request, match, seat, spectator=seat is None,
                                                              state=state))


def watch(request, pk):
    """The public, read-only spectator page."""
    match = _match_or_404(pk)
    _check_watch(request, match, None)
    if _expire_clock(match):
        match = _match_or_404(pk)
    state = _state_or_none(match)
    if state is None:
        return _archived(request, match, None)
    return render(request, "matches/play.html", _live_context(request, match, None, spectator=True, state=state))


def board(request, pk):
    """The live fragment htmx polls: 304 when the ETag in If-None-Match is still current.

    The idle case (nothing changed, the common one) reads only the match's version and seats: no
    snapshot, no engine, no template.
    """
    try:
        light = selectors.get_match_version(pk)
    except Match.DoesNotExist:
        raise Http404("No such match.")
    spectator = request.GET.get("as") == "watch"
    seat = _seat_for(request, light, spectator)
    _check_watch(request, light, seat)
    if _expire_clock(light):
        light = selectors.get_match_version(pk)
    etag = selectors.match_etag(light, seat)
    if etag in request.headers.get("If-None-Match", ""):
        response = HttpResponseNotModified()
    else:
        match = _match_or_404(pk)
        state = _state_or_none(match)
        if state is None:
            # The page itself shows the stored match; the fragment just stops asking.
            response = HttpResponseNotModified()
        else:
            response = render(request, "matches/_live.html",
                              _live_context(request, match, seat, spectator=seat is None, state=state))
        etag = selectors.match_etag(match, seat)
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True, private=True)
    return response


@require_POST
def act(request, pk):
    """A move from the page's buttons: calls the move service; htmx gets the fresh fragment back."""
    match = _match_or_404(pk)
    held = permissions.seats_held(match, user=request.user, session=request.session)
    error = ""
    state = None
    seat = None
    retry = False
    try:
        seat = int(request.POST.get("seat", min(held) if held else -1))
        result = services.match_submit_action(match=match, seat=seat, ply=request.POST.get("ply"),
                                              action=request.POST.get("action", ""), user=request.user,
                                              held_seats=held, rebase_simultaneous=True)
        state = result.state
    except services.MatchError as exc:
        error = exc.message
        retry = bool(exc.data.get("retry"))
        if exc.reason == "stale_ply" and not retry:
            error = _("The match moved on before your move arrived (your opponent was quicker): choose again.")
        elif retry:
            error = _("Your move met another at the same instant; it is being sent again…")
        if exc.code == "forbidden" and not held:
            raise PermissionDenied(exc.message)
    except ValueError:
        error = _("That move could not be read.")
    return _after_player_request(request, pk, held, seat, error, state, retry=retry)


def _after_player_request(request, pk, held, seat, error: str, state=None, *, retry: bool = False):
    """The answer to a player's POST: the fresh fragment for htmx (409 and ``X-Match-Retry`` when the same
    request should simply be sent again -- only a race, nothing was applied), or a redirect to the play page."""
    match = _match_or_404(pk)
    if seat not in held:
        seat = permissions.viewer_seat(match, user=request.user, session=request.session)
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("matches:play", pk=match.pk)
    if state is None:
        state = _state_or_none(match)
        if state is None:
            return redirect("matches:play", pk=match.pk)
    response = render(request, "matches/_live.html", _live_context(request, match, seat, spectator=False,
                                                                   error=error, state=state),
                      status=409 if retry else 200)
    if retry:
        response["X-Match-Retry"] = "1"
    response["ETag"] = selectors.match_etag(match, seat)
    return response


def _player_seat(request, match: Match) -> tuple[set[int], int]:
    held = permissions.seats_held(match, user=request.user, session=request.session)
    if not held:
        raise PermissionDenied(_("You do not hold a seat in this match."))
    try:
        seat = int(request.POST.get("seat", min(held)))
    except ValueError:
        seat = min(held)
    return held, seat


@require_POST
def resign(request, pk):
    """A player gives the match up (the page asks them to confirm first)."""
    match = _match_or_404(pk)
    held, seat = _player_seat(request, match)
    error = ""
    try:
        services.match_resign(match=match, seat=seat, user=request.user, held_seats=held)
    except services.MatchError as exc:
        error = exc.message
    return _after_player_request(request, pk, held, seat, error)


@require_POST
def draw(request, pk):
    """Offer a draw, or answer the other side's offer (``do``: offer, accept, decline)."""
    match = _match_or_404(pk)
    held, seat = _player_seat(request, match)
    error = ""
    do = request.POST.get("do", "")
    try:
        if do == "offer":
            services.match_draw_offer(match=match, seat=seat, user=request.user, held_seats=held)
        elif do in ("accept", "decline"):
            services.match_draw_answer(match=match, seat=seat, accept=do == "accept", user=request.user,
                                       held_seats=held)
        else:
            error = _("Choose to offer, accept or decline a draw.")
    except services.MatchError as exc:
        error = exc.message
    return _after_player_request(request, pk, held, seat, error)


def replay(request, pk):
    """Step through a match move by move (``?step=n``); spectators see the spectator view. The page's player
    (scrubber, autoplay, speed) fetches each step's frame alone (``?fragment=1``), without reloading the page."""
    match = _match_or_404(pk)
    seat = _seat_for(request, match, spectator=False)
    _check_watch(request, match, seat)
    try:
        step = int(request.GET.get("step", match.ply))
    except ValueError:
        step = match.ply
    step = max(0, min(step, match.ply))
    state = _state_or_none(match, upto=step)
    if state is None:
        if request.GET.get("fragment"):
            raise Http404("This match cannot be replayed.")
        return _archived(request, match, seat)
    data = selectors.match_view(match, state, seat, events_from=0)
    data["legal_actions"], data["your_turn"] = [], False
    action = selectors.match_action(match, step)
    if action is not None and not selectors.action_visible(match, action.seat, seat, state.spec.hidden_information):
        action.action = selectors.HIDDEN_ACTION
    help_data = _help(match)
    board = boards.board_context(state.spec.board_kind, data["view"], seat, data, help_data)
    context = {
        "match": match, "data": data, "seat": seat, "spectator": True, "step": step, "steps": match.ply,
        "counts_tries": state.spec.scoring.counts_tries,
        "action": action,
        "action_label": (_("A hidden move") if action and action.action == selectors.HIDDEN_ACTION
                         else state.describe_action(action.action) if action else ""),
        "board": board, "board_template": _board_template(board["kind"]),
        "legend_template": _legend_template(board["kind"]), "help": help_data,
        "events": data["events"][-12:],
        "ended": [e for e in selectors.match_events(match) if e.ply <= step and e.kind in (
            MatchEvent.Kind.RESIGNED, MatchEvent.Kind.DRAW_ACCEPTED, MatchEvent.Kind.CLOCK,
            MatchEvent.Kind.REPLACED)] if step == match.ply else [],
        **_score_context(match, data, state, seat),
    }
    template = "matches/_replay_frame.html" if request.GET.get("fragment") else "matches/replay.html"
    response = render(request, template, context)
    if request.GET.get("fragment"):
        patch_cache_control(response, private=True, max_age=0 if match.status == Match.Status.LIVE else 300)
    return response


def rules(request, ruleset):
    """How to play a rule set: the help panel in full, the board's legend and every card, in the page's language."""
    try:
        spec = get_spec(ruleset)
    except KeyError:
        raise Http404("No such rule set.")
    if not spec.playable:
        raise Http404("No such rule set.")
    context = {"spec": spec, "help": help_for(ruleset, get_language() or "en"), "ruleset": ruleset,
               "cards": cards_for(ruleset, get_language() or "en"),
               "legend_template": _legend_template(spec.board_kind)}
    return render(request, "matches/rules.html", context)


# ---- organisers ------------------------------------------------------------------------------------


def manage(request, pk):
    """Organiser page: the seats' join codes and links, replace a seat by the computer, abandon."""
    match = _match_or_404(pk)
    if not permissions.can_manage(request.user, match):
        raise Http404("No such match.")
    if request.method == "POST":
        try:
            if request.POST.get("do") == "computer":
                services.match_replace_seat_with_computer(match=match, seat=int(request.POST.get("seat", -1)),
                                                          user=request.user,
                                                          level=request.POST.get("level", DEFAULT_LEVEL))
                messages.success(request, _("The computer has taken the seat."))
            elif request.POST.get("do") == "abandon":
                services.match_abandon(match=match, user=request.user)
                messages.success(request, _("The match was abandoned; the fixture is scheduled again."))
            else:
                messages.error(request, _("Choose what to do: give a seat to the computer, or abandon the match."))
        except (ValidationError, ValueError) as exc:
            messages.error(request, error_text(exc))
        return redirect("matches:manage", pk=match.pk)
    seats = sorted(match.seats.all(), key=lambda s: s.seat)
    links = [(s, request.build_absolute_uri(f"/matches/join/{s.join_code}/")) for s in seats]
    return render(request, "matches/manage.html", {"match": match, "links": links,
                                                   "outcome": selectors.outcome_for_reader(match.outcome),
                                                   "ruleset_name": get_ruleset(match.ruleset).spec.name,
                                                   "levels": level_choices(), "default_level": DEFAULT_LEVEL,
                                                   "events": selectors.match_events(match),
                                                   "names": {s.seat: s.label for s in seats}})


@require_POST
@login_required
def start_fixture(request, fixture_pk):
    """Organiser starts (or opens) the online match of a fixture."""
    fixture = get_object_or_404(Fixture.objects.select_related("tournament"), pk=fixture_pk)
    tournament_for(request.user, fixture.tournament.slug, edit=True)
    try:
        match = services.match_start_for_fixture(fixture=fixture, user=request.user)
    except ValidationError as exc:
        messages.error(request, error_text(exc))
        target = request.POST.get("next") or "/"
        if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
            target = "/"
        return redirect(target)
    return redirect("matches:manage", pk=match.pk)


def tournament_passes(request, slug):
    """Organiser's printable join cards: every entry's pass code and link and, when the match is scored live,
    the scorer link of the entry's next match (its own, else its pitch's or table's) so the players at that table
    score it without an account; then one card per pitch or table with a scorer link."""
    tournament = tournament_for(request.user, slug, edit=True)
    entries = list(tournament.entries.select_related("team", "player", "pass_code").order_by("team__name"))
    scoring = live_selectors.join_card_scorer_links(tournament)
    rows = []
    for entry in entries:
        # getattr's default also covers the reverse one-to-one's "does not exist" (an AttributeError).
        pass_ = getattr(entry, "pass_code", None) or services.entry_pass_for(entry)
        link = request.build_absolute_uri(f"/matches/join/{pass_.code}/")
        scorer = None
        if entry.pk in scoring:
            scorer_link, fixture = scoring[entry.pk]
            scorer = {"qr": mark_safe(qr_svg_inline(scorer_url(request, scorer_link), scale=2)),
                      "match": f"{side_name(fixture, 'home')} v {side_name(fixture, 'away')}",
                      "venue": fixture.venue}
        # Safe: segno's own SVG of our own link.
        rows.append((entry, pass_, link, mark_safe(qr_svg_inline(link)), scorer))
    _by_fixture, by_venue = live_selectors.live_links(tournament)
    tables = [(venue, mark_safe(qr_svg_inline(scorer_url(request, link)))) for venue, link in sorted(by_venue.items())]
    return render(request, "matches/passes.html", {"tournament": tournament, "rows": rows, "tables": tables})


@login_required
def new_friendly(request):
    """Start a friendly: pick a rule set and who plays each side."""
    form = FriendlyForm(request.POST or None, rulesets=rulesets())
    if request.method == "POST" and form.is_valid():
        try:
            match = services.match_create_friendly(ruleset=form.cleaned_data["ruleset"], user=request.user,
                                                   home=form.cleaned_data["home"], away=form.cleaned_data["away"],
                                                   options=form.cleaned_options(),
                                                   move_clock=form.cleaned_data.get("move_clock") or None)
        except ValidationError as exc:
            form.add_error(None, error_text(exc))
        else:
            # Straight to the board when the organiser plays and nobody else has to be sent a code (a solo
            # game, or against the computer); the manage page shows the codes when a seat is left open.
            seats = (form.cleaned_data["home"], form.cleaned_data["away"])
            plays_now = "me" in seats and "open" not in seats
            return redirect("matches:play" if plays_now else "matches:manage", pk=match.pk)
    return render(request, "matches/new.html", {"form": form})


def live_now(request, slug):
    """The "live now" fragment for a tournament page (also available as the ``live_now`` template tag)."""
    tournament = tournament_for(request.user, slug)
    return render(request, "matches/_live_now.html", {"live_matches": list(selectors.live_matches(tournament)[:20]),
                                                      "tournament": tournament, "poll": True})

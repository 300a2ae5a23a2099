"""Web pages: the public pages (tournaments, tables, fixtures, bracket, teams, matches, exports) and the
organiser's workflow (sign up, create, teams, draw, fixtures, players, results, simulation, publish).

Views are thin: permissions come from ``league.permissions``, writes from ``league.services`` (and the
formats and matches modules), reads from ``league.selectors``. Public pages render their expensive part
through ``league.cache`` so a crowd refreshing them costs one small query each.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import OrderedDict
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from league import exports, format_selectors, formats, forms, selectors
from league.cache import LIVE_TIMEOUT, cached_fragment, tournament_by_slug, tournament_changed
from league.models import Entry, Fixture, Team, Tournament, team_code
from league.permissions import can_edit_tournament, can_view_tournament, listed_tournaments
from league.templatetags.league_tags import side_name
from matches import selectors as match_selectors
from matches import services as match_services

# --- helpers ---------------------------------------------------------------------------------------------------------


def _error_messages(exc: Exception) -> list[str]:
    if isinstance(exc, ValidationError):
        return list(exc.messages)
    return [str(exc)]


def _form_error(form, exc: Exception) -> None:
    """Show a service's error on the form: next to the field it names when the form has that field."""
    if isinstance(exc, ValidationError) and hasattr(exc, "error_dict"):
        for field, errors in exc.error_dict.items():
            target = field if field in form.fields else None
            for error in errors:
                form.add_error(target, error.messages[0] if hasattr(error, "messages") else str(error))
        return
    for message in _error_messages(exc):
        form.add_error(None, message)


def _public_tournament(request, slug: str) -> Tournament:
    """The tournament for a public page (through the cache), or 404 when it does not exist or this visitor may
    not see it."""
    tournament = tournament_by_slug(slug)
    if tournament is None or not can_view_tournament(request.user, tournament):
        raise Http404(_("No such tournament."))
    return tournament


def _organised_tournament(request, slug: str) -> Tournament:
    """The tournament for an organiser's page (fresh from the database): 404 when unseen, 403 when the user may
    see but not change it."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not can_view_tournament(request.user, tournament):
        raise Http404(_("No such tournament."))
    if not can_edit_tournament(request.user, tournament):
        raise PermissionDenied(_("Only the organisers of this tournament may change it."))
    return tournament


def _fixtures(tournament: Tournament):
    return list(exports.tournament_fixtures(tournament).order_by("round_number", "kickoff", "slot", "id"))


def _standings(tournament: Tournament) -> list[tuple[object, list[dict]]]:
    """Every pool's table as (pool, rows of dicts with the standings keys plus ``name``)."""
    tables = []
    for pool, rows in selectors.tournament_standings(tournament):
        dict_rows = []
        for row in rows:
            data = row.as_dict() if hasattr(row, "as_dict") else dict(row)
            data["name"] = getattr(row, "team_name", None) or data["team"]
            data["difference"] = data["points_for"] - data["points_against"]
            dict_rows.append(data)
        tables.append((pool, dict_rows))
    return tables


def _bracket(tournament: Tournament):
    """The knockout brackets (see ``league.format_selectors.bracket_for_tournament``), or None without any."""
    data = format_selectors.bracket_for_tournament(tournament)
    return data if any(b["rounds"] for b in data.get("brackets", [])) else None


def _bracket_html(tournament: Tournament, bracket) -> str:
    """The knockout bracket drawn as HTML ("" without one)."""
    if bracket is None:
        return ""
    return render_to_string("league/_bracket_view.html", {"bracket": bracket, "tournament": tournament})


def _format_table(tournament: Tournament) -> tuple[str, list[dict]]:
    """The Swiss table or the solo leaderboard, for those formats (else ("", []))."""
    if tournament.format == Tournament.Format.SWISS:
        return "swiss", format_selectors.swiss_table(tournament)
    if tournament.format == Tournament.Format.SOLO:
        return "solo", format_selectors.solo_leaderboard(tournament)
    return "", []


def _group_rounds(fixtures: list[Fixture]) -> list[dict]:
    """Fixtures grouped by round: pool rounds by number, knockout rounds by name, in playing order."""
    groups: OrderedDict = OrderedDict()
    for f in fixtures:
        if f.stage == Fixture.Stage.POOL:
            key, label = ("pool", f.round_number), _("Round %(number)s") % {"number": f.round_number}
        else:
            key = (f.stage, f.round_number, f.round_name)
            label = f.round_name or _("Round %(number)s") % {"number": f.round_number}
        groups.setdefault(key, {"label": label, "fixtures": []})["fixtures"].append(f)
    return list(groups.values())


def _group_days(fixtures: list[Fixture]) -> list[dict]:
    """Fixtures grouped by the day they are played (fixtures without a date last)."""
    days: dict = {}
    for f in fixtures:
        day = timezone.localtime(f.kickoff).date() if f.kickoff else None
        days.setdefault(day, []).append(f)
    ordered = sorted(days.items(), key=lambda item: (item[0] is None, item[0] or dt.date.min))
    return [{"day": day, "fixtures": sorted(items, key=lambda f: (f.kickoff or timezone.now(), f.slot, f.venue))}
            for day, items in ordered]


def _live_matches(tournament: Tournament) -> list:
    """The tournament's matches being played online now (from ``matches``), kept a few seconds in the cache:
    a match goes live without any result, so its key cannot be the tournament's version."""
    if not tournament.spec.playable:
        return []  # results entered by hand: nothing is played on the site
    key = f"league:live:{tournament.pk}"
    live = cache.get(key)
    if live is None:
        live = list(match_selectors.live_matches(tournament)[:20])
        cache.set(key, live, LIVE_TIMEOUT)
    return live


def _odds(tournament: Tournament):
    """The stored qualification odds, or None before any simulation computed them."""
    return match_selectors.tournament_odds(tournament)


def _simulation_progress(tournament: Tournament):
    """The latest simulation run's progress, or None before any run."""
    return match_selectors.simulation_progress(tournament)


# --- public pages ----------------------------------------------------------------------------------------------------


@require_GET
def tournament_list(request):
    """The public tournaments, and the ones the signed-in user organises."""
    tournaments = list(listed_tournaments(request.user).order_by("-created_at", "name")[:200])
    mine = []
    if request.user.is_authenticated:
        mine = [t for t in tournaments if t.pk in set(
            request.user.organised_tournaments.values_list("pk", flat=True))]
    return render(request, "league/tournament_list.html", {"tournaments": tournaments, "mine": mine})


_INDENT = re.compile(r"\s*\n\s*")


def _compact(html: str) -> str:
    """Drop the templates' indentation and blank lines (a third of a big page; public pages have no <pre>)."""
    # Safe: the input is our own rendered (already escaped) template.
    return mark_safe(_INDENT.sub("\n", html))


def _anonymous_page(request) -> bool:
    """True for a visitor with no session and no pending messages: the page is the same for all of them."""
    return settings.SESSION_COOKIE_NAME not in request.COOKIES and "messages" not in request.COOKIES


def _render_public(request, tournament: Tournament, template: str, context: Callable[[], dict], *key) -> HttpResponse:
    """Render a public page; for anonymous visitors the whole page comes from the cache (for a few seconds, as
    it shows live matches), keyed by the tournament's version and the language like its fragments."""
    if not _anonymous_page(request):
        return render(request, template, context())
    html = cached_fragment(tournament, "page", lambda: render_to_string(template, context(), request=request),
                           template, *key, timeout=LIVE_TIMEOUT)
    return HttpResponse(html)


@require_GET
def tournament_detail(request, slug):
    """A tournament's page: pool tables, fixtures and results by round or by day, bracket, live matches, odds."""
    tournament = _public_tournament(request, slug)
    by = "day" if request.GET.get("by") == "day" else "round"

    def build():
        fixtures = _fixtures(tournament)
        bracket = _bracket(tournament)
        kind, format_rows = _format_table(tournament)
        context = {
            "tournament": tournament,
            "tables": _standings(tournament) if kind == "" else [],
            "format_table": kind,
            "format_rows": format_rows,
            "rounds": _group_rounds(fixtures) if by == "round" else None,
            "days": _group_days(fixtures) if by == "day" else None,
            "by": by,
            "bracket_html": _bracket_html(tournament, bracket),
            "has_fixtures": bool(fixtures),
        }
        return _compact(render_to_string("league/_tournament_body.html", context))

    def context():
        can_edit = can_edit_tournament(request.user, tournament)
        return {
            "tournament": tournament,
            "body": cached_fragment(tournament, "tournament", build, by),
            "by": by,
            "live_matches": _live_matches(tournament),
            "odds": _odds(tournament),
            "can_edit": can_edit,
            "progress": _simulation_progress(tournament) if can_edit else None,
        }

    return _render_public(request, tournament, "league/tournament_detail.html", context, by)


@require_GET
def team_detail(request, slug, code):
    """A team's page in a tournament: its position, fixtures and results."""
    tournament = _public_tournament(request, slug)
    code = code.upper()
    if not team_code.regex.match(code):
        raise Http404(_("No such team in this tournament."))

    def build():
        entry = Entry.objects.select_related("team", "pool").filter(tournament=tournament, team__code=code).first()
        if entry is None:
            return ""
        fixtures = list(exports.tournament_fixtures(tournament, entry))
        position = table = None
        for pool, rows in _standings(tournament):
            if entry.pool_id and getattr(pool, "pk", None) == entry.pool_id or any(r["team"] == code for r in rows):
                table = (pool, rows)
                position = next((r for r in rows if r["team"] == code), None)
                break
        return _compact(render_to_string("league/_team_body.html", {
            "tournament": tournament, "entry": entry, "fixtures": fixtures, "row": position, "table": table}))

    body = cached_fragment(tournament, "team", build, code)
    if not body:
        raise Http404(_("No such team in this tournament."))
    return _render_public(request, tournament, "league/team_detail.html",
                          lambda: {"tournament": tournament, "code": code, "body": body}, code)


def _fixture_match(fixture: Fixture):
    """The engine match played for this fixture (online play), or None."""
    try:
        return fixture.match
    except (AttributeError, ObjectDoesNotExist):
        return None


@require_GET
def fixture_detail(request, slug, pk):
    """A match page: the teams, when and where, the result, and the replay for an engine match."""
    tournament = _public_tournament(request, slug)
    related = ["pool", "home__team", "away__team", "result", "result__winner__team", "match"]
    fixture = get_object_or_404(Fixture.objects.select_related(*related), tournament=tournament, pk=pk)
    can_edit = can_edit_tournament(request.user, tournament)
    changes = list(fixture.result_changes.select_related("changed_by")) if can_edit else []
    return render(request, "league/fixture_detail.html", {
        "tournament": tournament, "fixture": fixture, "match": _fixture_match(fixture), "can_edit": can_edit,
        "changes": changes})


@require_GET
def set_language(request, code):
    """Choose the site's language with a plain link (a cookie), so cached pages carry no per-visitor form."""
    if code not in dict(settings.LANGUAGES):
        raise Http404(_("Unknown language."))
    target = request.GET.get("next") or "/"
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        target = "/"
    translation.activate(code)
    response = HttpResponseRedirect(target)
    response.set_cookie(settings.LANGUAGE_COOKIE_NAME, code, max_age=365 * 24 * 3600, samesite="Lax")
    return response


# --- exports ---------------------------------------------------------------------------------------------------------


def _download(content: str, content_type: str, filename: str, attachment: bool = True) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    disposition = "attachment" if attachment else "inline"
    response["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    return response


@require_GET
def tournament_calendar(request, slug):
    """iCalendar feed of all the tournament's fixtures (subscribe to it on a phone)."""
    tournament = _public_tournament(request, slug)
    base = request.build_absolute_uri(reverse("league:tournament", args=[slug])) + "matches/"
    text = exports.ics_calendar(tournament.name, exports.tournament_fixtures(tournament),
                                host=request.get_host().split(":")[0], base_url=base)
    return _download(text, "text/calendar; charset=utf-8", f"{slug}.ics", attachment=False)


@require_GET
def team_calendar(request, slug, code):
    """iCalendar feed of one team's fixtures."""
    tournament = _public_tournament(request, slug)
    if not team_code.regex.match(code.upper()):
        # Not a code at all (PostgreSQL even refuses some, e.g. with a NUL character, in a query).
        raise Http404(_("No such team in this tournament."))
    entry = get_object_or_404(Entry.objects.select_related("team"), tournament=tournament, team__code=code.upper())
    base = request.build_absolute_uri(reverse("league:tournament", args=[slug])) + "matches/"
    text = exports.ics_calendar(f"{tournament.name}: {entry.team.name}",
                                exports.tournament_fixtures(tournament, entry),
                                host=request.get_host().split(":")[0], base_url=base)
    return _download(text, "text/calendar; charset=utf-8", f"{slug}-{entry.team.code.lower()}.ics",
                     attachment=False)


@require_GET
def export_csv(request, slug, what):
    """CSV of the fixtures, the results or the standings."""
    tournament = _public_tournament(request, slug)
    if what == "fixtures":
        text = exports.fixtures_csv(exports.tournament_fixtures(tournament))
    elif what == "results":
        text = exports.results_csv(exports.tournament_fixtures(tournament))
    elif what == "standings":
        text = exports.standings_csv(selectors.tournament_standings(tournament))
    else:
        raise Http404(_("No such export."))
    return _download(text, "text/csv; charset=utf-8", f"{slug}-{what}.csv")


@require_GET
def print_fixtures(request, slug):
    """A printable fixture list: one page per round."""
    tournament = _public_tournament(request, slug)
    rounds = _group_rounds(_fixtures(tournament))
    return render(request, "league/print_fixtures.html", {"tournament": tournament, "rounds": rounds})


@require_GET
def print_scoresheets(request, slug):
    """Printable score sheets for matches played on real boards or pitches: one page per round."""
    tournament = _public_tournament(request, slug)
    rounds = _group_rounds(_fixtures(tournament))
    return render(request, "league/print_scoresheets.html", {"tournament": tournament, "rounds": rounds})


# --- accounts --------------------------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def signup(request):
    """Sign up with a username and a password (no email needed), then be signed in."""
    form = forms.SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(name)s. You can now create a tournament.") % {"name": user.username})
        return redirect("league:tournament_new")
    return render(request, "registration/signup.html", {"form": form})


# --- organiser: create and manage ------------------------------------------------------------------------------------


def _create_tournament(user, data) -> Tournament:
    """Create the tournament: a preset sets everything up in one go, otherwise the chosen settings."""
    from league import services

    common = {"name": data["name"], "slug": data["slug"], "user": user, "visibility": data["visibility"],
              "ruleset": data["ruleset"]}
    if data.get("preset"):
        from league.presets import preset_run

        return preset_run(data["preset"], double=data["double_round_robin"],
                          points_system=data["points_system"], **common)
    return services.tournament_create(format=data["format"], points_system=data["points_system"],
                                      double_round_robin=data["double_round_robin"], **common)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request):
    """Create a tournament from a preset or step by step."""
    form = forms.TournamentCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                tournament = _create_tournament(request.user, form.cleaned_data)
                if not tournament.organisers.filter(pk=request.user.pk).exists():
                    tournament.organisers.add(request.user)
        except (ValidationError, ValueError, IntegrityError) as exc:
            _form_error(form, exc)
        else:
            messages.success(request, _("Tournament “%(name)s” created.") % {"name": tournament.name})
            return redirect("league:manage", slug=tournament.slug)
    return render(request, "league/tournament_new.html", {"form": form})


def _manage_context(tournament: Tournament) -> dict:
    entries = list(tournament.entries.select_related("team", "pool", "player").order_by("pool__name", "seed",
                                                                                            "team__name"))
    fixture_count = tournament.fixtures.count()
    result_count = tournament.fixtures.filter(result__isnull=False).count()
    return {"tournament": tournament, "entries": entries, "pools": list(tournament.pools.all()),
            "fixture_count": fixture_count, "result_count": result_count,
            "organisers": list(tournament.organisers.order_by("username")),
            "progress": _simulation_progress(tournament)}


@login_required
@require_GET
def manage(request, slug):
    """The organiser's dashboard: each step of running the tournament, with where it stands."""
    tournament = _organised_tournament(request, slug)
    return render(request, "league/manage.html", _manage_context(tournament))


@login_required
@require_http_methods(["GET", "POST"])
def manage_settings(request, slug):
    """Change the name, visibility, status, points numbers and walkover score."""
    tournament = _organised_tournament(request, slug)
    form = forms.TournamentSettingsForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        form.save()
        tournament_changed(tournament)
        messages.success(request, _("Settings saved."))
        return redirect("league:manage", slug=slug)
    return render(request, "league/manage_form.html", {
        "tournament": tournament, "form": form, "title": _("Settings"), "submit": _("Save settings")})


@login_required
@require_POST
def manage_publish(request, slug):
    """Publish (public and listed, no longer a draft) or hide (unlisted) the tournament."""
    tournament = _organised_tournament(request, slug)
    if request.POST.get("action") == "hide":
        tournament.visibility = Tournament.Visibility.UNLISTED
        messages.success(request, _("The tournament is hidden from the list (people with the link can see it)."))
    else:
        tournament.visibility = Tournament.Visibility.PUBLIC
        if tournament.status == Tournament.Status.DRAFT:
            tournament.status = Tournament.Status.IN_PROGRESS
        messages.success(request, _("The tournament is published."))
    tournament.save(update_fields=["visibility", "status"])
    tournament_changed(tournament)
    return redirect("league:manage", slug=slug)


@login_required
@require_http_methods(["GET", "POST"])
def manage_organisers(request, slug):
    """Invite co-organisers by username."""
    tournament = _organised_tournament(request, slug)
    form = forms.InviteOrganiserForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        tournament.organisers.add(form.user)
        messages.success(request, _("%(name)s now organises this tournament.") % {"name": form.user.username})
        return redirect("league:manage_organisers", slug=slug)
    return render(request, "league/manage_organisers.html", {
        "tournament": tournament, "form": form, "organisers": tournament.organisers.order_by("username")})


def _unique_code(name: str, taken: set[str]) -> str:
    """A short code for a new team: letters of its name, then digits, avoiding codes in use."""
    letters = "".join(c for c in name.upper() if c.isascii() and c.isalnum()) or "TEAM"
    words = [w for w in name.upper().split() if w]
    candidates = []
    if len(words) >= 2:
        candidates.append("".join(w[0] for w in words if w[0].isascii() and w[0].isalnum())[:5])
    candidates.append(letters[:3])
    candidates.append(letters[:5])
    for candidate in candidates:
        if len(candidate) >= 2 and candidate not in taken:
            return candidate
    base = letters[:3].ljust(2, "X")
    for n in range(1, 100):
        candidate = f"{base}{n}"[:5]
        if candidate not in taken:
            return candidate
    raise ValidationError(_("Could not find a free short code for “%(name)s”: give one.") % {"name": name})


def _add_own_teams(request, tournament: Tournament, rows: list[dict]) -> int:
    """Create (or reuse the organiser's own) teams and enter them; all or nothing."""
    wanted = [row["code"] for row in rows if row.get("code")]
    existing = {t.code: t for t in Team.objects.filter(code__in=wanted)}
    taken = set(Team.objects.values_list("code", flat=True))
    teams = []
    for row in rows:
        code = row.get("code") or ""
        if code and code in existing:
            team = existing[code]
            if team.is_nation or team.created_by_id == request.user.pk or team.name == row["name"]:
                teams.append(team)
                continue
            raise ValidationError(_("Line %(line)s: the code %(code)s is used by another team (%(team)s).")
                                  % {"line": row.get("line", "?"), "code": code, "team": team.name})
        code = code or _unique_code(row["name"], taken)
        team = Team(name=row["name"][:80], code=code, created_by=request.user)
        if row.get("primary_colour"):
            team.primary_colour = row["primary_colour"]
        if row.get("secondary_colour"):
            team.secondary_colour = row["secondary_colour"]
        try:
            team.full_clean()
        except ValidationError as exc:
            raise ValidationError(_("Line %(line)s (%(name)s): %(errors)s") % {
                "line": row.get("line", "?"), "name": row["name"], "errors": " ".join(exc.messages)})
        team.save()
        taken.add(code)
        teams.append(team)
    _enter_teams(request, tournament, teams)
    return len(teams)


def _enter_teams(request, tournament: Tournament, teams: list[Team]) -> None:
    """Enter the teams; seeds follow the order given (the services continue from the highest seed)."""
    from league import services

    services.entries_add(tournament=tournament, teams=teams)


@login_required
@require_http_methods(["GET", "POST"])
def manage_teams(request, slug):
    """Add teams: the 20 RWC 2023 nations in one click, one own team, a pasted list, or a CSV file."""
    tournament = _organised_tournament(request, slug)
    action = request.POST.get("action") if request.method == "POST" else None
    if action not in (None, "nations", "team", "paste", "csv"):
        messages.error(request, _("Choose one of the ways to add teams below."))
    team_form = forms.TeamForm(request.POST if action == "team" else None, prefix="team")
    paste_form = forms.PasteTeamsForm(request.POST if action == "paste" else None, prefix="paste")
    csv_form = forms.TeamsCsvForm(request.POST if action == "csv" else None,
                                  request.FILES if action == "csv" else None, prefix="csv")
    error_form = None
    try:
        with transaction.atomic():
            if action == "nations":
                nations = list(Team.objects.filter(is_nation=True).order_by("world_ranking"))
                entered = set(tournament.entries.values_list("team_id", flat=True))
                new = [t for t in nations if t.pk not in entered]
                if not new:
                    messages.info(request, _("The 20 nations are already entered."))
                else:
                    _enter_teams(request, tournament, new)
                    messages.success(request, _("%(count)s nations added.") % {"count": len(new)})
                tournament_changed(tournament)
                return redirect("league:manage_teams", slug=slug)
            if action == "team" and team_form.is_valid():
                error_form = team_form
                data = team_form.cleaned_data
                count = _add_own_teams(request, tournament, [{**data, "line": 1}])
                messages.success(request, _("Team added."))
                tournament_changed(tournament)
                return redirect("league:manage_teams", slug=slug)
            if action == "paste" and paste_form.is_valid():
                error_form = paste_form
                count = _add_own_teams(request, tournament, paste_form.cleaned_data["teams"])
                messages.success(request, _("%(count)s teams added.") % {"count": count})
                tournament_changed(tournament)
                return redirect("league:manage_teams", slug=slug)
            if action == "csv" and csv_form.is_valid():
                error_form = csv_form
                count = _add_own_teams(request, tournament, csv_form.cleaned_data["file"])
                messages.success(request, _("%(count)s teams imported.") % {"count": count})
                tournament_changed(tournament)
                return redirect("league:manage_teams", slug=slug)
    except (ValidationError, ValueError, IntegrityError) as exc:
        if error_form is None:
            messages.error(request, " ".join(_error_messages(exc)))
        else:
            _form_error(error_form, exc)
    entries = tournament.entries.select_related("team", "pool").order_by("seed", "team__name")
    return render(request, "league/manage_teams.html", {
        "tournament": tournament, "entries": entries, "team_form": team_form, "paste_form": paste_form,
        "csv_form": csv_form})


@login_required
@require_http_methods(["GET", "POST"])
def manage_draw(request, slug):
    """Draw the pools, seeded by bands or at random; the seed is shown so anyone can check the draw."""
    tournament = _organised_tournament(request, slug)
    initial = {"pool_count": 4 if tournament.format == Tournament.Format.RWC2023 else 1}
    form = forms.DrawForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            # Fixtures are the next step (with dates and venues), so the draw only fills the pools.
            formats.draw_pools(tournament=tournament, method=data["method"], pools=data["pool_count"],
                               seed=data["seed"], generate_fixtures=False, user=request.user)
        except (ValidationError, ValueError, IntegrityError) as exc:
            _form_error(form, exc)
        else:
            tournament.refresh_from_db()
            messages.success(request, _("Pools drawn (seed %(seed)s). Next: generate the fixtures.")
                             % {"seed": tournament.draw_seed})
            return redirect("league:manage_draw", slug=slug)
    pools = tournament.pools.prefetch_related("entries__team")
    return render(request, "league/manage_draw.html", {"tournament": tournament, "form": form, "pools": pools})


def _generate_fixtures(tournament: Tournament, data: dict) -> None:
    """Make the fixtures the tournament's format needs: pool round robins, then its knockout bracket; or the
    next Swiss round; or each solo entrant's attempt."""
    from league import formats, services

    fmt = tournament.format
    if fmt == Tournament.Format.SWISS:
        formats.swiss_pair_next_round(tournament=tournament)
        return
    if fmt == Tournament.Format.SOLO:
        formats.solo_fixtures_create(tournament=tournament)
        return
    if fmt != Tournament.Format.SINGLE_ELIMINATION:
        services.fixtures_generate_round_robin(
            tournament=tournament, double=data["double"], start_date=data["start_date"],
            first_kickoff=data["first_kickoff"], slot_minutes=data["slot_minutes"],
            days_between_rounds=data["days_between_rounds"], venues=data["venues"], replace=True)
    if fmt != Tournament.Format.LEAGUE:
        formats.bracket_create(tournament=tournament, replace=True)


@login_required
@require_http_methods(["GET", "POST"])
def manage_fixtures(request, slug):
    """Generate each pool's round-robin fixtures with dates, kick-off times and venues or tables."""
    tournament = _organised_tournament(request, slug)
    form = forms.FixturesForm(request.POST or None, initial={"double": tournament.double_round_robin})
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                _generate_fixtures(tournament, form.cleaned_data)
        except (ValidationError, ValueError, IntegrityError) as exc:
            _form_error(form, exc)
        else:
            tournament_changed(tournament)
            messages.success(request, _("Fixtures generated."))
            return redirect("league:manage_results", slug=slug)
    intro = {
        Tournament.Format.SWISS: _("Pair the next Swiss round from the current table (teams on equal points meet, "
                                   "never twice)."),
        Tournament.Format.SOLO: _("Make each player's solo attempts."),
        Tournament.Format.SINGLE_ELIMINATION: _("Make the knockout bracket from the seeds (byes to the top seeds)."),
    }.get(tournament.format, _("Every pool plays a round robin. Rounds are played on the same day in every pool; "
                               "with more matches than venues a round is split into time slots."))
    return render(request, "league/manage_form.html", {
        "tournament": tournament, "form": form, "title": _("Generate fixtures"), "submit": _("Generate fixtures"),
        "intro": intro})


@login_required
@require_http_methods(["GET", "POST"])
def manage_players(request, slug):
    """Assign a person (or the computer) to each team, and print their join codes."""
    tournament = _organised_tournament(request, slug)
    entries = list(tournament.entries.select_related("team", "player").order_by("seed", "team__name"))
    formset = [forms.EntryPlayerForm(request.POST or None, instance=e, prefix=f"e{e.pk}") for e in entries]
    if request.method == "POST":
        if all(f.is_valid() for f in formset):
            with transaction.atomic():
                for f in formset:
                    if f.has_changed():
                        f.save()
            tournament_changed(tournament)
            messages.success(request, _("Players saved."))
            return redirect("league:manage_players", slug=slug)
        messages.error(request, _("Some rows have errors: see below."))
    rows = [(f, f.instance) for f in formset]
    return render(request, "league/manage_players.html", {"tournament": tournament, "rows": rows,
                                                          "passes_url": reverse("matches:passes", args=[slug])})


@login_required
@require_GET
def manage_results(request, slug):
    """Every fixture with its result and a link to enter or correct it."""
    tournament = _organised_tournament(request, slug)
    rounds = _group_rounds(_fixtures(tournament))
    return render(request, "league/manage_results.html", {"tournament": tournament, "rounds": rounds})


@login_required
@require_http_methods(["GET", "POST"])
def manage_result(request, slug, pk):
    """Enter or correct one fixture's result."""
    tournament = _organised_tournament(request, slug)
    fixture = get_object_or_404(Fixture.objects.select_related("pool", "home__team", "away__team", "result"),
                                tournament=tournament, pk=pk)
    result = exports.result_of(fixture)
    initial = {}
    if result is not None:
        initial = {"home_score": result.home_score, "away_score": result.away_score, "home_tries": result.home_tries,
                   "away_tries": result.away_tries, "kind": result.kind, "decided_by": result.decided_by,
                   "winner": ("home" if result.winner_id == fixture.home_id else "away") if result.winner_id else ""}
    form = forms.ResultForm(request.POST or None, fixture=fixture, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if fixture.home_id is None or (fixture.away_id is None and fixture.stage != Fixture.Stage.SOLO):
            form.add_error(None, _("Both teams of this match are not known yet."))
        else:
            from league import formats

            try:
                formats.result_correct(
                    reset_later_rounds=data.get("reset_later_rounds", False), fixture=fixture,
                    home_score=data["home_score"], away_score=data["away_score"],
                    home_tries=data["home_tries"], away_tries=data["away_tries"], kind=data["kind"],
                    winner=data.get("winner_entry"), decided_by=data.get("decided_by") or "", source="manual",
                    user=request.user, reason=data.get("reason", ""))
            except (ValidationError, ValueError, IntegrityError) as exc:
                _form_error(form, exc)
            else:
                messages.success(request, _("Result saved: %(home)s %(hs)s–%(as)s %(away)s.") % {
                    "home": side_name(fixture, "home"), "hs": data["home_score"], "as": data["away_score"],
                    "away": side_name(fixture, "away")})
                return redirect(reverse("league:manage_results", args=[slug]) + f"#fixture-{fixture.pk}")
    return render(request, "league/manage_result.html", {"tournament": tournament, "fixture": fixture, "form": form,
                                                         "result": result})


@login_required
@require_http_methods(["GET", "POST"])
def manage_results_import(request, slug):
    """Import results from a CSV file; any bad row is reported with its line number and nothing is saved."""
    tournament = _organised_tournament(request, slug)
    form = forms.ResultsImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        from league import services

        try:
            summary = services.results_import_csv(tournament=tournament, file=form.cleaned_data["file"],
                                                  user=request.user)
        except (ValidationError, ValueError) as exc:
            _form_error(form, exc)
        else:
            tournament_changed(tournament)
            messages.success(request, _("Results imported: %(created)s new, %(updated)s corrected, %(unchanged)s "
                                        "unchanged.") % {"created": summary.created, "updated": summary.updated,
                                                         "unchanged": summary.unchanged})
            return redirect("league:manage_results", slug=slug)
    return render(request, "league/manage_form.html", {
        "tournament": tournament, "form": form, "title": _("Import results"), "submit": _("Import"),
        "multipart": True,
        "intro": _("A CSV file with the header pool,round,date,home,away,home_score,away_score,home_tries,"
                   "away_tries (teams by code or name). If any row is wrong nothing is saved.")})


@login_required
@require_http_methods(["GET", "POST"])
def manage_simulate(request, slug):
    """Start a simulation of the remaining fixtures and watch its progress."""
    tournament = _organised_tournament(request, slug)
    if request.method == "POST":
        stage = request.POST.get("stage", "all")
        if stage not in {"pools", "knockout", "all"}:
            stage = "all"
        seed = request.POST.get("seed", "").strip()
        try:
            match_services.simulation_start(tournament=tournament, stage=stage, user=request.user,
                                            seed=int(seed) if seed.isdigit() else None)
        except (ValidationError, ValueError) as exc:
            messages.error(request, " ".join(_error_messages(exc)))
        else:
            messages.success(request, _("Simulation started."))
        return redirect("league:manage_simulate", slug=slug)
    return render(request, "league/manage_simulate.html", {
        "tournament": tournament, "progress": _simulation_progress(tournament)})


@login_required
@require_http_methods(["GET", "POST"])
def manage_withdraw(request, slug, entry_pk):
    """Withdraw a team: its remaining fixtures are forfeited with the walkover score."""
    tournament = _organised_tournament(request, slug)
    entry = get_object_or_404(Entry.objects.select_related("team"), tournament=tournament, pk=entry_pk)
    form = forms.WithdrawForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            formats.entry_withdraw(entry=entry, keep_played_results=form.cleaned_data["keep_played"], user=request.user)
        except (ValidationError, ValueError, IntegrityError) as exc:
            _form_error(form, exc)
        else:
            tournament_changed(tournament)
            messages.success(request, _("%(team)s has withdrawn.") % {"team": entry.team.name})
            return redirect("league:manage_teams", slug=slug)
    return render(request, "league/manage_form.html", {
        "tournament": tournament, "form": form, "title": _("Withdraw %(team)s") % {"team": entry.team.name},
        "submit": _("Withdraw"), "intro": _("Its remaining fixtures become walkovers to its opponents.")})

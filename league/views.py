"""The league's own pages: exports and printing of a tournament, accounts, and the organiser's workflow
(create, settings, publish, organisers, teams, draw, fixtures, players, results, withdrawals).

Views are thin: they check the caller with ``league.permissions.tournament_for``, validate the input's shape
with ``league.forms`` and call ``league.services``; a refused change (``league.errors.DomainError``) is shown
on its form or as a message. The pages that show matches too (the tournament page, the dashboard) are in
``web``.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from league import (
    event_selectors,
    exports,
    forms,
    live_selectors,
    live_views,
    pages,
    schedule_selectors,
    selectors,
    services,
)
from league.clients import limit_wait, too_many_requests
from league.errors import DomainError, error_text, form_error
from league.formats import FORMATS, format_of
from league.models import Entry, Fixture, FixtureJob, Result, Team, Tournament, team_code
from league.permissions import can_edit_tournament, tournament_for
from league.share import qr_svg, qr_svg_inline
from league.templatetags.league_tags import side_name
from league.timezones import local_datetime


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
    tournament = tournament_for(request.user, slug, cached=True)
    base = request.build_absolute_uri(reverse("league:tournament", args=[slug])) + "matches/"
    text = exports.ics_calendar(tournament.name, exports.tournament_fixtures(tournament),
                                time_zone=tournament.time_zone, match_minutes=tournament.slot_minutes,
                                host=request.get_host().split(":")[0], base_url=base)
    return _download(text, "text/calendar; charset=utf-8", f"{slug}.ics", attachment=False)


@require_GET
def team_calendar(request, slug, code):
    """iCalendar feed of one team's fixtures."""
    tournament = tournament_for(request.user, slug, cached=True)
    if not team_code.regex.match(code.upper()):
        # Not a code at all (PostgreSQL even refuses some, e.g. with a NUL character, in a query).
        raise Http404(_("No such team in this tournament."))
    entry = get_object_or_404(Entry.objects.select_related("team"), tournament=tournament, team__code=code.upper())
    base = request.build_absolute_uri(reverse("league:tournament", args=[slug])) + "matches/"
    text = exports.ics_calendar(f"{tournament.name}: {entry.team.name}",
                                exports.tournament_fixtures(tournament, entry),
                                time_zone=tournament.time_zone, match_minutes=tournament.slot_minutes,
                                host=request.get_host().split(":")[0], base_url=base)
    return _download(text, "text/calendar; charset=utf-8", f"{slug}-{entry.team.code.lower()}.ics",
                     attachment=False)


@require_GET
def export_csv(request, slug, what):
    """CSV of the fixtures, the results or the standings."""
    tournament = tournament_for(request.user, slug, cached=True)
    if what == "fixtures":
        text = exports.fixtures_csv(exports.tournament_fixtures(tournament))
    elif what == "results":
        text = exports.results_csv(exports.tournament_fixtures(tournament))
    elif what == "standings":
        kind, rows = format_of(tournament).table(tournament)
        # A Swiss or solo tournament's table is its format's own; the others', their pools'.
        text = exports.format_table_csv(kind, rows) if kind else \
            exports.standings_csv(selectors.tournament_standings(tournament))
    else:
        raise Http404(_("No such export."))
    return _download(text, "text/csv; charset=utf-8", f"{slug}-{what}.csv")


@require_GET
def print_fixtures(request, slug):
    """A printable fixture list: one page per round."""
    tournament = tournament_for(request.user, slug, cached=True)
    rounds = pages.group_rounds(pages.fixtures(tournament))
    return render(request, "league/print_fixtures.html", {"tournament": tournament, "rounds": rounds})


@require_GET
def print_scoresheets(request, slug):
    """Printable score sheets for matches played on real boards or pitches: one page per round."""
    tournament = tournament_for(request.user, slug, cached=True)
    rounds = pages.group_rounds(pages.fixtures(tournament))
    # Organisers' sheets carry each match's scorer link as a QR code (its fixture's, else its pitch's): the
    # link is a secret, so the public's copy has none.
    if can_edit_tournament(request.user, tournament):
        by_fixture, by_venue = live_selectors.live_links(tournament)
        for round_ in rounds:
            for fixture in round_["fixtures"]:
                link = by_fixture.get(fixture.pk) or by_venue.get(fixture.venue)
                if link is not None:
                    fixture.scorer_qr = mark_safe(qr_svg_inline(live_views.scorer_url(request, link), scale=2))
    return render(request, "league/print_scoresheets.html", {"tournament": tournament, "rounds": rounds})


# --- accounts --------------------------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def signup(request):
    """Sign up with a username, an e-mail address and a password, then be signed in (limited per client)."""
    if request.method == "POST":
        wait = limit_wait(request, group="signup", rate=settings.SIGNUP_RATE)
        if wait:
            return too_many_requests(request, wait)
    form = forms.SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = services.user_create(username=form.cleaned_data["username"], password=form.cleaned_data["password1"],
                                    email=form.cleaned_data["email"])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(name)s. You can now create a tournament.") % {"name": user.username})
        return redirect("league:tournament_new")
    return render(request, "registration/signup.html", {"form": form})


_password_reset = auth_views.PasswordResetView.as_view()


@require_http_methods(["GET", "POST"])
def password_reset(request):
    """"Forgot your password?": Django's reset by e-mail, with the requests limited per client (each one sends
    a mail)."""
    if request.method == "POST":
        wait = limit_wait(request, group="password-reset", rate=settings.PASSWORD_RESET_RATE)
        if wait:
            return too_many_requests(request, wait)
    return _password_reset(request)


# --- organiser: create and manage ------------------------------------------------------------------------------------


def _next_url(request, default: str) -> str:
    """Where to go after a form: the page's ``next`` when it is one of ours, else ``default``."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return default


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request):
    """Create a tournament from a format, with its teams (the nations, the organiser's own, a pasted list, a
    CSV) on the same page; with no team yet it is a draft, and the organiser goes on to its Teams page."""
    form = forms.TournamentCreateForm(request.POST or None, request.FILES or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.tournament_start(
                format=data["format"], name=data["name"], slug=data["slug"] or None, user=request.user,
                teams=list(data.get("own_teams") or []), team_rows=form.team_rows(), nations=data["nations"],
                ruleset=data["ruleset"] or None, points_system=data["points_system"],
                points_rules=data["points_rules"], visibility=data["visibility"], time_zone=data["time_zone"],
                double=data["double_round_robin"], pools=data["pools"], rounds=data["rounds"],
                attempts=data["attempts"])
        except ValidationError as exc:
            form_error(form, exc)
        else:
            count = tournament.entries.count()
            if tournament.status == Tournament.Status.DRAFT and count:
                messages.success(request, _(
                    "Draft “%(name)s” created with %(count)s teams. Their fixtures are too many to make at once: "
                    "generate them here, and a worker makes them while a progress page follows it.")
                    % {"name": tournament.name, "count": count})
                return redirect("league:manage_fixtures", slug=tournament.slug)
            if tournament.status == Tournament.Status.DRAFT:
                messages.success(request, _("Draft “%(name)s” created. Next: add its teams.")
                                 % {"name": tournament.name})
                return redirect("league:manage_teams", slug=tournament.slug)
            messages.success(request, _("Tournament “%(name)s” created with %(count)s teams.")
                             % {"name": tournament.name, "count": count})
            return redirect("league:manage", slug=tournament.slug)
    return render(request, "league/tournament_new.html", {
        "form": form, "formats": forms.format_descriptions(), "format_fields": _format_fields()})


def _format_fields() -> dict[str, list[str]]:
    """Which of the new-tournament form's option fields each format uses (the page's script shows only those;
    without the script every field shows, and each format ignores the others')."""
    return {key: [*(["double_round_robin"] if fmt.round_robin else []),
                  *(name for name in ("pools", "rounds", "attempts") if name in fmt.option_names),
                  *(["teams"] if not fmt.fixed_teams else [])]
            for key, fmt in FORMATS.items()}


@login_required
@require_http_methods(["GET", "POST"])
def manage_settings(request, slug):
    """Change the name, visibility, status, points system (a preset or every part of a custom one: the tables
    and knockout places follow), the Swiss rounds, the walkover score and the online move clock."""
    tournament = tournament_for(request.user, slug, edit=True)
    form = forms.TournamentSettingsForm(request.POST or None, tournament=tournament,
                                        initial=forms.TournamentSettingsForm.initial_for(tournament))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        fields = {name: data[name] for name in ("name", "visibility", "status", "time_zone", "walkover_score",
                                                "walkover_tries", "move_clock_seconds", "half_minutes",
                                                "live_result_needs_confirmation")}
        fields["points_system"] = data["points_system"]
        if data["points_rules"] is not None:
            fields["points_rules"] = data["points_rules"]
        if "rounds" in form.fields and data.get("rounds"):
            fields["format_options"] = {**(tournament.format_options or {}), "rounds": data["rounds"]}
        try:
            services.tournament_settings_change(tournament=tournament, user=request.user, **fields)
        except ValidationError as exc:
            form_error(form, exc)
        else:
            messages.success(request, _("Settings saved."))
            return redirect("league:manage", slug=slug)
    return render(request, "league/manage_settings.html", {"tournament": tournament, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def manage_delete(request, slug):
    """Delete the tournament with everything in it, after a confirmation."""
    tournament = tournament_for(request.user, slug, edit=True)
    form = forms.ConfirmForm(request.POST or None, reason=False,
                             confirm_label=_("Yes, delete “%(name)s”, its teams' entries, fixtures and results")
                             % {"name": tournament.name})
    if request.method == "POST" and form.is_valid():
        name = tournament.name
        services.tournament_delete(tournament=tournament, user=request.user)
        messages.success(request, _("“%(name)s” is deleted.") % {"name": name})
        return redirect("league:tournament_list")
    return render(request, "league/manage_confirm.html", {
        "tournament": tournament, "form": form, "title": _("Delete the tournament"),
        "submit": _("Delete the tournament"), "danger": True,
        "intro": _("Its %(entries)s entries, %(fixtures)s fixtures and %(results)s results are deleted for good. "
                   "The teams themselves stay yours.") % {
            "entries": tournament.entries.count(), "fixtures": tournament.fixtures.count(),
            "results": Result.objects.filter(fixture__tournament=tournament).count()}})


@login_required
@require_POST
def manage_publish(request, slug):
    """Publish (public and listed, no longer a draft) or hide (unlisted) the tournament."""
    tournament = tournament_for(request.user, slug, edit=True)
    if request.POST.get("action") == "hide":
        services.tournament_hide(tournament=tournament, user=request.user)
        messages.success(request, _("The tournament is hidden from the list (people with the link can see it)."))
    else:
        services.tournament_publish(tournament=tournament, user=request.user)
        messages.success(request, _("The tournament is published."))
    return redirect("league:manage", slug=slug)


@login_required
@require_http_methods(["GET", "POST"])
def manage_organisers(request, slug):
    """Invite co-organisers by username, and remove them (never the last one; leaving is removing oneself)."""
    tournament = tournament_for(request.user, slug, edit=True)
    if request.method == "POST" and request.POST.get("action") == "remove":
        person = tournament.organisers.filter(pk=_int(request.POST.get("user"))).first()
        if person is None:
            messages.error(request, _("That person does not organise this tournament."))
            return redirect("league:manage_organisers", slug=slug)
        try:
            services.organiser_remove(tournament=tournament, user=person, by=request.user)
        except ValidationError as exc:
            messages.error(request, error_text(exc))
            return redirect("league:manage_organisers", slug=slug)
        if person.pk == request.user.pk and not request.user.is_superuser:
            messages.success(request, _("You no longer organise “%(name)s”.") % {"name": tournament.name})
            return redirect("league:tournament_list")
        messages.success(request, _("%(name)s no longer organises this tournament.") % {"name": person.username})
        return redirect("league:manage_organisers", slug=slug)
    form = forms.InviteOrganiserForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        services.organiser_add(tournament=tournament, user=form.user, by=request.user)
        messages.success(request, _("%(name)s now organises this tournament.") % {"name": form.user.username})
        return redirect("league:manage_organisers", slug=slug)
    organisers = list(tournament.organisers.order_by("username"))
    return render(request, "league/manage_organisers.html", {
        "tournament": tournament, "form": form, "organisers": organisers, "can_remove": len(organisers) > 1})


def _int(value) -> int | None:
    value = (value or "").strip()
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 18 else None


@login_required
@require_http_methods(["GET", "POST"])
def manage_teams(request, slug):
    """The tournament's teams: their seeds and pools (changed before the fixtures are made), links to change
    a team, remove or withdraw it; and adding teams: the 20 RWC 2023 nations in one click, the organiser's own
    teams, one new team, a pasted list, or a CSV file."""
    tournament = tournament_for(request.user, slug, edit=True)
    action = request.POST.get("action") if request.method == "POST" else None
    if action not in (None, "nations", "own", "team", "paste", "csv", "arrange"):
        messages.error(request, _("Choose one of the ways to add teams below."))
    own_form = forms.OwnTeamsForm(request.POST if action == "own" else None, prefix="own", user=request.user,
                                  tournament=tournament)
    team_form = forms.TeamForm(request.POST if action == "team" else None, prefix="team",
                               instance=Team(owner=request.user))
    paste_form = forms.PasteTeamsForm(request.POST if action == "paste" else None, prefix="paste")
    csv_form = forms.TeamsCsvForm(request.POST if action == "csv" else None,
                                  request.FILES if action == "csv" else None, prefix="csv")
    entries = pages.manage_entries(tournament, request.user)
    pools = list(tournament.pools.all())
    arrange_form = forms.EntriesArrangeForm(request.POST if action == "arrange" else None, prefix="arrange",
                                            entries=entries, pools=pools)
    if action == "nations":
        try:
            added = services.nations_enter(tournament=tournament, user=request.user)
        except ValidationError as exc:
            messages.error(request, error_text(exc))
        else:
            if added:
                messages.success(request, _("%(count)s nations added.") % {"count": len(added)})
            else:
                messages.info(request, _("The 20 nations are already entered."))
            return redirect("league:manage_teams", slug=slug)
    if action == "arrange" and arrange_form.is_valid():
        seeds, pool_names = arrange_form.changes()
        try:
            changed = services.entries_arrange(tournament=tournament, seeds=seeds, pools=pool_names,
                                               user=request.user)
        except ValidationError as exc:
            form_error(arrange_form, exc)
        else:
            messages.success(request, _("Seeds and pools saved (%(count)s teams changed).") % {"count": changed})
            return redirect("league:manage_teams", slug=slug)
    if action == "own" and own_form.is_valid():
        try:
            added = services.entries_add(tournament=tournament, teams=list(own_form.cleaned_data["teams"]),
                                         user=request.user)
        except ValidationError as exc:
            form_error(own_form, exc)
        else:
            messages.success(request, _("%(count)s teams added.") % {"count": len(added)})
            return redirect("league:manage_teams", slug=slug)
    forms_by_action = {"team": team_form, "paste": paste_form, "csv": csv_form}
    form = forms_by_action.get(action or "")
    if form is not None and form.is_valid():
        rows = {"team": lambda: [{**team_form.cleaned_data, "line": 1}],
                "paste": lambda: paste_form.cleaned_data["teams"],
                "csv": lambda: csv_form.cleaned_data["file"]}[action]()
        try:
            added = services.teams_enter_own(tournament=tournament, rows=rows, user=request.user)
        except ValidationError as exc:
            form_error(form, exc)
        else:
            text = {"team": _("Team added."), "paste": _("%(count)s teams added."),
                    "csv": _("%(count)s teams imported.")}[action]
            messages.success(request, text % {"count": len(added)} if "%(count)s" in text else text)
            return redirect("league:manage_teams", slug=slug)
    fixtures_made = tournament.fixtures.exists()
    return render(request, "league/manage_teams.html", {
        "tournament": tournament, "entries": entries, "arrange_form": arrange_form, "fixtures_made": fixtures_made,
        "own_form": own_form, "team_form": team_form, "paste_form": paste_form, "csv_form": csv_form,
        "needs_draw": format_of(tournament).needs_draw, "drawn": bool(pools)})


@login_required
@require_http_methods(["GET", "POST"])
def manage_entry_remove(request, slug, entry_pk):
    """Remove a team entered by mistake (no result yet: its unplayed pool fixtures go with it)."""
    tournament = tournament_for(request.user, slug, edit=True)
    entry = get_object_or_404(Entry.objects.select_related("team"), tournament=tournament, pk=entry_pk)
    count = services.entry_removal_fixtures(entry)
    form = forms.ConfirmForm(request.POST or None, reason=False,
                             confirm_label=_("Yes, remove %(team)s from this tournament") % {"team": entry.team.name})
    if request.method == "POST" and form.is_valid():
        try:
            services.entry_delete(entry=entry, user=request.user)
        except ValidationError as exc:
            form_error(form, exc)
        else:
            messages.success(request, _("%(team)s is removed.") % {"team": entry.team.name})
            return redirect("league:manage_teams", slug=slug)
    intro = _("%(team)s leaves the tournament as if it had never been entered (the team itself is not deleted).") \
        % {"team": entry.team.name}
    if count:
        intro += " " + _("Its %(count)s fixtures, none played, are deleted.") % {"count": count}
    return render(request, "league/manage_confirm.html", {
        "tournament": tournament, "form": form, "title": _("Remove %(team)s") % {"team": entry.team.name},
        "submit": _("Remove"), "danger": True, "intro": intro,
        "back": reverse("league:manage_teams", args=[slug])})


@login_required
@require_http_methods(["GET", "POST"])
def manage_fixtures_clear(request, slug):
    """Delete every fixture while none has a result, to change seeds and pools and make them again."""
    tournament = tournament_for(request.user, slug, edit=True)
    form = forms.ConfirmForm(request.POST or None, reason=False,
                             confirm_label=_("Yes, delete all %(count)s fixtures") % {
                                 "count": tournament.fixtures.count()})
    if request.method == "POST" and form.is_valid():
        try:
            services.fixtures_clear(tournament=tournament, user=request.user)
        except ValidationError as exc:
            form_error(form, exc)
        else:
            messages.success(request, _("The fixtures are deleted: change the seeds and pools, then make them "
                                        "again."))
            return redirect("league:manage_teams", slug=slug)
    return render(request, "league/manage_confirm.html", {
        "tournament": tournament, "form": form, "title": _("Delete the fixtures"), "submit": _("Delete the fixtures"),
        "danger": True, "back": reverse("league:manage_fixtures", args=[slug]),
        "intro": _("Only while no fixture has a result. The draw (the pools) stays; the fixtures are made again "
                   "on the Fixtures page.")})


@login_required
@require_GET
def manage_history(request, slug):
    """The tournament's audit trail: every change (settings, organisers, teams, entries, fixtures, results),
    newest first, with who made it."""
    tournament = tournament_for(request.user, slug, edit=True)
    return render(request, "league/manage_history.html", {
        "tournament": tournament, "changes": pages.history(tournament)})


# --- the organiser's own teams ---------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def my_teams(request):
    """The teams the signed-in organiser owns: where each is entered, a link to change it, and a form for a new
    one (to enter in tournaments later)."""
    form = forms.TeamForm(request.POST or None, prefix="team", instance=Team(owner=request.user))
    if request.method == "POST" and form.is_valid():
        try:
            services.team_save(team=form.instance, user=request.user)
        except ValidationError as exc:
            form_error(form, exc)
        else:
            messages.success(request, _("Team “%(name)s” added.") % {"name": form.instance.name})
            return redirect("league:my_teams")
    return render(request, "league/my_teams.html", {"teams": pages.own_teams(request.user), "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def team_edit(request, pk):
    """Rename a team, change its code or colours (its owner only: anyone else gets a 404); every page that
    shows it follows. A team never entered can be deleted here too."""
    team = get_object_or_404(Team.objects.filter(owner=request.user), pk=pk)
    back = _next_url(request, reverse("league:my_teams"))
    action = request.POST.get("action") if request.method == "POST" else None
    form = forms.TeamForm(request.POST if action == "save" else None, instance=team)
    delete_form = forms.ConfirmForm(request.POST if action == "delete" else None, prefix="delete", reason=False,
                                    confirm_label=_("Yes, delete this team"))
    if action == "save" and form.is_valid():
        try:
            services.team_save(team=form.instance, user=request.user)
        except ValidationError as exc:
            form_error(form, exc)
        else:
            messages.success(request, _("Team “%(name)s” saved.") % {"name": team.name})
            return redirect(back)
    if action == "delete" and delete_form.is_valid():
        try:
            services.team_delete(team=team, user=request.user)
        except ValidationError as exc:
            form_error(delete_form, exc)
        else:
            messages.success(request, _("Team deleted."))
            return redirect("league:my_teams")
    tournaments = list(Tournament.objects.filter(entries__team=team).order_by("-created_at").distinct())
    return render(request, "league/team_edit.html", {"team": team, "form": form, "delete_form": delete_form,
                                                     "tournaments": tournaments, "back": back})


@login_required
@require_http_methods(["GET", "POST"])
def manage_draw(request, slug):
    """Draw the pools, seeded by bands or at random; the seed is shown so anyone can check the draw."""
    tournament = tournament_for(request.user, slug, edit=True)
    form = forms.DrawForm(request.POST or None, initial={"pool_count": format_of(tournament).pool_count(tournament)})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            # Fixtures are the next step (with dates and venues), so the draw only fills the pools.
            services.pools_draw(tournament=tournament, method=data["method"], pools=data["pool_count"],
                                seed=data["seed"], generate_fixtures=False, user=request.user)
        except ValidationError as exc:
            form_error(form, exc)
        else:
            messages.success(request, _("Pools drawn (seed %(seed)s). Next: generate the fixtures.")
                             % {"seed": tournament.draw_seed})
            return redirect("league:manage_draw", slug=slug)
    pools = tournament.pools.prefetch_related("entries__team")
    return render(request, "league/manage_draw.html", {"tournament": tournament, "form": form, "pools": pools,
                                                       "needs_draw": format_of(tournament).needs_draw})


@login_required
@require_http_methods(["GET", "POST"])
def manage_fixtures(request, slug):
    """Generate the fixtures the format needs: round robins with dates, kick-off times and venues, brackets,
    the next Swiss round or the solo attempts."""
    tournament = tournament_for(request.user, slug, edit=True)
    form = forms.FixturesForm(request.POST or None, initial={**forms.SchedulePlanForm.initial_for(tournament),
                                                             "double": tournament.double_round_robin})
    if request.method == "POST" and form.is_valid():
        try:
            job = services.fixtures_generate_or_queue(tournament=tournament, user=request.user, **form.cleaned_data)
        except ValidationError as exc:
            form_error(form, exc)
        else:
            if job is not None:  # a large generation runs on the workers: follow it on its progress page
                return redirect("league:manage_fixture_job", slug=slug, pk=job.pk)
            messages.success(request, _("Fixtures generated. Here is their schedule: move, swap or push them "
                                        "back here."))
            return redirect("league:manage_schedule", slug=slug)
    return render(request, "league/manage_form.html", {
        "tournament": tournament, "form": form, "title": _("Generate fixtures"), "submit": _("Generate fixtures"),
        "intro": _(format_of(tournament).fixtures_intro)})


@login_required
@require_GET
def manage_fixture_job(request, slug, pk):
    """The progress of a large fixture generation running on the workers (htmx refreshes it until it ends)."""
    tournament = tournament_for(request.user, slug, edit=True)
    job = get_object_or_404(FixtureJob, tournament=tournament, pk=pk)
    template = "league/_fixture_job.html" if request.htmx else "league/manage_fixture_job.html"
    return render(request, template, {"tournament": tournament, "job": job})


@login_required
@require_http_methods(["GET", "POST"])
def manage_players(request, slug):
    """Assign a person (or the computer) to each team, and print their join codes."""
    tournament = tournament_for(request.user, slug, edit=True)
    entries = list(tournament.entries.select_related("team", "player").order_by("seed", "team__name"))
    formset = [forms.EntryPlayerForm(request.POST or None, instance=e, prefix=f"e{e.pk}") for e in entries]
    if request.method == "POST":
        if all(f.is_valid() for f in formset):
            for f in formset:
                if f.has_changed():
                    services.entry_set_player(entry=f.instance, player=f.player,
                                              player_name=f.cleaned_data["player_name"],
                                              computer_level=f.cleaned_data["computer_level"])
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
    tournament = tournament_for(request.user, slug, edit=True)
    rounds = pages.group_rounds(pages.fixtures(tournament))
    return render(request, "league/manage_results.html", {"tournament": tournament, "rounds": rounds})


@login_required
@require_http_methods(["GET", "POST"])
def manage_result(request, slug, pk):
    """Enter or correct one fixture's result."""
    tournament = tournament_for(request.user, slug, edit=True)
    fixture = get_object_or_404(Fixture.objects.select_related("pool", "home__team", "away__team", "result"),
                                tournament=tournament, pk=pk)
    result = exports.result_of(fixture)
    initial = {}
    if result is not None:
        initial = {"home_score": result.home_score, "away_score": result.away_score, "home_tries": result.home_tries,
                   "away_tries": result.away_tries, "kind": result.kind, "decided_by": result.decided_by,
                   "winner": ("home" if result.winner_id == fixture.home_id else "away") if result.winner_id else ""}
    form = forms.ResultForm(request.POST or None, fixture=fixture, initial=initial, correcting=result is not None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            saved = services.result_correct(
                reset_later_rounds=data.get("reset_later_rounds", False), fixture=fixture,
                home_score=data["home_score"], away_score=data["away_score"],
                home_tries=data["home_tries"], away_tries=data["away_tries"], kind=data["kind"],
                winner=data.get("winner_entry"), decided_by=data.get("decided_by") or "", source=Result.Source.MANUAL,
                user=request.user, reason=data.get("reason", ""))
        except ValidationError as exc:
            form_error(form, exc)
        else:
            messages.success(request, _("Result saved: %(home)s %(hs)s–%(as)s %(away)s.") % {
                "home": side_name(fixture, "home"), "hs": saved.home_score, "as": saved.away_score,
                "away": side_name(fixture, "away")})
            return redirect(reverse("league:manage_results", args=[slug]) + f"#fixture-{fixture.pk}")
    return render(request, "league/manage_result.html", {"tournament": tournament, "fixture": fixture, "form": form,
                                                         "result": result})


@login_required
@require_http_methods(["GET", "POST"])
def manage_result_delete(request, slug, pk):
    """Delete one fixture's result after a confirmation: the tables, the bracket and the next Swiss round
    follow (a later knockout result it decided is refused, unless the later rounds are reset)."""
    tournament = tournament_for(request.user, slug, edit=True)
    fixture = get_object_or_404(Fixture.objects.select_related("pool", "home__team", "away__team", "result"),
                                tournament=tournament, pk=pk)
    result = exports.result_of(fixture)
    if result is None:
        messages.info(request, _("This fixture has no result."))
        return redirect(reverse("league:manage_results", args=[slug]) + f"#fixture-{fixture.pk}")
    form = forms.ConfirmForm(request.POST or None, confirm_label=_("Yes, delete this result"),
                             reset_later_rounds=fixture.stage == Fixture.Stage.KNOCKOUT)
    if request.method == "POST" and form.is_valid():
        try:
            services.result_delete(fixture=fixture, user=request.user, reason=form.cleaned_data["reason"],
                                   reset_later_rounds=form.cleaned_data.get("reset_later_rounds", False))
        except ValidationError as exc:
            form_error(form, exc)
        else:
            messages.success(request, _("Result deleted: %(home)s v %(away)s has no result now.") % {
                "home": side_name(fixture, "home"), "away": side_name(fixture, "away")})
            return redirect(reverse("league:manage_results", args=[slug]) + f"#fixture-{fixture.pk}")
    return render(request, "league/manage_confirm.html", {
        "tournament": tournament, "form": form, "danger": True, "submit": _("Delete the result"),
        "title": _("Delete %(home)s %(hs)s–%(as)s %(away)s") % {
            "home": side_name(fixture, "home"), "hs": result.home_score, "as": result.away_score,
            "away": side_name(fixture, "away")},
        "intro": _("The tables and the bracket are worked out again without it; the audit trail keeps it."),
        "back": reverse("league:manage_result", args=[slug, fixture.pk])})


@login_required
@require_http_methods(["GET", "POST"])
def manage_results_import(request, slug):
    """Import results from a CSV file; any bad row is reported with its line number and nothing is saved."""
    tournament = tournament_for(request.user, slug, edit=True)
    form = forms.ResultsImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            summary = services.results_import_csv(tournament=tournament, file=form.cleaned_data["file"],
                                                  user=request.user)
        except ValidationError as exc:
            form_error(form, exc)
        else:
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
def manage_withdraw(request, slug, entry_pk):
    """Withdraw a team: its remaining fixtures are forfeited with the walkover score."""
    tournament = tournament_for(request.user, slug, edit=True)
    entry = get_object_or_404(Entry.objects.select_related("team"), tournament=tournament, pk=entry_pk)
    form = forms.WithdrawForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.entry_withdraw(entry=entry, keep_played_results=form.cleaned_data["keep_played"],
                                    user=request.user)
        except ValidationError as exc:
            form_error(form, exc)
        else:
            messages.success(request, _("%(team)s has withdrawn.") % {"team": entry.team.name})
            return redirect("league:manage_teams", slug=slug)
    return render(request, "league/manage_form.html", {
        "tournament": tournament, "form": form, "title": _("Withdraw %(team)s") % {"team": entry.team.name},
        "submit": _("Withdraw"), "intro": _("Its remaining fixtures become walkovers to its opponents.")})


# --- badges and the QR code ------------------------------------------------------------------------------------------

_CREST = re.compile(r"^(?P<initials>[^\W_]{1,3})-(?P<primary>[0-9A-F]{6})-(?P<secondary>[0-9A-F]{6})$")
_LOGO_NAME = re.compile(r"^[0-9a-f]{40}\.png$")
# Badges and QR codes never change for a given URL (a crest's URL is its content; a logo's name its hash).
_FOREVER = 60 * 60 * 24 * 365


def _luminance(hex_colour: str) -> float:
    r, g, b = (int(hex_colour[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _image_response(content: bytes | str, content_type: str, max_age: int = _FOREVER) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["X-Content-Type-Options"] = "nosniff"
    # An image opened on its own runs nothing and loads nothing.
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
    patch_cache_control(response, public=True, max_age=max_age)
    return response


@require_GET
def team_crest(request, spec):
    """A team's crest: a shield in its primary colour edged in its secondary, with its initials (an SVG made
    from the URL alone: ``SJC-1F6F3F-FFFFFF``)."""
    match = _CREST.match(spec)
    if match is None:
        raise Http404(_("No such crest."))
    primary, secondary = match["primary"], match["secondary"]
    # The initials in whichever of the secondary colour, white or black reads best on the primary.
    text = secondary
    if abs(_luminance(primary) - _luminance(secondary)) < 0.35:
        text = "FFFFFF" if _luminance(primary) < 0.5 else "1B1B1B"
    initials = match["initials"]
    size = {1: 22, 2: 17, 3: 13}[len(initials)]
    svg = format_html(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 48" width="40" height="48" role="img" '
        'aria-label="{}"><path d="M3 3h34v21c0 11-8 18-17 21C11 42 3 35 3 24z" fill="#{}" stroke="#{}" '
        'stroke-width="3" stroke-linejoin="round"/><text x="20" y="{}" text-anchor="middle" '
        'font-family="DejaVu Sans, Verdana, sans-serif" font-weight="700" font-size="{}" fill="#{}">{}</text></svg>',
        initials, primary, secondary, 22 + size // 3, size, text, initials)
    return _image_response(svg, "image/svg+xml")


@require_GET
def team_logo(request, name):
    """An uploaded logo (a PNG re-encoded by ``services.team_logo_set``), served as an image and nothing else."""
    if not _LOGO_NAME.match(name):
        raise Http404(_("No such logo."))
    path = services.teams.logo_path(name)
    if not path.is_file():
        raise Http404(_("No such logo."))
    response = _image_response(path.read_bytes(), "image/png")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


@require_GET
def tournament_qr(request, slug):
    """The QR code of the tournament's public page, for a phone's camera."""
    tournament = tournament_for(request.user, slug, cached=True)
    url = request.build_absolute_uri(reverse("league:tournament", args=[tournament.slug]))
    return _image_response(qr_svg(url), "image/svg+xml", max_age=60 * 60)


# --- organiser: the schedule ------------------------------------------------------------------------------------------


def _schedule_days(tournament) -> list[dict]:
    """The fixtures grouped by local day, each day's in kick-off order (undated ones last)."""
    return pages.group_days(pages.fixtures(tournament))


@login_required
@require_http_methods(["GET", "POST"])
def manage_schedule(request, slug):
    """The day's schedule on one page: every fixture by day with a "Move" link, "the day runs late" (push the
    later fixtures back), the plan of the days (re-time everything still to play), clashes and the log."""
    tournament = tournament_for(request.user, slug, edit=True)
    action = request.POST.get("action") if request.method == "POST" else None
    days = schedule_selectors.schedule_days(tournament)
    listed = _schedule_days(tournament)
    plan_form = forms.SchedulePlanForm(request.POST if action == "plan" else None,
                                       initial=forms.SchedulePlanForm.initial_for(tournament), prefix="plan")
    push_day = _default_push_day(days, tournament)
    push_form = forms.PushForm(request.POST if action == "push" else None, days=days, prefix="push",
                               initial={"day": push_day, "after": _next_kickoff(listed, push_day, tournament)})
    if action == "plan" and plan_form.is_valid():
        try:
            count = services.schedule_retime(tournament=tournament, user=request.user, **plan_form.plan())
        except ValidationError as exc:
            form_error(plan_form, exc)
        else:
            messages.success(request, _("%(count)s fixtures scheduled.") % {"count": count})
            return redirect("league:manage_schedule", slug=slug)
    elif action == "push" and push_form.is_valid():
        data = push_form.cleaned_data
        try:
            count = services.fixtures_push(tournament=tournament, day=data["day"], after=data["after"],
                                           minutes=data["minutes"], user=request.user, reason=data["reason"])
        except ValidationError as exc:
            form_error(push_form, exc)
        else:
            messages.success(request, _("%(count)s fixtures moved by %(minutes)s minutes.") % {
                "count": count, "minutes": data["minutes"]})
            return redirect("league:manage_schedule", slug=slug)
    elif action is not None and action not in ("plan", "push"):
        messages.error(request, _("Choose one of the forms below."))
    return render(request, "league/manage_schedule.html", {
        "tournament": tournament, "days": listed, "plan_form": plan_form,
        "push_form": push_form, "clashes": schedule_selectors.schedule_clashes(tournament),
        "changes": schedule_selectors.schedule_changes(tournament, limit=10), "open_plan": action == "plan",
        "open_push": action == "push", "event": event_selectors.event_of(tournament)})


def _next_kickoff(listed, day, tournament):
    """The local kick-off of the first fixture still to play on ``day`` (the push form's "at or after")."""
    for group in listed:
        if group["day"] is not None and group["day"].isoformat() == day:
            for f in group["fixtures"]:
                if schedule_selectors.is_open(f) and f.kickoff is not None:
                    return timezone.localtime(f.kickoff, tournament.zone).strftime("%H:%M")
    return None


def _default_push_day(days, tournament):
    """Today if the tournament plays today, else its first day with fixtures."""
    today = timezone.localdate(timezone=tournament.zone)
    return (today if today in days else days[0]).isoformat() if days else None


@login_required
@require_http_methods(["GET", "POST"])
def manage_schedule_fixture(request, slug, pk):
    """Move one fixture (day, kick-off, pitch) or swap it with another; a clash is refused, naming it."""
    tournament = tournament_for(request.user, slug, edit=True)
    fixture = get_object_or_404(Fixture.objects.select_related("pool", "home__team", "away__team", "result"),
                                tournament=tournament, pk=pk)
    action = request.POST.get("action") if request.method == "POST" else None
    local = timezone.localtime(fixture.kickoff, tournament.zone) if fixture.kickoff else None
    move_form = forms.MoveFixtureForm(request.POST if action == "move" else None, prefix="move", initial={
        "day": local.date() if local else tournament.first_day, "time": local.time() if local else None,
        "venue": fixture.venue})
    others = [f for f in pages.fixtures(tournament)
              if f.pk != fixture.pk and schedule_selectors.is_open(f) and f.kickoff is not None]
    swap_form = forms.SwapFixtureForm(request.POST if action == "swap" else None, prefix="swap", choices=[
        (f.pk, f"{timezone.localtime(f.kickoff, tournament.zone):%a %H:%M}"
               f"{' · ' + f.venue if f.venue else ''} · {exports.fixture_title(f)}") for f in others])
    done = None
    if action == "move" and move_form.is_valid():
        data = move_form.cleaned_data
        try:
            kickoff = local_datetime(tournament.time_zone, data["day"], data["time"])
            services.fixture_move(fixture=fixture, kickoff=kickoff, venue=data["venue"], user=request.user,
                                  reason=data["reason"])
        except ValidationError as exc:
            form_error(move_form, exc)
        else:
            done = _("%(fixture)s moved.") % {"fixture": exports.fixture_title(fixture)}
    elif action == "swap" and swap_form.is_valid():
        other = next((f for f in others if f.pk == swap_form.cleaned_data["other"]), None)
        try:
            if other is None:
                raise DomainError({"other": [_("Choose a fixture still to play.")]})
            services.fixtures_swap(first=fixture, second=other, user=request.user,
                                   reason=swap_form.cleaned_data["reason"])
        except ValidationError as exc:
            form_error(swap_form, exc)
        else:
            done = _("%(first)s and %(second)s swapped.") % {"first": exports.fixture_title(fixture),
                                                              "second": exports.fixture_title(other)}
    elif action is not None and action not in ("move", "swap"):
        messages.error(request, _("Choose one of the forms below."))
    if done:
        messages.success(request, done)
        return redirect(reverse("league:manage_schedule", args=[slug]) + f"#fixture-{fixture.pk}")
    return render(request, "league/manage_schedule_fixture.html", {
        "tournament": tournament, "fixture": fixture, "move_form": move_form, "swap_form": swap_form,
        "played": exports.result_of(fixture) is not None, "pitches": tournament.pitches or []})


@login_required
@require_http_methods(["GET", "POST"])
def manage_team_logo(request, slug, entry_pk):
    """Upload (or remove) the logo of one of the organiser's own teams; nations keep their flags."""
    tournament = tournament_for(request.user, slug, edit=True)
    entry = get_object_or_404(Entry.objects.select_related("team"), tournament=tournament, pk=entry_pk)
    form = forms.TeamLogoForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        try:
            if request.POST.get("action") == "remove":
                services.team_logo_clear(team=entry.team, user=request.user)
                messages.success(request, _("Logo removed: the crest in the team's colours shows again."))
                return redirect("league:manage_teams", slug=slug)
            if form.is_valid():
                services.team_logo_set(team=entry.team, file=form.cleaned_data["logo"], user=request.user)
                messages.success(request, _("Logo saved."))
                return redirect("league:manage_teams", slug=slug)
        except ValidationError as exc:
            form_error(form, exc)
    return render(request, "league/manage_team_logo.html", {"tournament": tournament, "entry": entry, "form": form})

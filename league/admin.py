"""Django admin for the league, usable by an organiser.

Access: superusers see everything. A staff user who is not a superuser sees and changes only the
tournaments they organise (``league.permissions.editable_tournaments``) and what is inside them,
without needing per-model Django permissions: being an organiser is the permission, as on the site
and in the API. Teams are readable by every staff user; they change only the teams they created
(the 20 nations are fixed).

Every save and delete goes through ``league.services`` (``ServiceAdminMixin``): results through
``result_record`` / ``result_delete``, so the admin keeps the audit trail (``ResultChange``, read-only here)
and the score checks exactly as the API and the pages do; tournaments, pools, entries, fixtures and teams
through their ``*_save`` / ``*_delete`` services, which refresh the public pages' cache.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext_lazy as _

from league import services
from league.errors import error_text
from league.models import (
    Division,
    Donation,
    Entry,
    EntryFee,
    Event,
    Fixture,
    NationDraw,
    Pledge,
    Pool,
    Registration,
    Result,
    ResultChange,
    Team,
    Tournament,
)
from league.permissions import can_edit_event, can_edit_tournament, editable_tournaments, tournament_of
from league.selectors import teams_for
from league.services import fundraising as fundraising_services
from league.services import registrations as registration_services


def _is_staff(request) -> bool:
    user = request.user
    return bool(user.is_active and user.is_staff)


def _editable_pools(request):
    return Pool.objects.filter(tournament__in=editable_tournaments(request.user)).select_related("tournament")


def _editable_entries(request, tournament=None):
    entries = Entry.objects.select_related("team", "tournament")
    if tournament is not None:
        return entries.filter(tournament=tournament)
    return entries.filter(tournament__in=editable_tournaments(request.user))


class StaffMayEditMixin:
    """Admin permissions for staff: the module and adding for any staff user, a row for whoever ``_may_edit`` it
    (its tournament's or event's organisers)."""

    def _may_edit(self, request, obj) -> bool:
        raise NotImplementedError

    def has_module_permission(self, request):
        return _is_staff(request)

    def has_view_permission(self, request, obj=None):
        return self._may_edit(request, obj)

    def has_add_permission(self, request, obj=None):
        return _is_staff(request)

    def has_change_permission(self, request, obj=None):
        return self._may_edit(request, obj)

    def has_delete_permission(self, request, obj=None):
        return self._may_edit(request, obj)


class OrganiserScopedMixin(StaffMayEditMixin):
    """Permissions and rows of a league model for organisers: only their own tournaments.

    ``tournament_path`` is the lookup from the model to its tournament ("" for Tournament itself).
    """

    tournament_path = "tournament"

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        lookup = f"{self.tournament_path}__in" if self.tournament_path else "pk__in"
        return queryset.filter(**{lookup: editable_tournaments(request.user).values("pk")})

    def _may_edit(self, request, obj) -> bool:
        if not _is_staff(request):
            return False
        if request.user.is_superuser or obj is None:
            return True
        tournament = tournament_of(obj)
        if tournament is None:
            return True
        # The admin asks many times per page (once per inline and row): one query per tournament and request.
        cache = request.__dict__.setdefault("_league_can_edit", {})
        if tournament.pk not in cache:
            cache[tournament.pk] = can_edit_tournament(request.user, tournament)
        return cache[tournament.pk]

    def get_deleted_objects(self, objs, request):
        deleted, model_count, perms_needed, protected = super().get_deleted_objects(objs, request)
        # Results and their audit rows cannot be deleted one by one here (they change only through the
        # service), but they go with the fixture or tournament they belong to, which this user may delete.
        perms_needed = perms_needed - {Result._meta.verbose_name, ResultChange._meta.verbose_name}
        return deleted, model_count, perms_needed, protected

    def delete_model(self, request, obj):
        _delete(obj, request.user)

    def delete_queryset(self, request, queryset):
        with transaction.atomic():
            for obj in queryset:
                _delete(obj, request.user)

    def save_model(self, request, obj, form, change):
        _save(obj, request.user)

    def save_formset(self, request, form, formset, change):
        _save_formset(formset, request.user)


def _save(obj, user):
    """Save an object the admin's form has filled, through its service."""
    if isinstance(obj, Tournament):
        return services.tournament_save(tournament=obj, user=user)
    if isinstance(obj, Pool):
        return services.pool_save(pool=obj)
    if isinstance(obj, Entry):
        return services.entry_save(entry=obj)
    if isinstance(obj, Fixture):
        return services.fixture_save(fixture=obj)
    if isinstance(obj, Team):
        return services.team_save(team=obj, user=user)
    raise TypeError(f"no service saves {type(obj).__name__} here")


def _delete(obj, user=None):
    """Delete an object through its service."""
    if isinstance(obj, Tournament):
        return services.tournament_delete(tournament=obj, user=user)
    if isinstance(obj, Pool):
        return services.pool_delete(pool=obj)
    if isinstance(obj, Entry):
        return services.entry_delete(entry=obj, user=user)
    if isinstance(obj, Fixture):
        return services.fixture_delete(fixture=obj)
    if isinstance(obj, Team):
        return services.team_delete(team=obj, user=user)
    raise TypeError(f"no service deletes {type(obj).__name__} here")


def _save_formset(formset, user):
    """What ``formset.save()`` does, through the services (an inline's new, changed and deleted rows)."""
    formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
    for form in formset.initial_forms:
        if form in formset.deleted_forms:
            if form.instance.pk is not None:
                _delete(form.instance)
                formset.deleted_objects.append(form.instance)
        elif form.has_changed():
            _save(form.instance, user)
            formset.changed_objects.append((form.instance, form.changed_data))
    for form in formset.extra_forms:
        if form.has_changed() and form not in formset.deleted_forms:
            setattr(form.instance, formset.fk.name, formset.instance)
            _save(form.instance, user)
            formset.new_objects.append(form.instance)


class ParentAwareInline(OrganiserScopedMixin):
    """An inline that knows its parent object, to offer only the parent tournament's pools and entries."""

    # Foreign keys whose choices are read once per formset instead of once per row.
    shared_choice_fields: tuple[str, ...] = ()

    def get_formset(self, request, obj=None, **kwargs):
        request._league_admin_parent = obj
        formset = super().get_formset(request, obj, **kwargs)
        if not self.shared_choice_fields:
            return formset
        shared_fields = self.shared_choice_fields

        class SharedChoicesFormSet(formset):
            def _construct_form(self, i, **form_kwargs):
                form = super()._construct_form(i, **form_kwargs)
                cache = self.__dict__.setdefault("_shared_choices", {})
                for name in shared_fields:
                    field = form.fields.get(name)
                    if field is None:
                        continue
                    if name not in cache:
                        cache[name] = list(field.choices)
                    field.choices = cache[name]  # the queryset still validates what is posted
                return form

        return SharedChoicesFormSet

    def has_add_permission(self, request, obj=None):
        return self._may_edit(request, obj)


def _parent_tournament(request):
    parent = getattr(request, "_league_admin_parent", None)
    return None if parent is None else tournament_of(parent)


class LeagueForeignKeysMixin:
    """Offer an organiser only the tournaments, pools and entries they may edit."""

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        tournament = _parent_tournament(request) or getattr(request, "_league_admin_tournament", None)
        if db_field.name == "tournament":
            kwargs["queryset"] = editable_tournaments(request.user)
        elif db_field.name == "pool":
            kwargs["queryset"] = (Pool.objects.filter(tournament=tournament).select_related("tournament")
                                  if tournament is not None else _editable_pools(request))
        elif db_field.name in {"home", "away", "winner"}:
            kwargs["queryset"] = _editable_entries(request, tournament)
        elif db_field.name == "team" and not request.user.is_superuser:
            kwargs["queryset"] = teams_for(request.user)  # the nations and their own teams
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


# --- Teams -----------------------------------------------------------------------------------------


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "owner", "primary_colour", "secondary_colour", "is_nation", "rwc2023_pool",
                    "world_ranking"]
    list_filter = ["is_nation", "rwc2023_pool"]
    search_fields = ["name", "code"]
    ordering = ["name"]
    readonly_fields = ["created_by"]

    def get_queryset(self, request):
        # An organiser sees (and picks, in an entry's autocomplete) the nations and their own teams only.
        queryset = super().get_queryset(request).select_related("owner")
        return queryset if request.user.is_superuser else queryset & teams_for(request.user)

    def get_readonly_fields(self, request, obj=None):
        if request.user.is_superuser:
            return self.readonly_fields
        # Nation data (pool, ranking) comes from the data migration; organisers describe their own teams.
        return [*self.readonly_fields, "owner", "is_nation", "rwc2023_pool", "world_ranking"]

    def has_module_permission(self, request):
        return _is_staff(request)

    def has_view_permission(self, request, obj=None):
        return _is_staff(request)

    def has_add_permission(self, request):
        return _is_staff(request)

    def has_change_permission(self, request, obj=None):
        if not _is_staff(request):
            return False
        if request.user.is_superuser or obj is None:
            return True
        return obj.owner_id is not None and obj.owner_id == request.user.pk

    def has_delete_permission(self, request, obj=None):
        return self.has_change_permission(request, obj)

    def save_model(self, request, obj, form, change):
        # A superuser who leaves the owner empty makes a team of the site; anyone else's team is theirs.
        services.team_save(team=obj, user=request.user, site_team=request.user.is_superuser and obj.owner_id is None)

    def delete_model(self, request, obj):
        _delete(obj, request.user)

    def delete_queryset(self, request, queryset):
        with transaction.atomic():
            for obj in queryset:
                _delete(obj, request.user)


# --- Tournaments, pools, entries ------------------------------------------------------------------


class PoolInline(ParentAwareInline, admin.TabularInline):
    model = Pool
    extra = 0
    fields = ["name", "order"]
    show_change_link = True


class EntryInline(ParentAwareInline, LeagueForeignKeysMixin, admin.TabularInline):
    model = Entry
    extra = 0
    fields = ["team", "seed", "pool", "player", "player_name", "computer_level", "withdrawn_at"]
    raw_id_fields = ["player"]
    shared_choice_fields = ("team", "pool")

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("team", "tournament", "pool", "player")


class ResultsImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file"))


@admin.register(Tournament)
class TournamentAdmin(OrganiserScopedMixin, admin.ModelAdmin):
    tournament_path = ""
    list_display = ["name", "slug", "format", "ruleset", "points_system", "visibility", "status", "created_at"]
    list_filter = ["status", "visibility", "format", "points_system"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]
    readonly_fields = ["draw_method", "draw_seed", "version", "created_at"]
    inlines = [PoolInline, EntryInline]
    actions = ["publish", "mark_finished", "make_public", "make_unlisted"]
    fieldsets = [
        (None, {"fields": ["name", "slug", "status", "visibility", "organisers"]}),
        (_("Game"), {"fields": ["ruleset", "ruleset_options", "format", "format_options", "double_round_robin"]}),
        (_("Points"), {"fields": ["points_system", "points_rules", "walkover_score", "walkover_tries"]}),
        (_("Draw"), {"fields": ["draw_method", "draw_seed", "version", "created_at"]}),
    ]

    def get_form(self, request, obj=None, change=False, **kwargs):
        request._league_admin_tournament = obj
        return super().get_form(request, obj, change=change, **kwargs)

    def _each(self, request, queryset, message, change):
        tournaments = list(queryset)
        with transaction.atomic():
            for tournament in tournaments:
                change(tournament)
        self.message_user(request, message % {"count": len(tournaments)}, messages.SUCCESS)

    @admin.action(description=_("Publish: public and in progress (as the organiser's Publish button)"))
    def publish(self, request, queryset):
        self._each(request, queryset, _("%(count)d tournament(s) published."),
                   lambda t: services.tournament_publish(tournament=t))

    @admin.action(description=_("Mark finished"))
    def mark_finished(self, request, queryset):
        self._each(request, queryset, _("%(count)d tournament(s) marked finished."),
                   lambda t: services.tournament_update(tournament=t, status=Tournament.Status.FINISHED))

    @admin.action(description=_("Make public (listed)"))
    def make_public(self, request, queryset):
        self._each(request, queryset, _("%(count)d tournament(s) made public."),
                   lambda t: services.tournament_update(tournament=t, visibility=Tournament.Visibility.PUBLIC))

    @admin.action(description=_("Make unlisted (only with the link)"))
    def make_unlisted(self, request, queryset):
        self._each(request, queryset, _("%(count)d tournament(s) made unlisted."),
                   lambda t: services.tournament_hide(tournament=t))

    def get_urls(self):
        return [
            path("<path:object_id>/import-results/", self.admin_site.admin_view(self.import_results_view),
                 name=f"{self.opts.app_label}_{self.opts.model_name}_import_results"),
            *super().get_urls(),
        ]

    def import_results_view(self, request, object_id):
        """Import a results CSV into this tournament (``services.results_import_csv``: all rows or none)."""
        tournament = self.get_object(request, unquote(object_id))
        if tournament is None:
            return self._get_obj_does_not_exist_redirect(request, self.opts, object_id)
        if not self.has_change_permission(request, tournament):
            raise PermissionDenied
        form = ResultsImportForm(request.POST or None, request.FILES or None)
        errors = []
        if request.method == "POST" and form.is_valid():
            try:
                summary = services.results_import_csv(tournament=tournament, file=form.cleaned_data["file"],
                                                      user=request.user)
            except ValidationError as error:
                errors = error.messages
            else:
                self.message_user(request, _("Results imported: %(created)d new, %(updated)d corrected, "
                                             "%(unchanged)d unchanged.") % {
                    "created": summary.created, "updated": summary.updated, "unchanged": summary.unchanged},
                    messages.SUCCESS)
                return redirect(reverse("admin:league_tournament_change", args=[tournament.pk]))
        context = {**self.admin_site.each_context(request), "opts": self.opts, "original": tournament,
                   "form": form, "errors": errors, "title": _("Import results into %s") % tournament}
        return TemplateResponse(request, "admin/league/tournament/import_results.html", context)

    def save_related(self, request, form, formsets, change):
        tournament = form.instance
        organisers = list(form.cleaned_data.get("organisers") or [])
        if not request.user.is_superuser and request.user not in organisers:
            # An organiser who creates a tournament organises it, and cannot lock themselves out of it here.
            organisers.append(request.user)
        services.organisers_set(tournament=tournament, users=organisers)
        for formset in formsets:
            self.save_formset(request, form, formset, change=change)


@admin.register(Pool)
class PoolAdmin(LeagueForeignKeysMixin, OrganiserScopedMixin, admin.ModelAdmin):
    list_display = ["name", "tournament", "order"]
    list_filter = [("tournament", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["name", "tournament__name", "tournament__slug"]
    list_select_related = ["tournament"]

    def get_inlines(self, request, obj):
        return [PoolFixtureInline] if obj is not None else []

    def get_form(self, request, obj=None, change=False, **kwargs):
        request._league_admin_tournament = obj.tournament if obj is not None else None
        return super().get_form(request, obj, change=change, **kwargs)



@admin.register(Entry)
class EntryAdmin(LeagueForeignKeysMixin, OrganiserScopedMixin, admin.ModelAdmin):
    list_display = ["team", "tournament", "seed", "pool", "player", "player_name", "computer_level",
                    "withdrawn_at"]
    list_filter = [("tournament", admin.RelatedOnlyFieldListFilter), "computer_level"]
    search_fields = ["team__name", "team__code", "player_name", "tournament__slug"]
    list_select_related = ["team", "tournament", "pool", "player"]
    autocomplete_fields = ["team"]
    raw_id_fields = ["player"]

    def get_form(self, request, obj=None, change=False, **kwargs):
        request._league_admin_tournament = obj.tournament if obj is not None else None
        return super().get_form(request, obj, change=change, **kwargs)



# --- Fixtures and results -------------------------------------------------------------------------


class PoolFixtureInline(ParentAwareInline, LeagueForeignKeysMixin, admin.TabularInline):
    """A pool's fixtures; the result is entered on the fixture's own page (the change link)."""

    model = Fixture
    extra = 0
    fields = ["round_number", "home_team", "away_team", "kickoff", "venue", "slot", "status"]
    readonly_fields = ["home_team", "away_team"]
    show_change_link = True

    @admin.display(description=_("home"))
    def home_team(self, fixture):
        return fixture.home.team.code if fixture.home_id else (fixture.home_source or "–")

    @admin.display(description=_("away"))
    def away_team(self, fixture):
        return fixture.away.team.code if fixture.away_id else (fixture.away_source or "–")

    def has_add_permission(self, request, obj=None):
        # New fixtures are made by the fixture generator or on the fixture page, where both teams are chosen.
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("home__team", "away__team")


class ResultInlineForm(forms.ModelForm):
    """A result checked by the same service that saves it, so the admin refuses what the API refuses, with the
    same messages: its numbers are plain whole numbers here (no bounds of the model's fields), and the
    model's own checks are not run on the form (the service runs them)."""

    home_score = forms.IntegerField(label=_("home score"), required=False)
    away_score = forms.IntegerField(label=_("away score"), required=False)
    home_tries = forms.IntegerField(label=_("home tries"), required=False, initial=0)
    away_tries = forms.IntegerField(label=_("away tries"), required=False, initial=0)
    reason = forms.CharField(label=_("reason for the change"), max_length=200, required=False)

    class Meta:
        model = Result
        fields = ["home_score", "away_score", "home_tries", "away_tries", "kind", "winner", "decided_by", "stats"]
        labels = {"kind": _("kind"), "winner": _("winner"), "decided_by": _("decided by"), "stats": _("stats")}

    def clean(self):
        cleaned = super().clean()
        fixture = getattr(self, "league_fixture", None)
        if self.errors or fixture is None or not self.has_changed() or cleaned.get("DELETE"):
            return cleaned
        # Dry run of the real write inside a savepoint that is always rolled back: any
        # ValidationError the service raises becomes this form's error instead of a 500 later.
        try:
            with transaction.atomic():
                _record_result(fixture, cleaned, user=None)
                raise _DryRunDone
        except _DryRunDone:
            pass
        except ValidationError as error:
            raise forms.ValidationError(error.messages)
        return cleaned

    def _post_clean(self):
        """No model validation: the result service checks the values (and writes them)."""


class _DryRunDone(Exception):
    """Raised to roll back the dry run of a result write."""


def _record_result(fixture, cleaned, *, user):
    # The form shows the stored winner (the service stores the leader for any decided match), so after
    # a score correction it may name the old leader: only a level score needs the organiser's winner.
    level = cleaned.get("home_score") == cleaned.get("away_score")
    return services.result_record(
        fixture=fixture, home_score=cleaned["home_score"], away_score=cleaned["away_score"],
        home_tries=cleaned.get("home_tries") or 0, away_tries=cleaned.get("away_tries") or 0,
        kind=cleaned.get("kind") or Result.Kind.PLAYED, winner=cleaned.get("winner") if level else None,
        decided_by=cleaned.get("decided_by") or "", stats=cleaned.get("stats") or {},
        source=Result.Source.MANUAL, user=user, reason=cleaned.get("reason") or "")


class ResultInline(ParentAwareInline, LeagueForeignKeysMixin, admin.StackedInline):
    model = Result
    tournament_path = "fixture__tournament"
    form = ResultInlineForm
    extra = 0
    max_num = 1
    fields = ["home_score", "away_score", "home_tries", "away_tries", "kind", "winner", "decided_by", "stats",
              "reason", "source", "entered_by", "updated_at"]
    readonly_fields = ["source", "entered_by", "updated_at"]

    def get_extra(self, request, obj=None, **kwargs):
        # One empty result form for a fixture whose teams are known (a solo attempt: its entrant) and no result.
        if obj is None or not services.fixture_ready_for_result(obj):
            return 0
        return 0 if Result.objects.filter(fixture=obj).exists() else 1

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        fixture = obj

        class FixtureResultFormSet(formset):
            def _construct_form(self, i, **form_kwargs):
                form = super()._construct_form(i, **form_kwargs)
                form.league_fixture = fixture
                return form

        return FixtureResultFormSet


class ResultChangeInline(admin.TabularInline):
    """The fixture's audit trail, read-only."""

    model = ResultChange
    extra = 0
    can_delete = False
    fields = ["changed_at", "action", "changed_by", "old", "new", "reason_text"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_view_permission(self, request, obj=None):
        return _is_staff(request)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("changed_by")


@admin.register(Fixture)
class FixtureAdmin(LeagueForeignKeysMixin, OrganiserScopedMixin, admin.ModelAdmin):
    list_display = ["__str__", "tournament", "pool", "stage", "round_number", "kickoff", "venue", "status",
                    "score"]
    list_filter = [("tournament", admin.RelatedOnlyFieldListFilter), "stage", "status", "round_number"]
    search_fields = ["code", "home__team__code", "home__team__name", "away__team__code", "away__team__name",
                     "venue", "tournament__slug"]
    list_select_related = ["tournament", "pool", "home__team", "away__team", "result"]
    date_hierarchy = "kickoff"
    inlines = [ResultInline, ResultChangeInline]
    fieldsets = [
        (None, {"fields": ["tournament", "pool", "stage", "bracket", "round_number", "round_name", "code"]}),
        (_("Teams"), {"fields": ["home", "away", "home_source", "away_source"]}),
        (_("When and where"), {"fields": ["kickoff", "venue", "slot", "status"]}),
    ]

    @admin.display(description=_("score"))
    def score(self, fixture):
        try:
            result = fixture.result
        except Result.DoesNotExist:
            return "–"
        return f"{result.home_score}–{result.away_score}"

    def get_form(self, request, obj=None, change=False, **kwargs):
        request._league_admin_tournament = obj.tournament if obj is not None else None
        return super().get_form(request, obj, change=change, **kwargs)

    def save_formset(self, request, form, formset, change):
        if formset.model is not Result:
            return super().save_formset(request, form, formset, change)
        fixture = form.instance
        # The admin's change message reads these; the service, not formset.save(), does the writing.
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
        for result_form in formset.forms:
            if not hasattr(result_form, "cleaned_data"):
                continue
            if result_form in formset.deleted_forms:
                if result_form.instance.pk is not None:
                    services.result_delete(fixture=fixture, user=request.user,
                                           reason=result_form.cleaned_data.get("reason") or "")
            elif result_form.has_changed():
                _record_result(fixture, result_form.cleaned_data, user=request.user)
                messages.info(request, _("The result was saved and the standings updated."))


class ReadOnlyAdminMixin:
    """Nobody adds, changes or deletes rows here (placed before OrganiserScopedMixin to win over its checks)."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Result)
class ResultAdmin(ReadOnlyAdminMixin, OrganiserScopedMixin, admin.ModelAdmin):
    """Results, read-only here: enter or correct them on the fixture's page (kept in the audit trail)."""

    tournament_path = "fixture__tournament"
    list_display = ["fixture", "home_score", "away_score", "home_tries", "away_tries", "kind", "source",
                    "entered_by", "updated_at"]
    list_filter = ["kind", "source", ("fixture__tournament", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["fixture__home__team__code", "fixture__away__team__code", "fixture__tournament__slug"]
    list_select_related = ["fixture__home__team", "fixture__away__team", "fixture__tournament", "entered_by"]


@admin.register(ResultChange)
class ResultChangeAdmin(ReadOnlyAdminMixin, OrganiserScopedMixin, admin.ModelAdmin):
    """The audit trail of results: append-only, so nobody adds, changes or deletes rows here."""

    tournament_path = "fixture__tournament"
    list_display = ["changed_at", "fixture", "action", "changed_by", "reason_text"]
    list_filter = ["action", "reason_code", ("fixture__tournament", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["fixture__home__team__code", "fixture__away__team__code", "reason", "changed_by__username"]
    list_select_related = ["fixture__home__team", "fixture__away__team", "changed_by"]
    readonly_fields = ["fixture", "action", "old", "new", "reason_text", "reason_code", "reason_params", "changed_by",
                       "changed_at"]
    date_hierarchy = "changed_at"


# --- events: registrations, nation draws and money --------------------------------------------------------------
#
# As on the site: an event's organisers (and superusers) see and change its rows, and every change goes through
# ``league.services.registrations`` / ``league.services.fundraising`` (the same checks, the registration log and
# the money's audit trail). A nation draw is made (and picked) only on the players page or the API: read-only here.


class EventScopedMixin(StaffMayEditMixin):
    """Rows of an event's model for the event's organisers only; every save and delete through a service."""

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(**{f"{self.event_path}__organisers": request.user}).distinct()

    event_path = "event"

    def _event_of(self, obj):
        for part in self.event_path.split("__"):
            obj = getattr(obj, part, None) if obj is not None else None
        return obj

    def _may_edit(self, request, obj) -> bool:
        if not _is_staff(request):
            return False
        event = self._event_of(obj) if obj is not None else None
        return obj is None or (event is not None and can_edit_event(request.user, event))

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        # Only the user's own events (and their players and sides) are offered.
        if not request.user.is_superuser:
            events = Event.objects.filter(organisers=request.user)
            if db_field.name == "event":
                kwargs["queryset"] = events
            elif db_field.name == "registration":
                kwargs["queryset"] = Registration.objects.filter(event__in=events)
            elif db_field.name == "entry":
                kwargs["queryset"] = Entry.objects.filter(tournament__division__event__in=events)
            elif db_field.name == "division":
                kwargs["queryset"] = Division.objects.filter(event__in=events)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def delete_queryset(self, request, queryset):
        with transaction.atomic():
            for obj in queryset:
                self.delete_model(request, obj)

    def write(self, request, form, obj):
        """The service call that stores the form (``obj`` is the row changed, None for a new one)."""
        raise NotImplementedError

    def get_form(self, request, obj=None, **kwargs):
        """The admin's form, checked by a dry run of the very service call that will store it (rolled back), so
        the admin refuses what the players and money pages refuse, with the same messages."""
        base = super().get_form(request, obj, **kwargs)
        model_admin = self

        class ServiceCheckedForm(base):
            def clean(self):
                cleaned = super().clean()
                if self.errors:
                    return cleaned
                try:
                    with transaction.atomic():
                        model_admin.write(request, self, obj)
                        raise _DryRunDone
                except _DryRunDone:
                    pass
                except ValidationError as error:
                    raise forms.ValidationError(error.messages)
                return cleaned

        return ServiceCheckedForm

    def save_model(self, request, obj, form, change):
        stored = self.write(request, form, obj if change else None)
        obj.pk = stored.pk


def _changed(form, names) -> dict:
    return {name: form.cleaned_data[name] for name in names if name in form.changed_data}


@admin.register(Registration)
class RegistrationAdmin(EventScopedMixin, admin.ModelAdmin):
    """Players registered for events: added, edited, approved and removed through the registration services
    (places, the waiting list and the log as on the players page). Removing marks the player removed."""

    list_display = ["number", "first_name", "surname", "event", "status", "division", "entry", "created_at"]
    list_filter = ["status", ("event", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["first_name", "surname", "event__slug"]
    list_select_related = ["event", "division__tournament", "entry__team"]
    fields = ["event", "first_name", "surname", "contact", "minor", "show_name", "division", "choice", "status",
              "number", "entry", "created_at"]
    readonly_fields = ["status", "number", "entry", "created_at"]
    actions = ["approve", "remove"]

    def get_readonly_fields(self, request, obj=None):
        return [*self.readonly_fields, "event"] if obj is not None else self.readonly_fields

    def write(self, request, form, obj):
        fields = ("first_name", "surname", "contact", "minor", "show_name", "division", "choice")
        if obj is not None:
            original = Registration.objects.select_related("event").get(pk=obj.pk)
            return registration_services.registration_update(registration=original, user=request.user,
                                                             **_changed(form, fields))
        values = {name: form.cleaned_data.get(name) for name in fields}
        return registration_services.registration_create(
            event=form.cleaned_data["event"], user=request.user, by_organiser=True,
            **{k: v for k, v in values.items() if v not in (None, "")})

    def delete_model(self, request, obj):
        registration_services.registration_remove(registration=obj, user=request.user)

    @admin.action(description=_("Approve the selected players"))
    def approve(self, request, queryset):
        self._each(request, queryset, registration_services.registration_approve)

    @admin.action(description=_("Remove the selected players"))
    def remove(self, request, queryset):
        self._each(request, queryset, registration_services.registration_remove)

    def _each(self, request, queryset, service):
        done = 0
        for registration in queryset.select_related("event"):
            try:
                service(registration=registration, user=request.user)
                done += 1
            except ValidationError as exc:
                messages.error(request, f"{registration.first_name}: {error_text(exc)}")
        if done:
            messages.success(request, _("%(count)s players changed.") % {"count": done})


@admin.register(NationDraw)
class NationDrawAdmin(ReadOnlyAdminMixin, EventScopedMixin, admin.ModelAdmin):
    """Nation draws, read-only: they are made (and picked in turn) on the event's players page or the API."""

    list_display = ["event", "division", "method", "seed", "made_by", "made_at"]
    list_filter = ["method", ("event", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["event", "division__tournament", "made_by"]
    readonly_fields = ["event", "division", "method", "seed", "cards", "outcome", "made_by", "made_at"]


@admin.register(EntryFee)
class EntryFeeAdmin(EventScopedMixin, admin.ModelAdmin):
    """Players' entry fees, recorded and forgotten through ``entry_fee_set`` / ``entry_fee_delete``."""

    event_path = "registration__event"
    list_display = ["registration", "amount", "paid", "method", "updated_at"]
    list_filter = ["paid", "method"]
    list_select_related = ["registration__event"]
    fields = ["registration", "amount", "paid", "method"]

    def get_readonly_fields(self, request, obj=None):
        return ["registration"] if obj is not None else []

    def write(self, request, form, obj):
        registration = obj.registration if obj is not None else form.cleaned_data["registration"]
        return fundraising_services.entry_fee_set(
            event=registration.event, registration=registration.pk, user=request.user,
            amount=form.cleaned_data["amount"], paid=form.cleaned_data["paid"], method=form.cleaned_data["method"])

    def delete_model(self, request, obj):
        fundraising_services.entry_fee_delete(event=obj.registration.event, registration=obj.registration_id,
                                              user=request.user)


@admin.register(Donation)
class DonationAdmin(EventScopedMixin, admin.ModelAdmin):
    """Donations, through ``donation_create`` / ``donation_update`` / ``donation_delete`` (audited)."""

    list_display = ["donor_name", "amount", "event", "registration", "anonymous", "method", "created_at"]
    list_filter = ["anonymous", "method", ("event", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["donor_name", "event__slug"]
    list_select_related = ["event", "registration"]
    fields = ["event", "donor_name", "amount", "message", "anonymous", "registration", "method"]
    values = ("donor_name", "amount", "message", "anonymous", "registration", "method")

    def get_readonly_fields(self, request, obj=None):
        return ["event"] if obj is not None else []

    def write(self, request, form, obj):
        if obj is not None:
            original = Donation.objects.select_related("event").get(pk=obj.pk)
            return fundraising_services.donation_update(donation=original, user=request.user,
                                                        **_money_fields(form, self.values, True))
        return fundraising_services.donation_create(event=form.cleaned_data["event"], user=request.user,
                                                    **_money_fields(form, self.values, False))

    def delete_model(self, request, obj):
        fundraising_services.donation_delete(donation=obj, user=request.user)


@admin.register(Pledge)
class PledgeAdmin(EventScopedMixin, admin.ModelAdmin):
    """Sponsors' pledges, through ``pledge_create`` / ``pledge_update`` / ``pledge_delete`` (audited); what a
    pledge comes to is worked out from the results on the money page, never stored."""

    list_display = ["sponsor_name", "basis", "rate", "cap", "event", "registration", "entry", "created_at"]
    list_filter = ["basis", ("event", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["sponsor_name", "event__slug"]
    list_select_related = ["event", "registration", "entry__team", "entry__tournament"]
    fields = ["event", "sponsor_name", "anonymous", "basis", "rate", "cap", "registration", "entry"]
    values = ("sponsor_name", "anonymous", "basis", "rate", "cap", "registration", "entry")

    def get_readonly_fields(self, request, obj=None):
        return ["event"] if obj is not None else []

    def write(self, request, form, obj):
        if obj is not None:
            original = Pledge.objects.select_related("event").get(pk=obj.pk)
            return fundraising_services.pledge_update(pledge=original, user=request.user,
                                                      **_money_fields(form, self.values, True))
        return fundraising_services.pledge_create(event=form.cleaned_data["event"], user=request.user,
                                                  **_money_fields(form, self.values, False))

    def delete_model(self, request, obj):
        fundraising_services.pledge_delete(pledge=obj, user=request.user)


def _money_fields(form, names, change) -> dict:
    """The form's values for a money service: players and sides by their ids, only the changed ones on a change."""
    values = _changed(form, names) if change else {name: form.cleaned_data.get(name) for name in names}
    for name in ("registration", "entry"):
        if name in values:
            values[name] = values[name].pk if values[name] is not None else None
    return values

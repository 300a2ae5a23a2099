"""Django admin for matches, read-only: matches change only through play (``matches.services``); here the
match, its seats, the action log and the log of everything else (seats taken, resignations, draw offers, the move
clock: the audit trail) and the entries' passes are shown."""

from django.contrib import admin

from matches.models import EntryPass, Match, MatchAction, MatchEvent, MatchSeat


class ReadOnlyMixin:
    """Nobody adds, changes or deletes rows here: the services of online play and simulation write them."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class MatchSeatInline(ReadOnlyMixin, admin.TabularInline):
    model = MatchSeat
    extra = 0
    fields = ("seat", "kind", "user", "computer_level", "entry", "name", "join_code", "joined_at")
    readonly_fields = fields


class MatchActionInline(ReadOnlyMixin, admin.TabularInline):
    model = MatchAction
    extra = 0
    fields = ("ply", "seat", "action", "user", "by_computer", "created_at")
    readonly_fields = fields
    ordering = ("ply",)


class MatchEventInline(ReadOnlyMixin, admin.TabularInline):
    model = MatchEvent
    extra = 0
    fields = ("created_at", "ply", "seat", "kind", "user", "data")
    readonly_fields = fields


@admin.register(Match)
class MatchAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "ruleset", "status", "fixture", "ply", "updated_at")
    list_filter = ("status", "ruleset")
    search_fields = ("id", "fixture__tournament__name")
    readonly_fields = ("ruleset", "rules_version", "options", "seed", "status", "fixture", "ply", "snapshot_ply",
                       "outcome", "action_log", "move_clock", "moved_at", "draw_offer", "created_by", "created_at",
                       "updated_at", "finished_at")
    exclude = ("snapshot",)
    inlines = [MatchSeatInline, MatchActionInline, MatchEventInline]
    list_select_related = ("fixture",)


@admin.register(MatchAction)
class MatchActionAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("match", "ply", "seat", "action", "user", "by_computer", "created_at")
    list_filter = ("by_computer",)


@admin.register(EntryPass)
class EntryPassAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("entry", "code", "created_at")
    readonly_fields = ("entry", "code", "created_at")

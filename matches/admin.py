"""Django admin for matches: seats, the action log (read-only: it is the audit trail) and passes."""

from django.contrib import admin

from matches.models import EntryPass, Match, MatchAction, MatchSeat


class MatchSeatInline(admin.TabularInline):
    model = MatchSeat
    extra = 0
    fields = ("seat", "kind", "user", "computer_level", "entry", "name", "join_code", "joined_at")
    readonly_fields = ("join_code", "joined_at")
    raw_id_fields = ("user", "entry")


class MatchActionInline(admin.TabularInline):
    model = MatchAction
    extra = 0
    fields = ("ply", "seat", "action", "user", "by_computer", "created_at")
    readonly_fields = fields
    can_delete = False
    ordering = ("ply",)

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "ruleset", "status", "fixture", "ply", "updated_at")
    list_filter = ("status", "ruleset")
    search_fields = ("id", "fixture__tournament__name")
    raw_id_fields = ("fixture", "created_by")
    readonly_fields = ("seed", "ply", "snapshot_ply", "outcome", "created_at", "updated_at", "finished_at")
    exclude = ("snapshot",)
    inlines = [MatchSeatInline, MatchActionInline]
    list_select_related = ("fixture",)


@admin.register(MatchAction)
class MatchActionAdmin(admin.ModelAdmin):
    list_display = ("match", "ply", "seat", "action", "user", "by_computer", "created_at")
    list_filter = ("by_computer",)
    raw_id_fields = ("match", "user")

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False


@admin.register(EntryPass)
class EntryPassAdmin(admin.ModelAdmin):
    list_display = ("entry", "code", "created_at")
    raw_id_fields = ("entry",)
    readonly_fields = ("code",)

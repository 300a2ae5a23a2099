"""The league's writes: every change of league data is one keyword-only function here, ``<noun>_<verb>``.

Views, the API, the admin, forms and management commands check the shape of their input and call these;
they never save, create, update or delete rows themselves (``tests/test_layers.py`` checks it). Each
function does one thing in one transaction, refreshes the public pages' cache (``league.cache``) and queues
follow-up work after the commit (``league.hooks``); a refused change raises ``league.errors.DomainError``.

Modules, lowest first (a module only calls the ones above it in this list):

* ``audit`` — the audit trail of changes that are not results;
* ``accounts`` — signing up;
* ``tournaments`` — create, settings, publish/hide, organisers, delete;
* ``teams`` — teams, pools, entries, players;
* ``schedule`` — the timetable: fixtures timed by the tournament's plan, re-timed, moved, pushed, swapped;
* ``fixtures`` — round robins, brackets from plans, draws, fixtures planned by a format;
* (``league.formats`` — the formats, which write through the three above)
* ``setup`` — presets, "generate the fixtures", brackets and draws, through the tournament's format;
* ``results`` — results, corrections, walkovers, withdrawals, knockout resets, the CSV import, finishing a
  tournament on the result that completes it (and publishing, which may finish it).
"""

from league.services.accounts import user_create
from league.services.fixtures import (
    bracket_fixtures_create,
    entries_in_seed_order,
    fixture_delete,
    fixture_save,
    fixtures_clear,
    fixtures_create,
    fixtures_delete,
    fixtures_generate_round_robin,
    pools_fill,
)
from league.services.results import (
    IMPORT_COLUMNS,
    ImportSummary,
    bracket_reset_from,
    entry_withdraw,
    fixture_ready_for_result,
    result_correct,
    result_delete,
    result_record,
    result_values_validate,
    results_import_csv,
    tournament_finish_if_complete,
    tournament_publish,
)
from league.services.schedule import (
    fixture_move,
    fixtures_keep_wall_clock,
    fixtures_push,
    fixtures_swap,
    fixtures_time,
    schedule_retime,
    schedule_settings_save,
    schedule_settings_validate,
)
from league.services.setup import (
    bracket_create,
    fixture_job_run,
    fixtures_generate,
    fixtures_generate_or_queue,
    fixtures_planned_count,
    pools_draw,
    round_robin_fixtures,
    tournament_create_blank,
    tournament_create_from_preset,
    tournament_settings_change,
    tournament_start,
)
from league.services.teams import (
    entries_add,
    entries_arrange,
    entries_into_one_pool,
    entry_delete,
    entry_removal_fixtures,
    entry_save,
    entry_set_player,
    entry_update,
    nations_enter,
    pool_create,
    pool_delete,
    pool_save,
    team_delete,
    team_logo_clear,
    team_logo_set,
    team_save,
    team_update,
    teams_enter_own,
    teams_from_rows,
    teams_resolve,
)
from league.services.tournaments import (
    organiser_add,
    organiser_remove,
    organisers_set,
    points_rules_for,
    tournament_create,
    tournament_delete,
    tournament_free_slug,
    tournament_hide,
    tournament_reopen,
    tournament_require_open,
    tournament_save,
    tournament_update,
)

__all__ = [
    "IMPORT_COLUMNS", "ImportSummary", "bracket_create", "bracket_fixtures_create", "bracket_reset_from",
    "entries_add", "entries_arrange", "entries_in_seed_order", "entries_into_one_pool", "entry_delete",
    "entry_removal_fixtures", "entry_save", "entry_set_player", "entry_update", "entry_withdraw", "fixture_delete",
    "fixture_job_run", "fixture_move", "fixture_ready_for_result", "fixture_save", "fixtures_clear",
    "fixtures_create", "fixtures_delete", "fixtures_generate", "fixtures_generate_or_queue",
    "fixtures_generate_round_robin", "fixtures_keep_wall_clock", "fixtures_planned_count", "fixtures_push",
    "fixtures_swap", "fixtures_time", "nations_enter", "organiser_add", "organiser_remove", "organisers_set",
    "points_rules_for", "pool_create", "pool_delete", "pool_save", "pools_draw", "pools_fill", "result_correct",
    "result_delete", "result_record", "result_values_validate", "results_import_csv", "round_robin_fixtures",
    "schedule_retime", "schedule_settings_save", "schedule_settings_validate", "team_delete", "team_logo_clear",
    "team_logo_set", "team_save", "team_update", "teams_enter_own", "teams_from_rows", "teams_resolve",
    "tournament_create", "tournament_create_blank", "tournament_create_from_preset", "tournament_delete",
    "tournament_finish_if_complete", "tournament_free_slug", "tournament_hide", "tournament_publish",
    "tournament_reopen", "tournament_require_open", "tournament_save", "tournament_settings_change",
    "tournament_start", "tournament_update", "user_create",
]

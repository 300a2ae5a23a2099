from django.apps import AppConfig


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"
    verbose_name = "Matches"

    def ready(self):
        # Imported here, not at the top: an AppConfig's module is loaded before the models are ready.
        from league import hooks, live
        from matches import live as online_live
        from matches import odds, tasks  # noqa: F401  (tasks: registers the Celery tasks in league.queue)

        # The league queues nothing itself (it never imports matches): after a result change it calls this.
        hooks.on_results_changed(odds.odds_after_result)
        # The public pages' live scores: the league asks its sources, it never imports matches.
        live.register_live_source(online_live.online_live_scores)

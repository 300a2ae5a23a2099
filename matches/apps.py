from django.apps import AppConfig


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"
    verbose_name = "Matches"

    def ready(self):
        # Imported here, not at the top: an AppConfig's module is loaded before the models are ready.
        from league import hooks
        from matches import odds, tasks  # noqa: F401  (tasks: registers the Celery tasks in matches.workers)

        # The league queues nothing itself (it never imports matches): after a result change it calls this.
        hooks.on_results_changed(odds.odds_after_result)

from django.apps import AppConfig


class LeagueConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "league"
    verbose_name = "League"

    def ready(self):
        # Imported here, not at the top: an AppConfig's module is loaded before the models are ready.
        from league import tasks  # noqa: F401  (registers the league's Celery tasks in league.queue)

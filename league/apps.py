from django.apps import AppConfig


class LeagueConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "league"
    verbose_name = "League"

    def ready(self):
        # Imported here, not at the top: an AppConfig's module is loaded before the models are ready.
        from league import (
            live,
            live_selectors,
            tasks,  # noqa: F401  (registers the league's Celery tasks in league.queue)
        )

        # The public pages' live scores of matches scored on a phone (the matches app registers its own).
        live.register_live_source(live_selectors.scored_live_scores)

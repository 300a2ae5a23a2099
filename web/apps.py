from django.apps import AppConfig


class WebConfig(AppConfig):
    """The pages that show both the league and its matches (the top layer: engine <- league <- matches <- web)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "web"
    verbose_name = "Web pages"

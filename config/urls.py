"""Top-level URL map: each app owns its own web and API URL modules.

The ``web`` pages (home, tournament, team and fixture pages, the organiser's dashboard and simulation page)
and the league's own pages share the ``league`` namespace, so every page keeps its name (``league:tournament``).
"""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from league.urls import urlpatterns as league_pages
from web.urls import urlpatterns as web_pages

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="api-redoc"),
    path("api/", include("league.api_urls")),
    path("api/", include("matches.api_urls")),
    path("matches/", include("matches.urls")),
    path("", include((web_pages + league_pages, "league"))),
]

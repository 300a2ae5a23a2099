"""Top-level URL map: each app owns its own web and API URL modules.

The ``web`` pages (home, tournament, team and fixture pages, the organiser's dashboard and simulation page)
and the league's own pages share the ``league`` namespace, so every page keeps its name (``league:tournament``).
"""

from csp.constants import SELF
from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from config import views
from config.routing import by_first_segment
from league import views as league_views
from league.api_urls import urlpatterns as league_api
from league.urls import urlpatterns as league_pages
from matches.api_urls import urlpatterns as matches_api
from web.urls import urlpatterns as web_pages

urlpatterns = [
    # Django tries the patterns in order: what a crowd asks for (the API, online play, the public pages) first,
    # the API grouped by resource (config.routing).
    path("api/", include(by_first_segment([*matches_api, *league_api]))),
    path("matches/", include("matches.urls")),
    path("favicon.ico", views.favicon),
    path("", include((web_pages + league_pages, "league"))),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    # Sign-in and password reset: Django's views, the sign-in guarded by django-axes, the reset form limited per
    # client (league.views.password_reset).
    path("accounts/password_reset/", league_views.password_reset, name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's init script as a file of its own: no inline script for the CSP.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    # Redoc's search runs in a worker made from a blob: URL, allowed on this page only.
    path("api/redoc/", csp_update({"worker-src": [SELF, "blob:"]})(SpectacularRedocView.as_view(url_name="schema")),
         name="api-redoc"),
]

handler400 = views.bad_request
handler403 = views.permission_denied
handler404 = views.page_not_found
handler500 = views.server_error

"""Site-wide answers that no app owns: the CSRF failure page, the sign-in lock-out page, the favicon."""

from __future__ import annotations

from typing import Any

from axes.helpers import get_cool_off
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views import defaults

from league.clients import too_many_requests


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent without its security token (an old tab, cookies blocked): the site's own 403 page."""
    return render(request, "403_csrf.html", {"reason": reason}, status=403)


def signin_locked_out(request: HttpRequest, original_response: Any = None, credentials: Any = None) -> HttpResponse:
    """django-axes' lock-out (AXES_LOCKOUT_CALLABLE): 429 with Retry-After, for this client only."""
    cool_off = get_cool_off(request)
    wait = int(cool_off.total_seconds()) if cool_off else 15 * 60
    minutes = max(1, round(wait / 60))
    return too_many_requests(request, wait, _(
        "Too many wrong passwords from your connection: signing in is paused for %(minutes)s minutes. "
        "Forgot your password? Use “Forgot your password?” on the sign-in page.") % {"minutes": minutes})


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page says: send them to the site's icon."""
    return HttpResponseRedirect(static("favicon.svg"))


# The error pages: the site's own templates (templates/400.html...), and JSON under /api/, whose callers are
# programs (an address no API route matches is still an API answer).
def _api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _api(request):
        return JsonResponse({"detail": _("Bad request."), "code": "bad_request"}, status=400)
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _api(request):
        return JsonResponse({"detail": str(exception) or _("You may not do that."), "code": "forbidden"},
                            status=403)
    return defaults.permission_denied(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _api(request):
        return JsonResponse({"detail": _("Not found."), "code": "not_found"}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if _api(request):
        return JsonResponse({"detail": _("Server error: it has been logged."), "code": "server_error"}, status=500)
    return defaults.server_error(request)

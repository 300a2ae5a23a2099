"""Site-wide answers that no app owns: the CSRF failure page, the sign-in lock-out page, the favicon."""

from __future__ import annotations

from typing import Any

from axes.helpers import get_cool_off
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import gettext as _

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

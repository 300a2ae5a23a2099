"""The one mapping of domain errors for the web pages (the API has its own in ``config.api``), the request's
time zone and the Permissions-Policy header.

A view may let a service's or a permission helper's ``DomainError`` go: ``not_found`` becomes the 404 page,
``forbidden`` the 403 page, ``conflict`` a 409, ``unavailable`` a 503 and ``invalid`` a 400 with the message.
(Views that show a form catch ``invalid`` errors themselves and put them on the form: ``league.errors.form_error``.)
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import BadRequest, PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from league.errors import DomainError


class DomainErrorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DomainError):
            return None
        if exception.code == "not_found":
            raise Http404(exception.text) from exception
        if exception.code == "forbidden":
            raise PermissionDenied(exception.text) from exception
        if exception.code in ("conflict", "unavailable"):
            status = 409 if exception.code == "conflict" else 503
            return render(request, "error.html", {"status": status, "message": exception.text}, status=status)
        raise BadRequest(exception.text) from exception


class TimeZoneMiddleware:
    """Each request starts in the site's zone and leaves no zone behind: a tournament's page switches to the
    tournament's own zone (``league.permissions.tournament_for``), and a worker thread must not carry it
    into the next request it serves."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with timezone.override(None):
            return self.get_response(request)


class PermissionsPolicyMiddleware:
    """Send ``Permissions-Policy`` (settings.PERMISSIONS_POLICY) on every response: no camera, microphone,
    location... for the site or anything embedded in it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = getattr(settings, "PERMISSIONS_POLICY", "")
        if policy:
            response.headers.setdefault("Permissions-Policy", policy)
        return response


class RequestSizeMiddleware:
    """Refuse a request body larger than ``settings.MAX_REQUEST_BYTES`` with 413 before anything reads it (Django
    limits form fields, not uploaded files): a short message, JSON for the API."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        limit = int(settings.MAX_REQUEST_BYTES)
        if length > limit:
            text = _("The request is too large: %(size)s kB at most.") % {"size": limit // 1000}
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": text, "code": "too_large"}, status=413)
            return render(request, "error.html", {"status": 413, "message": text}, status=413)
        return self.get_response(request)

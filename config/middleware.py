"""The one mapping of domain errors for the web pages (the API has its own in ``config.api``), the request's
time zone, the Permissions-Policy header, and who is signed in (Django's, with a few seconds' memory for reads).

A view may let a service's or a permission helper's ``DomainError`` go: ``not_found`` becomes the 404 page,
``forbidden`` the 403 page, ``conflict`` a 409, ``unavailable`` a 503 and ``invalid`` a 400 with the message.
(Views that show a form catch ``invalid`` errors themselves and put them on the form: ``league.errors.form_error``.)
"""

from __future__ import annotations

import copy
import threading
import time
from collections.abc import Callable
from typing import Any

from cachetools import TTLCache
from django.conf import settings
from django.contrib import auth
from django.contrib.auth import middleware as auth_middleware
from django.core.exceptions import BadRequest, PermissionDenied
from django.db.models.signals import post_delete, post_save
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
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


# A signed-in read (a parent's phone polling the fixtures, the home page) would load the user row on every request.
# A page read (GET or HEAD) takes the user this process loaded for the same session in the last few seconds: a
# change to the user elsewhere (deactivated, a password changed in another browser, staff rights) reaches these
# reads within that time (at once in the process that made it), and every write loads the user afresh, as Django
# does. The memory is keyed by the session, its user and the session's password hash, so signing out, signing in
# again or changing one's password in this session is seen at once.
RECENT_USER_SECONDS = 2.0
_clock = time.monotonic  # the memory's clock (tests move it)
_recent_users: TTLCache[tuple[Any, ...], Any] = TTLCache(maxsize=2048, ttl=RECENT_USER_SECONDS,
                                                         timer=lambda: _clock())
_recent_users_lock = threading.Lock()  # gthread workers share it


def _recent_user(request: HttpRequest) -> Any:
    session = request.session
    user_id = session.get(auth.SESSION_KEY)
    if user_id is None:
        return auth.get_user(request)  # nobody signed in: no query anyway
    key = (session.session_key, str(user_id), session.get(auth.HASH_SESSION_KEY),
           session.get(auth.BACKEND_SESSION_KEY))
    with _recent_users_lock:
        user = _recent_users.get(key)
    if user is None:
        user = auth.get_user(request)
        if not user.is_authenticated:
            return user
        with _recent_users_lock:
            _recent_users[key] = user
    # Each request its own copy: views may set attributes on their user (permission caches...).
    return copy.copy(user)


def forget_recent_users() -> None:
    """Empty this process's recent users."""
    with _recent_users_lock:
        _recent_users.clear()


def _user_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    # A user saved or deleted by this process (the admin, a password form) is read afresh here at once; the
    # other processes follow within RECENT_USER_SECONDS.
    with _recent_users_lock:
        for key in [key for key in _recent_users if key[1] == str(instance.pk)]:
            _recent_users.pop(key, None)


post_save.connect(_user_changed, sender=settings.AUTH_USER_MODEL, dispatch_uid="config.recent_users.saved")
post_delete.connect(_user_changed, sender=settings.AUTH_USER_MODEL, dispatch_uid="config.recent_users.deleted")


class AuthenticationMiddleware(auth_middleware.AuthenticationMiddleware):
    """Django's, but a page read takes the user loaded for its session in the last ``RECENT_USER_SECONDS``."""

    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        if request.method in ("GET", "HEAD"):
            request.user = SimpleLazyObject(lambda: _recent_user(request))

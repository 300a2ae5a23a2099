"""Who is asking, and how often: the client's address and the per-client request limits.

The address is the connection's (``REMOTE_ADDR``) unless the site runs behind reverse proxies of its own
(``settings.TRUSTED_PROXIES``, from the environment): then it is the address the outermost of them saw, read
from the right of ``X-Forwarded-For`` (each proxy appends the address it was called from). Whatever a client
writes into that header itself stays on the left and is never used, so a new value per request does not make a
new client. The same function keys the sign-in lock-out (django-axes), the API throttles and the limits below.

Limits count in the cache (django-ratelimit's fixed windows); with the cache down they fail open.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import ngettext
from django_ratelimit.core import get_usage

# Stands for a client whose address is unknown (a request made in code, a server on a Unix socket): the lock-out
# stores the address in an IP column, which PostgreSQL refuses anything else in.
UNKNOWN_CLIENT = "0.0.0.0"


def _address(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def client_ip(request: Any) -> str:
    """The client's address, through ``TRUSTED_PROXIES`` proxies at most (see the module); always an IP address."""
    meta = request.META
    remote = _address(meta.get("REMOTE_ADDR") or "") or UNKNOWN_CLIENT
    proxies = int(getattr(settings, "TRUSTED_PROXIES", 0) or 0)
    forwarded = meta.get("HTTP_X_FORWARDED_FOR", "")
    if proxies <= 0 or not forwarded:
        return remote
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    if not hops:
        return remote
    # A proxy that writes something else than an address: the connection's address is all we know.
    return _address(hops[-min(proxies, len(hops))]) or remote


def _client_key(group: str, request: Any) -> str:
    return client_ip(request)


def limit_wait(request: Any, *, group: str, rate: str, increment: bool = True) -> int | None:
    """Count this request against the client's ``rate`` (e.g. "10/h") in ``group``; return the seconds to wait
    when the client is over the limit, None otherwise. ``increment=False`` only looks (count failures only:
    look first, then count the failure)."""
    usage = get_usage(request, group=group, key=_client_key, rate=rate, increment=increment)
    if usage is None:
        return None
    # Counting, this request is one of the allowed ones up to the limit; only looking, the limit is reached.
    over = usage["should_limit"] if increment else usage["count"] >= usage["limit"]
    if not over:
        return None
    return max(1, int(usage["time_left"]))


def too_many_requests(request: Any, wait: int, message: str = "") -> HttpResponse:
    """The 429 page (or JSON for the API's callers) with ``Retry-After``: this client waits, others carry on."""
    minutes = max(1, round(wait / 60))
    text = message or ngettext("Too many attempts from your connection: try again in %(minutes)s minute.",
                               "Too many attempts from your connection: try again in %(minutes)s minutes.",
                               minutes) % {"minutes": minutes}
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"detail": text, "code": "throttled"}, status=429)
    else:
        response = render(request, "429.html", {"message": text}, status=429)
    response["Retry-After"] = str(int(wait))
    return response

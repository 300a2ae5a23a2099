"""API plumbing shared by every app."""

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from league.errors import DomainError

# Beyond any list this site holds, and within every database's integers: ?offset=10**24 was a 500.
MAX_OFFSET = 10**9


class Pagination(LimitOffsetPagination):
    """``?limit=&offset=`` pages with bounds: at most 1000 rows a page, and an offset a database can take."""

    max_limit = 1000

    def get_offset(self, request):
        return min(super().get_offset(request), MAX_OFFSET)


# The one mapping from a domain error's code to the API's HTTP status (see ``league.errors``).
STATUS = {"invalid": 400, "not_found": 404, "forbidden": 403, "conflict": 409, "unavailable": 503}


def exception_handler(exc, context):
    """Map services' errors to HTTP: a ``DomainError`` by its code, a model's ``ValidationError`` to 400.

    Bodies: field errors as ``{"field": ["message"]}`` and other invalid input as ``{"detail": ["message"]}``
    (DRF's own shape); the other codes (and errors with a finer ``reason``) as ``{"detail": "message",
    "code": reason or code, ...data}``.
    """
    if isinstance(exc, DomainError) and (exc.code != "invalid" or exc.reason or exc.data):
        body = {"detail": exc.text, "code": exc.reason or exc.code, **exc.data}
        set_rollback()
        return Response(body, status=STATUS[exc.code])
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        exc = exceptions.ValidationError(detail=detail)
    return drf_exception_handler(exc, context)

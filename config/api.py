"""API plumbing shared by every app."""

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.views import exception_handler as drf_exception_handler

# Beyond any list this site holds, and within every database's integers: ?offset=10**24 was a 500.
MAX_OFFSET = 10**9


class Pagination(LimitOffsetPagination):
    """``?limit=&offset=`` pages with bounds: at most 1000 rows a page, and an offset a database can take."""

    max_limit = 1000

    def get_offset(self, request):
        return min(super().get_offset(request), MAX_OFFSET)


def exception_handler(exc, context):
    """Turn a model/service ``ValidationError`` into HTTP 400 instead of a 500."""
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        exc = exceptions.ValidationError(detail=detail)
    return drf_exception_handler(exc, context)

"""Domain errors: what a service says when it refuses a change, without any HTTP in it.

A service raises :class:`DomainError` (or one of its four kinds) with a message, optional field errors and a
``code``:

=============  ==================================================  ================================
code           meaning                                             API status (``config.api``)
=============  ==================================================  ================================
``invalid``    the input breaks a rule (a negative score...)        400
``not_found``  the thing asked for does not exist (or is hidden)   404
``forbidden``  the caller may not do this                          403
``conflict``   the state does not allow it now (stale ply...)      409
``unavailable`` a service it needs is down (the workers' broker)   503
=============  ==================================================  ================================

``reason`` is an optional finer code for clients (``"stale_ply"``, ``"illegal"``) and ``data`` extra JSON
for the API body (``{"legal_actions": [...]}``). ``DomainError`` is a Django ``ValidationError``, so field
errors, ``messages`` and ``message_dict`` work as everywhere in Django (forms, ``full_clean``, commands).

The web pages use :func:`form_error` (a refused change shown on its form) and :func:`error_text` (as a
message); ``config.middleware`` turns an uncaught ``not_found``/``forbidden`` into the 404/403 pages, and
``config.api.exception_handler`` is the one mapping to HTTP for the API.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

CODES = ("invalid", "not_found", "forbidden", "conflict", "unavailable")


class DomainError(ValidationError):
    """A refused change: a message (or field errors), a ``code`` (see the module) and an optional ``reason``."""

    default_code = "invalid"

    def __init__(self, message: Any, *, code: str | None = None, reason: str = "",
                 data: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        code = code or self.default_code
        if code not in CODES:
            raise ValueError(f"unknown domain error code {code!r}")
        self.code = code
        self.reason = reason
        self.data = dict(data or {})

    @property
    def text(self) -> str:
        """All the messages in one line."""
        return " ".join(error_messages(self))


class NotFound(DomainError):
    default_code = "not_found"


class Forbidden(DomainError):
    default_code = "forbidden"


class Conflict(DomainError):
    default_code = "conflict"


class Unavailable(DomainError):
    """Refused because something the change needs is down now (try again later): nothing was changed."""

    default_code = "unavailable"


def error_code(exc: Exception) -> str:
    """The domain code of an error: a plain ValidationError (a model's ``full_clean``) is ``invalid``."""
    return getattr(exc, "code", "invalid") if isinstance(exc, DomainError) else "invalid"


def error_messages(exc: Exception) -> list[str]:
    """The messages of a refused change, field errors included."""
    if isinstance(exc, ValidationError):
        if hasattr(exc, "error_dict"):
            return [m for messages in exc.message_dict.values() for m in messages]
        return list(exc.messages)
    return [str(exc)]


def error_text(exc: Exception) -> str:
    """The messages of a refused change in one line (for ``messages.error`` or a command's output)."""
    return " ".join(error_messages(exc))


def form_error(form: Any, exc: Exception) -> None:
    """Show a refused change on its form: next to the field it names when the form has that field."""
    if isinstance(exc, ValidationError) and hasattr(exc, "error_dict"):
        for name, errors in exc.error_dict.items():
            target = name if name in form.fields else None
            for error in errors:
                form.add_error(target, error.messages[0] if hasattr(error, "messages") else str(error))
        return
    for message in error_messages(exc):
        form.add_error(None, message)

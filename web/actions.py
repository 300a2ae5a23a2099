"""The organisers' one-page forms (the event's page, its players, its money): each form posts an ``action``; only
the form of that action is bound; a service's refusal becomes that form's errors (or a message when the action
has no form). Shared by ``web.events``, ``web.registrations`` and ``web.fundraising``."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, QueryDict
from django.utils.translation import gettext as _

from league.errors import error_text, form_error


class PostedAction:
    """The action a POST names (None for a GET or an unknown action, which is said in a message)."""

    def __init__(self, request: HttpRequest, actions: Collection[str]):
        self.request = request
        name = request.POST.get("action") if request.method == "POST" else None
        if name is not None and name not in actions:
            messages.error(request, _("Choose one of the forms below."))
            name = None
        self.name = name

    def data(self, action: str) -> QueryDict | None:
        """The POST data for the form of ``action`` (None leaves every other form unbound)."""
        return self.request.POST if self.name == action else None

    def refused(self, exc: ValidationError, forms: Mapping[str, Any]) -> None:
        """A service refused the action: its form shows why, or a message does when the action has no form."""
        form = forms.get(self.name or "")
        if form is not None:
            form_error(form, exc)
        else:
            messages.error(self.request, error_text(exc))


def posted_action(request: HttpRequest, actions: Collection[str]) -> PostedAction:
    """The action of an organiser's page's POST (see the module)."""
    return PostedAction(request, actions)

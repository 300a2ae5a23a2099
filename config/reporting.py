"""What an error report may show: nothing of a match's moves.

Django's DEBUG error page (and the report mailed to admins) lists every frame's local variables and the
request's POST data. During online play those hold the action log of a live match -- the other seat's still
hidden blind card among them (issue 19) -- so this filter hides them all, whatever DEBUG says. The traceback
itself (files, lines, code) is kept for the developer.
"""

from __future__ import annotations

from typing import Any

from django.views.debug import SafeExceptionReporterFilter

HIDDEN = "(hidden: error reports never show a match's data)"


class QuietExceptionReporterFilter(SafeExceptionReporterFilter):
    """Hides every frame's local variables and every POST value (settings are cleansed as Django does)."""

    def get_post_parameters(self, request: Any) -> dict[str, str]:
        if request is None:
            return {}
        return dict.fromkeys(request.POST, HIDDEN)

    def get_traceback_frame_variables(self, request: Any, tb_frame: Any) -> list[tuple[str, str]]:
        return []

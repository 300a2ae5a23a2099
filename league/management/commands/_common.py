"""Helpers shared by the league's management commands."""

from __future__ import annotations

import textwrap

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, DjangoHelpFormatter
from django.urls import NoReverseMatch, reverse

from league.models import Tournament


def validation_message(exc: ValidationError) -> str:
    """A ValidationError as plain lines for a terminal (field errors prefixed by the field's name)."""
    if hasattr(exc, "error_dict"):
        lines = []
        for name, messages in exc.message_dict.items():
            prefix = "" if name == "__all__" else f"{name}: "
            lines.extend(f"{prefix}{message}" for message in messages)
        return "\n".join(lines)
    return "\n".join(exc.messages)


def tournament_or_error(slug: str) -> Tournament:
    """The tournament with this slug, or a CommandError that says which slugs exist."""
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        known = list(Tournament.objects.order_by("slug").values_list("slug", flat=True)[:20])
        hint = f" Known tournaments: {', '.join(known)}." if known else " There are no tournaments yet."
        raise CommandError(f"No tournament with the slug {slug!r}.{hint}")
    return tournament


def tournament_url(tournament: Tournament, base_url: str = "http://127.0.0.1:8000") -> str:
    """The public address of a tournament's page."""
    try:
        path = reverse("league:tournament", kwargs={"slug": tournament.slug})
    except NoReverseMatch:
        path = f"/t/{tournament.slug}/"
    return base_url.rstrip("/") + path


class _HelpFormatter(DjangoHelpFormatter):
    """Django's help layout, keeping the line breaks of the description (its examples) and wrapping each line."""

    def _fill_text(self, text, width, indent):
        lines = []
        for line in text.splitlines():
            extra = " " * (len(line) - len(line.lstrip()))
            follow = indent + extra + ("    " if extra else "")  # an example's continuation lines stand out
            lines.append(textwrap.fill(line.strip(), width, initial_indent=indent + extra, subsequent_indent=follow)
                         if line.strip() else "")
        return "\n".join(lines)


class LeagueCommand(BaseCommand):
    """Base of the league's commands: ``help`` is printed with its line breaks."""

    def create_parser(self, prog_name, subcommand, **kwargs):
        return super().create_parser(prog_name, subcommand, formatter_class=_HelpFormatter, **kwargs)

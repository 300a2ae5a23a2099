"""Web partials of simulation and odds: the htmx-polled progress bar and the odds table."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from league.permissions import tournament_for
from matches import odds, simulation


@require_GET
def simulation_progress(request, slug):
    """The progress bar partial; polled by htmx every second while the run goes on."""
    progress = simulation.simulation_progress(tournament_for(request.user, slug))
    response = render(request, "matches/_simulation_progress.html", {"progress": progress})
    if request.GET.get("was") == "running" and progress and progress["status"] != "running":
        # The run just ended: reload the page once so the tables and bracket show the new results.
        response["HX-Refresh"] = "true"
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def odds_partial(request, slug):
    """The odds table partial (the standings page includes the same template)."""
    return render(request, "matches/_odds.html", {"odds": odds.tournament_odds(tournament_for(request.user, slug))})

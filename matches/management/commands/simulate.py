"""``python manage.py simulate SLUG``: simulate a tournament's fixtures on the workers, with a progress bar."""

from __future__ import annotations

import sys
import time

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from league.models import Fixture, Result, Tournament
from matches import simulation, tasks
from matches.models import SimulationRun


def progress_bar(done: int, total: int, width: int = 30) -> str:
    """A text progress bar: ``[##########----------]  24/48``."""
    filled = int(width * done / total) if total else width
    return f"[{'#' * filled}{'-' * (width - filled)}] {done:>3}/{total}"


class Command(BaseCommand):
    help = ("Simulate a tournament's fixtures that have no result with computer players (the engine), stage by "
            "stage: queue the work for the Celery workers and wait for them, showing a progress bar. "
            "Start workers with: celery -A config worker")

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the tournament's slug")
        parser.add_argument("--stage", choices=simulation.STAGES, default="all",
                            help="pools, knockout or all (default: all, the knockout rounds as their slots fill)")
        parser.add_argument("--seed", type=int, default=None,
                            help="the simulation seed: the same seed gives the same results (default: random)")
        parser.add_argument("--round", type=int, default=None, dest="round_number",
                            help="only this round (its number in the fixture list)")
        parser.add_argument("--inline", action="store_true", help="play in this process, without a worker")
        parser.add_argument("--no-wait", action="store_true", help="queue the work and return at once")
        parser.add_argument("--timeout", type=float, default=600, help="seconds to wait for the workers")
        parser.add_argument("--stall", type=float, default=20,
                            help="seconds without progress before the ready fixtures are queued again")

    def handle(self, *args, **options):
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No tournament with the slug {options['slug']!r}.")
        started = time.perf_counter()
        try:
            if options["inline"]:
                run = simulation.simulation_create(tournament=tournament, stage=options["stage"],
                                                   seed=options["seed"], round_number=options["round_number"])
                self._say_start(run)
                run = simulation.run_inline(run, on_progress=self._draw)
            else:
                run = simulation.simulation_start(tournament=tournament, stage=options["stage"], seed=options["seed"],
                                                  round_number=options["round_number"])
                self._say_start(run)
                if options["no_wait"]:
                    self.stdout.write(f"Queued simulation run {run.pk}.")
                    return
                run = self._wait(run, options["timeout"], options["stall"])
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages))
        self._draw(run)
        self.stdout.write("")
        self._summary(tournament, run, time.perf_counter() - started)

    def _say_start(self, run: SimulationRun) -> None:
        self.stdout.write(f"Simulating {run.tournament.name} ({run.get_stage_display().lower()}), seed {run.seed}: "
                          f"{run.total - run.done} of {run.total} fixtures to play.")

    def _draw(self, run: SimulationRun) -> None:
        end = "\r" if sys.stdout.isatty() else "\n"
        self.stdout.write(progress_bar(run.done, run.total) + f"  {run.status}", ending=end)
        self.stdout.flush()

    def _wait(self, run: SimulationRun, timeout: float, stall: float) -> SimulationRun:
        deadline = time.monotonic() + timeout
        last_change, last_done, shown = time.monotonic(), -1, None
        while True:
            run.refresh_from_db()
            if (run.done, run.status) != shown:
                shown = (run.done, run.status)
                self._draw(run)
            if run.status != SimulationRun.Status.RUNNING:
                return run
            now = time.monotonic()
            if run.done != last_done:
                last_done, last_change = run.done, now
            elif now - last_change > stall:
                # Nothing moved: a worker may have died with its messages (the file-system broker cannot
                # redeliver them). Hand the ready fixtures out again; duplicates are skipped.
                self.stderr.write(f"\nNo progress for {stall:.0f} s: queueing the ready fixtures again (is a worker "
                                  "running? start one with: celery -A config worker)")
                tasks.simulate_run.delay(run.pk, again=True)
                last_change = now
            if now > deadline:
                raise CommandError(f"The workers did not finish within {timeout:.0f} s ({run.done}/{run.total} "
                                   "done); the run goes on in the background. Is a worker running? "
                                   "Start one with: celery -A config worker")
            time.sleep(0.2)

    def _summary(self, tournament: Tournament, run: SimulationRun, seconds: float) -> None:
        if run.status == SimulationRun.Status.FAILED:
            raise CommandError(f"The simulation failed: {run.error_text}")
        results = Result.objects.filter(fixture__tournament=tournament).count()
        fixtures = Fixture.objects.filter(tournament=tournament).exclude(status=Fixture.Status.CANCELLED).count()
        self.stdout.write(f"Done in {seconds:.1f} s: {results} of {fixtures} fixtures have a result (seed {run.seed}).")
        if run.error_text:
            self.stdout.write(run.error_text)
        final = Fixture.objects.filter(tournament=tournament, code="F").select_related(
            "result__winner__team").first()
        winner = getattr(getattr(final, "result", None), "winner", None) if final is not None else None
        if winner is not None:
            self.stdout.write(self.style.SUCCESS(f"Champion: {winner.team.name} ({winner.team.code})"))

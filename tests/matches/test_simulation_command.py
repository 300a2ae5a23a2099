"""``manage.py simulate`` and ``manage.py odds`` (inline: no worker needed)."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from league.models import Result
from matches.management.commands.simulate import progress_bar
from tests.matches.sim_helpers import rwc_tournament

pytestmark = pytest.mark.django_db


def test_progress_bar():
    assert progress_bar(0, 48, width=10) == "[----------]   0/48"
    assert progress_bar(24, 48, width=10) == "[#####-----]  24/48"
    assert progress_bar(48, 48, width=10) == "[##########]  48/48"


def test_simulate_inline_pools_then_knockout_and_odds(settings):
    settings.ODDS_MODEL_MATCHES = 10
    tournament = rwc_tournament()
    out = StringIO()
    call_command("simulate", tournament.slug, "--stage", "pools", "--seed", "8", "--inline", stdout=out)
    assert "40/40" in out.getvalue() and "seed 8" in out.getvalue()
    assert Result.objects.filter(fixture__tournament=tournament).count() == 40
    out = StringIO()
    call_command("odds", tournament.slug, "--runs", "50", stdout=out)
    assert "50 runs" in out.getvalue() and "FRA" in out.getvalue()
    out = StringIO()
    call_command("simulate", tournament.slug, "--inline", stdout=out)
    assert "Champion:" in out.getvalue() and "48 of 48" in out.getvalue()


@pytest.mark.parametrize("args,message", [
    (["nope"], "No tournament"),
    (["sim-cup", "--stage", "knockout", "--inline"], "not known"),
])
def test_simulate_errors_are_clear(args, message):
    rwc_tournament()
    with pytest.raises(CommandError, match=message):
        call_command("simulate", *args, stdout=StringIO())

"""The organiser sees the running simulation's progress bar on the tournament page; visitors do not."""

import pytest

from matches.models import SimulationRun
from tests.matches.sim_helpers import rwc_tournament


@pytest.mark.django_db
def test_tournament_page_shows_polled_progress_bar_to_organisers_only(client, django_user_model):
    organiser = django_user_model.objects.create_user(username="org", password="pw-org-12345")
    tournament = rwc_tournament("progress-cup", user=organiser)
    SimulationRun.objects.create(tournament=tournament, seed=11, stage="all", total=48, done=17)

    client.force_login(organiser)
    html = client.get(f"/t/{tournament.slug}/").content.decode()
    assert '<progress id="simulation-progress-bar" max="48" value="17">' in html
    assert "17 of 48 matches" in html
    assert 'hx-trigger="every 1s"' in html  # keeps refreshing while the run is going

    client.logout()
    assert "simulation-progress-bar" not in client.get(f"/t/{tournament.slug}/").content.decode()

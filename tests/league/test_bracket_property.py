"""Property test on the database: any single-elimination bracket, played with random results (and the odd
withdrawal), fills every match and crowns one champion; nobody plays twice in a round."""

import random

from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from league import services
from league.advancement import match_outcome
from league.models import Entry, Fixture, Result
from league.nations import RWC2023_CODES
from league.services import tournament_create_from_preset as preset_run


class SingleEliminationPlaysOut(TestCase):
    @hsettings(max_examples=15, deadline=None)
    @given(n=st.integers(min_value=2, max_value=20), third=st.booleans(), coin=st.integers(0, 2**32),
           withdraw=st.booleans())
    def test_bracket_plays_out(self, n, third, coin, withdraw):
        rng = random.Random(coin)
        t = preset_run("single_elimination", name="KO", slug=f"ko-{coin}-{n}", teams=RWC2023_CODES[:n],
                               third_place=third)
        if withdraw:
            services.entry_withdraw(entry=rng.choice(list(Entry.objects.filter(tournament=t))))
        while True:
            ready = [f for f in Fixture.objects.filter(tournament=t, stage=Fixture.Stage.KNOCKOUT, result__isnull=True)
                     if f.home_id and f.away_id]
            if not ready:
                break
            for fixture in ready:
                home_wins = rng.random() < 0.5
                services.result_record(fixture=fixture, home_score=24 if home_wins else 10,
                                       away_score=10 if home_wins else 24, home_tries=3 if home_wins else 1,
                                       away_tries=1 if home_wins else 3)
        fixtures = list(Fixture.objects.filter(tournament=t, stage=Fixture.Stage.KNOCKOUT).select_related("result"))
        assert all(f.home_id and f.away_id for f in fixtures)
        assert Result.objects.filter(fixture__in=fixtures).count() == len(fixtures)
        by_round = {}
        for f in fixtures:
            if f.code.endswith("BF"):
                continue
            teams = by_round.setdefault(f.round_number, [])
            teams += [f.home_id, f.away_id]
        for teams in by_round.values():
            assert len(teams) == len(set(teams))
        final = next(f for f in fixtures if f.code == "F")
        assert match_outcome(final, final.result) is not None

"""Pool draws (pure): seeded by bands, random with a stored seed, manual."""

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from league.draws import DrawError, banded_draw, manual_draw, new_draw_seed, pool_names, random_draw

RANKED = ["IRE", "FRA", "RSA", "NZL", "SCO", "ARG", "FIJ", "ENG", "AUS", "WAL",
          "GEO", "SAM", "ITA", "JPN", "TGA", "POR", "URU", "ROU", "NAM", "CHI"]


def test_banded_draw_puts_one_team_of_each_band_in_every_pool():
    pools = banded_draw(RANKED, "ABCD", seed=2020)
    bands = [set(RANKED[i:i + 4]) for i in range(0, 20, 4)]
    for members in pools.values():
        assert len(members) == 5
        for band, team in zip(bands, members, strict=True):
            assert team in band
    assert sorted(t for m in pools.values() for t in m) == sorted(RANKED)


def test_a_draw_reruns_identically_from_its_seed():
    assert banded_draw(RANKED, "ABCD", seed=42) == banded_draw(RANKED, "ABCD", seed=42)
    assert random_draw(RANKED, "ABCD", seed=7) == random_draw(RANKED, "ABCD", seed=7)
    assert banded_draw(RANKED, "ABCD", seed=42) != banded_draw(RANKED, "ABCD", seed=43)


@hsettings(max_examples=100)
@given(n=st.integers(min_value=2, max_value=64), pools=st.integers(min_value=1, max_value=16),
       seed=st.integers(0, 2**32 - 1))
def test_draw_properties(n, pools, seed):
    teams = [f"T{i}" for i in range(n)]
    names = pool_names(pools)
    if n < 2 * pools:
        with pytest.raises(DrawError):
            banded_draw(teams, names, seed=seed)
        return
    for drawn in (banded_draw(teams, names, seed=seed), random_draw(teams, names, seed=seed)):
        sizes = [len(m) for m in drawn.values()]
        assert max(sizes) - min(sizes) <= 1
        assert sorted(t for m in drawn.values() for t in m) == sorted(teams)
    banded = banded_draw(teams, names, seed=seed)
    for band_start in range(0, n, pools):
        band = set(teams[band_start:band_start + pools])
        for members in banded.values():
            assert len(band & set(members)) <= 1


def test_manual_draw_is_checked():
    drawn = manual_draw({"FRA": "A", "NZL": "A", "IRE": "B", "RSA": "B"}, ["A", "B"])
    assert drawn == {"A": ["FRA", "NZL"], "B": ["IRE", "RSA"]}
    with pytest.raises(DrawError, match="unknown pool"):
        manual_draw({"FRA": "A", "NZL": "A", "IRE": "C", "RSA": "B"}, ["A", "B"])
    with pytest.raises(DrawError, match="fewer than two"):
        manual_draw({"FRA": "A", "NZL": "A", "IRE": "A", "RSA": "B"}, ["A", "B"])


def test_seeds_and_pool_names():
    assert 0 <= new_draw_seed() < 2**32
    assert pool_names(3) == ["A", "B", "C"]
    assert pool_names(28)[26:] == ["AA", "AB"]

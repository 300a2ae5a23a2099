"""Shared test fixtures."""

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.load_profile("default")


@pytest.fixture(autouse=True)
def _no_odds_after_result(settings):  # pytest-django's settings fixture, not hypothesis's
    """Results saved in tests do not queue odds tasks (matches/signals.py); tests of the odds switch it on."""
    settings.ODDS_AFTER_RESULT = False


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """A cheap hasher in tests: PBKDF2's deliberate slowness made every user created cost a large share of a test."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_user(username="organiser", password="pw-organiser-1")

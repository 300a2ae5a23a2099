import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient
from tests.league.test_api_queries import ENDPOINTS, _grow, _pool_id

@pytest.mark.django_db
@pytest.mark.parametrize("signed_in", [False, True])
def test_counts(organiser, signed_in):
    client = APIClient()
    if signed_in:
        client.force_login(organiser)
    _grow(organiser, "big", 1)
    for url, bound in ENDPOINTS:
        with CaptureQueriesContext(connection) as c:
            client.get(url.format(pool=_pool_id("big-0")))
        print("COUNT", signed_in, url, bound, len(c))

import pytest

from league.models import Team


@pytest.mark.django_db
def test_twenty_nations_after_migrate():
    assert Team.objects.filter(is_nation=True).count() == 20

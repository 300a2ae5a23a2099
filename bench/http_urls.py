"""URLs of the benchmark server: the whole site plus the baseline view."""

from django.http import HttpResponse
from django.urls import include, path


def constant(request):
    """The baseline: a plain Django view returning a constant string through the same middleware."""
    return HttpResponse("rugby", content_type="text/plain")


urlpatterns = [
    path("bench/constant/", constant),
    path("", include("config.urls")),
]

"""The API's content negotiation (REST framework's ``DEFAULT_CONTENT_NEGOTIATION_CLASS``).

Its own module: REST framework imports it while its views module loads, so it must not import those views.
"""

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import JSONRenderer
from rest_framework.settings import api_settings


class Negotiation(DefaultContentNegotiation):
    """DRF's content negotiation, answering at once what nearly every API client asks (JSON, or anything): the
    general case parses the query string and every media type, a tenth of a cached list's time."""

    def select_renderer(self, request, renderers, format_suffix=None):
        accept = request.META.get("HTTP_ACCEPT", "*/*")
        if (accept in ("*/*", "application/json") and format_suffix is None and renderers
                and type(renderers[0]) is JSONRenderer
                and f"{api_settings.URL_FORMAT_OVERRIDE}=" not in request.META.get("QUERY_STRING", "")):
            return renderers[0], renderers[0].media_type  # what the general case chooses for these
        return super().select_renderer(request, renderers, format_suffix)

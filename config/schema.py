"""The OpenAPI schema's generator: drf-spectacular's, with the error answers every operation can give.

Each view documents its successful answers (and its own refusals where they have a particular body); the error
answers that come from the plumbing are added here once, so the schema says what the API does:

* 400 for a request body or query parameters that do not validate (``{"field": ["message"]}``);
* 401 for a write without credentials (with ``WWW-Authenticate: Token``), 403 for a caller who may not do it;
* 404 for a path that names something missing or hidden (``{"detail": "..."}``);
* 409 for a write the tournament's state does not allow now, 415 for a body in a media type it does not read;
* 429 for an operation limited per client.
"""

from __future__ import annotations

from drf_spectacular import openapi
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from uritemplate import variables

from league.serializers import ErrorSerializer as ERROR

SAFE = {"GET", "HEAD", "OPTIONS"}


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's AutoSchema with the plumbing's error answers added (see the module)."""

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        write = self.method not in SAFE
        extra = {}
        if write or self._takes_query_parameters():
            extra["400"] = OpenApiResponse(OpenApiTypes.OBJECT, description="Invalid input: each field's messages "
                                           "({\"field\": [\"message\"]}), or {\"detail\": ...}.")
        if write:
            extra["401"] = OpenApiResponse(ERROR, description="Not signed in: send a token "
                                           "(Authorization: Token <key>) or sign in.")
            extra["403"] = OpenApiResponse(ERROR, description="Signed in, but not allowed (not an organiser).")
            extra["409"] = OpenApiResponse(ERROR, description="Not possible in the tournament's present state.")
            extra["415"] = OpenApiResponse(ERROR, description="A request body in a media type the operation "
                                           "does not read.")
        if getattr(self.view, "throttle_classes", None):
            extra["429"] = OpenApiResponse(ERROR, description="Too many requests from this client: wait for the "
                                           "seconds in Retry-After.")
        if variables(self.path) or write or self._takes_query_parameters():
            extra["404"] = OpenApiResponse(ERROR, description="No such object, or hidden from the caller.")
        for code, response in extra.items():
            if code not in responses:
                responses[code] = self._get_response_for_code(response, code, direction=direction)
        return responses

    def get_override_parameters(self):
        parameters = list(super().get_override_parameters())
        if getattr(self.view, "detail_scope_parameter", False) and variables(self.path):
            parameters.append(OpenApiParameter(
                "tournament", str, required=False,
                description="The tournament's slug: needed to reach an object of an unlisted tournament by its id "
                            "(numeric ids alone only reach the listed tournaments' objects)."))
        return parameters

    def _takes_query_parameters(self) -> bool:
        return any(p.get("in") == "query" for p in self._get_parameters() if isinstance(p, dict))

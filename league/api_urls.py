"""REST API routes."""

urlpatterns = []

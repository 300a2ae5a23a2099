"""Web pages."""

urlpatterns = []

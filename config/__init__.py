"""Project configuration package: settings, URLs, Celery app, WSGI/ASGI."""

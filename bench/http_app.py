"""Settings for bench/http.py: the project's own settings in production mode, with the URLs of
``bench/http_urls.py`` (the site plus one baseline view that never exists on the real site)."""

import os

os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")

from config.settings import *  # noqa: F403

DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
SECURE_SSL_REDIRECT = False
SECURE_HSTS_SECONDS = 0
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
# No collectstatic in a benchmark: plain static storage (the pages only link to the stylesheet).
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
ROOT_URLCONF = "bench.http_urls"
LOGGING = {"version": 1, "disable_existing_loggers": True, "root": {"level": "CRITICAL", "handlers": []}}


"""The Celery app. Tasks live in each app's ``tasks.py`` and only call services.

Broker and result store come from settings: Redis when ``REDIS_URL`` is set,
otherwise a file-system broker under ``var/`` that needs no server.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("rugby")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

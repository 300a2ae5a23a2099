"""Writes of accounts: signing up (a username and a password; pupils have no email address)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction


@transaction.atomic
def user_create(*, username: str, password: str) -> Any:
    """A new account (the signup form has checked the username and the password's strength)."""
    return get_user_model().objects.create_user(username=username, password=password)

"""Writes of accounts: signing up (a username, an e-mail address to reset the password with, a password)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction


@transaction.atomic
def user_create(*, username: str, password: str, email: str = "") -> Any:
    """A new account (the signup form has checked the username, the e-mail address and the password's strength)."""
    return get_user_model().objects.create_user(username=username, password=password, email=email.strip())

"""Template filters of an event's money: ``{{ amount|money:event.currency }}`` ("R1,250.00")."""

from __future__ import annotations

from decimal import Decimal

from django import template

from league.money import money_text

register = template.Library()


@register.filter
def money(amount: Decimal | None, currency: str) -> str:
    """An amount with its currency's symbol and two decimals."""
    return money_text(amount, currency)

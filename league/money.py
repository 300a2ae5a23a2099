"""Amounts of money as people read them: "R1,250.00", "£12.50" (an event's fees, donations and pledges).

Plain formatting with no database: the template filter and the selectors both use it.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

ZERO = Decimal("0.00")
CENT = Decimal("0.01")
# The symbols of the currencies an event may use (``league.models.CURRENCY_CHOICES``).
SYMBOLS = {"ZAR": "R", "GBP": "£", "EUR": "€", "NZD": "NZ$", "AUD": "A$", "USD": "US$", "CAD": "C$", "FJD": "FJ$",
           "ARS": "AR$", "CHF": "CHF ", "NAD": "N$"}


def money_text(amount: Decimal | None, currency: str) -> str:
    """"R1,250.00": an amount with its currency's symbol (the ISO code when it has none), two decimals."""
    value = (amount or ZERO).quantize(CENT, rounding=ROUND_HALF_UP)
    symbol = SYMBOLS.get(currency, f"{currency} ")
    sign = "-" if value < 0 else ""
    return f"{sign}{symbol}{abs(value):,.2f}"

"""What sharing a tournament needs: the QR code of a link (segno), for the public page, the venue poster and the
players' passes."""

from __future__ import annotations

import hashlib
import io

import segno
from django.core.cache import cache

QR_TIMEOUT = 60 * 60 * 24


def qr_svg(url: str, *, scale: int = 4) -> str:
    """The QR code of ``url`` as an SVG document, cached: a poster and a page ask for the same one."""
    key = f"league:qr:{hashlib.blake2b(f'{scale}:{url}'.encode(), digest_size=12).hexdigest()}"
    svg = cache.get(key)
    if svg is None:
        out = io.BytesIO()
        segno.make(url, error="m").save(out, kind="svg", scale=scale, border=2, xmldecl=False, dark="#000",
                                        light="#fff")
        svg = out.getvalue().decode()
        cache.set(key, svg, QR_TIMEOUT)
    return svg


def qr_svg_inline(url: str, *, scale: int = 3) -> str:
    """The QR code of ``url`` as an ``<svg>`` element to put in a page (the players' passes)."""
    return qr_svg(url, scale=scale)

"""The app's middleware, pure ASGI: it must not hold up streamed answers or sockets."""

from __future__ import annotations

import base64
import hashlib
import re

from tminus.server.errors import error_response
from tminus.server.html import PAGES, WEB


def inline_script_hashes() -> list[str]:
    """The CSP hashes of the inline scripts of the pages served (so only they may run)."""
    hashes = []
    for page in PAGES:
        html = (WEB / page).read_text(encoding="utf-8")
        for body in re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", html, re.S):
            digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
            hashes.append(f"'sha256-{digest}'")
    return hashes


class SecurityHeaders:
    """Content-Security-Policy, X-Frame-Options, nosniff and Referrer-Policy on every answer."""

    def __init__(self, app) -> None:
        self.app = app
        scripts = " ".join(["'self'", *inline_script_hashes()])
        policy = (
            f"default-src 'self'; script-src {scripts}; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
            "form-action 'self'; frame-ancestors 'none'"
        )
        self.headers = [
            (b"content-security-policy", policy.encode()),
            (b"x-frame-options", b"DENY"),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"),
        ]

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.headers]
            await send(message)

        await self.app(scope, receive, with_headers)


class BodyLimit:
    """Refuse a request body over ``max_body`` bytes (413) before reading more of it."""

    def __init__(self, app, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = error_response(
            "too_large", f"the request body is over {self.max_body} bytes: nothing was read"
        )
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await too_large(scope, receive, send)
            return
        seen = 0
        answered = False  # the 413 went out: whatever the app answers later is dropped

        async def counted():
            nonlocal seen, answered
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body and not answered:
                    answered = True
                    await too_large(scope, receive, send)
                    return {"type": "http.disconnect"}  # the app stops reading
            return message

        async def unless_answered(message) -> None:
            if not answered:
                await send(message)

        await self.app(scope, counted, unless_answered)

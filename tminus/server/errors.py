"""One shape for every error, over HTTP and over the socket: ``{"type": "error", "code",
"message"}`` (nothing was changed), with the status (or the socket's close code) each code
is answered with; and the app's exception handlers, which turn every failure into it."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Match

from tminus.server.html import message_page
from tminus.server.limits import retry_after
from tminus.server.outbound import ErrorMessage, error
from tminus.server.service import GameError

log = logging.getLogger("tminus.server")
HTTP_STATUS = {
    "not_found": 404, "forbidden": 403, "unknown_seat": 403, "bad_state": 409, "broken": 409,
    "bad_request": 400, "unauthorized": 401, "name_taken": 409, "too_large": 413,
    "rate_limited": 429, "busy": 429, "unavailable": 503,
    "internal": 500,
}  # fmt: skip
RETRY_AFTER = {"unavailable": 1, "busy": 5}
SOCKET_CLOSE = {"forbidden": 4403, "unknown_seat": 4403, "not_found": 4404, "broken": 4409}


class Error(ErrorMessage):
    """Every error, over HTTP and over the socket: nothing was changed."""


class Refused(Exception):
    """An HTTP request over a limit: answered 429 with Retry-After."""

    def __init__(self, code: str, message: str, seconds: float) -> None:
        super().__init__(message)
        self.code, self.message, self.seconds = code, message, seconds


def error_response(code: str, message: str, retry: float | None = None) -> JSONResponse:
    headers = {"Retry-After": retry_after(retry)} if retry is not None else None
    return JSONResponse(error(code, message), HTTP_STATUS.get(code, 400), headers=headers)


def documented(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error answers a route documents in the OpenAPI schema."""
    return {status: {"model": Error, "description": "error"} for status in statuses}


def describe(errors) -> str:
    """Pydantic's validation errors in one line: where, and what is wrong."""
    problems = "; ".join(
        f"{'.'.join(str(p) for p in d['loc']) or 'message'}: {d['msg']}" for d in errors
    )
    return f"malformed message: {problems}"


def wants_page(request: Request) -> bool:
    """A browser opening an address (not the API, not a socket): it is answered with a
    page, not with JSON."""
    path = request.url.path
    html = "text/html" in request.headers.get("accept", "")
    return html and request.method == "GET" and not path.startswith(("/api/", "/ws/"))


def allowed_methods(routes: list[BaseRoute], request: Request) -> list[str]:
    """Every method some route answers at the request's path (the routers included whole:
    their routes carry the full path, see ``create_app``)."""
    methods: set[str] = set()
    for route in routes:
        included = getattr(route, "original_router", None)  # (FastAPI: a router included)
        if included is not None:
            methods.update(allowed_methods(included.routes, request))
            continue
        match, _ = route.matches(request.scope)
        route_methods: set[str] | None = getattr(route, "methods", None)  # (HTTP routes only)
        if match != Match.NONE and route_methods:
            methods |= route_methods
    return sorted(methods)


# -- the exception handlers (added by ``add_error_handlers``) ------------------------------
async def game_error(_request: Request, e: GameError) -> JSONResponse:
    return error_response(e.code, e.message, RETRY_AFTER.get(e.code))


async def refused(_request: Request, e: Refused) -> JSONResponse:
    return error_response(e.code, e.message, e.seconds)


async def http_error(request: Request, e: StarletteHTTPException) -> Response:
    if e.status_code == 404 and wants_page(request):
        text = "There is no page at this address. Games are made and found in the lobby."
        return HTMLResponse(message_page("Page not found", text), status_code=404)
    code = {404: "not_found", 405: "bad_request"}.get(e.status_code, "bad_request")
    response = JSONResponse(error(code, str(e.detail)), status_code=e.status_code)
    if e.headers:
        response.headers.update(e.headers)
    if e.status_code == 405:  # every method of the path, not only the first route's
        response.headers["Allow"] = ", ".join(allowed_methods(request.app.routes, request))
    return response


async def request_error(_request: Request, e: RequestValidationError) -> JSONResponse:
    return error_response("bad_request", describe(e.errors()))


async def internal_error(_request: Request, e: Exception) -> JSONResponse:
    log.exception("internal error")
    return error_response("internal", "the server failed on this request; it was logged")


def add_error_handlers(app: FastAPI) -> None:
    """Every error answered in the one shape (a 404 a browser opens: a page)."""
    app.exception_handler(GameError)(game_error)
    app.exception_handler(Refused)(refused)
    app.exception_handler(StarletteHTTPException)(http_error)
    app.exception_handler(RequestValidationError)(request_error)
    app.exception_handler(Exception)(internal_error)

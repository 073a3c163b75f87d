"""A finished game reviewed (``/api/games/{id}/review``, and as a page without script at
``/game/{id}/review``): made in the background when first asked for, asked again until
ready."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, JSONResponse, Response

from tminus.server.errors import HTTP_STATUS, documented
from tminus.server.html import message_page
from tminus.server.reviews import ReviewBusy, Reviews
from tminus.server.routes.deps import ReviewJobs, Service
from tminus.server.service import GameError, GameService
from tminus.server.storage import FINISHED

router = APIRouter()


async def asked_review(service: GameService, reviews: Reviews, game_id: str):
    """The review of a finished game, or None while it is being made (now started)."""
    table = await service.get(game_id)
    if table.status != FINISHED:
        raise GameError("bad_state", "a game is reviewed once it is over")
    record = table.record
    try:
        return reviews.ask(
            game_id, type(table.game), record.params, table.state.history(),
            service.names(table),
        )  # fmt: skip
    except ReviewBusy as busy:
        raise GameError("busy", str(busy)) from None
    except RuntimeError as failed:  # the review's process failed: asking again retries
        raise GameError("unavailable", str(failed)) from None


@router.get(
    "/api/games/{game_id}/review",
    responses={
        **documented(404, 409, 429, 503),
        202: {"description": "being made: ask again (Retry-After)"},
    },
)
async def review_game_route(game_id: str, service: Service, reviews: ReviewJobs) -> Response:
    """A finished game reviewed: for each decision its chance to win before and after
    the move played, the best move and the loss (``status``: ``ready``); ``working``
    (202) while the review is being made: ask again."""
    review = await asked_review(service, reviews, game_id)
    if review is None:
        so_far = [move.to_dict() for move in reviews.so_far(game_id)]
        working = {"status": "working", **reviews.progress(game_id), "moves": so_far}
        return JSONResponse(working, status_code=202, headers={"Retry-After": "2"})
    return JSONResponse({"status": "ready", **review.to_dict()})


@router.get("/game/{game_id}/review", include_in_schema=False)
async def review_page(game_id: str, service: Service, reviews: ReviewJobs) -> HTMLResponse:
    """The review as a page (no script): the curve, the graded moves; while it is being
    made, a page that asks again by itself."""
    from tminus.review.report import html_report

    back = f"/game/{game_id}"
    try:
        review = await asked_review(service, reviews, game_id)
    except GameError as refused:
        # (no game there: no game to go back to)
        page = message_page(
            "No review", refused.message, "/" if refused.code == "not_found" else back
        )
        return HTMLResponse(page, status_code=HTTP_STATUS.get(refused.code, 400))
    if review is None:
        return await review_in_the_making(service, reviews, game_id)
    return HTMLResponse(html_report(review, back=back))


async def review_in_the_making(
    service: GameService, reviews: Reviews, game_id: str
) -> HTMLResponse:
    """How far the review has come: the moves judged so far, or a page that says where it
    is; either asks again by itself."""
    from tminus.review import Review
    from tminus.review.report import html_report

    back = f"/game/{game_id}"
    where = reviews.progress(game_id)
    text, meter = "The game is being reviewed: every move is played out many times. ", None
    if "judged" in where:
        meter = (where["judged"], where["decisions"])
        text += f"{meter[0]} of {meter[1]} decisions judged"
        left = where["seconds_left"]
        text += f", about {max(1, round(left))} s left. " if left is not None else ". "
    elif where.get("waiting"):
        text += f"It starts after {where['waiting']} other review(s). "
    so_far = reviews.so_far(game_id)
    if so_far:  # the moves judged so far, filled in as they come
        table = await service.get(game_id)
        names = service.names(table)
        partial = Review(table.game.name, dict(table.record.params), names, so_far, None)
        text += "The moves judged so far are below; the rest follow."
        return HTMLResponse(html_report(partial, back=back, waiting=(text, meter)))
    text += "This page shows the review as soon as it is ready."
    page = message_page("Reviewing the game…", text, back, again=2, meter=meter)
    return HTMLResponse(page)

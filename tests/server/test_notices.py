"""The notices one process tells the others (tminus/server/store_notices.py): each kind of
news reads back as itself, told by its store, and a notice of no known shape is refused."""

import pydantic
import pytest

from tminus.server.store_notices import (
    Chat,
    Moves,
    Paused,
    Reload,
    Rematch,
    SeatNews,
    Seats,
    TakeBack,
    own_notice,
    read_notice,
    said_by,
)

EVERY_KIND = [
    Moves(at=3, moves=[(7, None, None), (2, "because", 0.5)], status="finished", result={}),
    Reload(at=9),
    Chat(chat=[{"index": 0, "seat": 1, "text": "gg", "at": 0}]),
    Rematch(rematch="ab12"),
    Paused(paused=True),
    Seats(seats=[SeatNews(joined=True, name="Ada", kind="bot", bot="greedy")]),
    TakeBack(take_back=None),
]


@pytest.mark.parametrize("news", EVERY_KIND, ids=lambda news: type(news).__name__)
def test_each_kind_of_news_reads_back_as_itself_told_by_its_store(news):
    payload = said_by("p1", news)
    heard = read_notice(payload)
    assert type(heard) is type(news) and heard.by == "p1"
    assert heard.model_copy(update={"by": ""}) == news
    assert own_notice("p1", payload) and not own_notice("p2", payload)


@pytest.mark.parametrize(
    "payload",
    [
        '{"by":"p1","moves":[]}',  # moves without their place in the log
        '{"by":"p1","paused":true,"seats":[]}',  # two kinds at once
        '{"by":"p1","seats":[[true,"Ada","person",null]]}',  # a seat as a bare list
        '{"by":"p1","surprise":1}',
    ],
)
def test_a_notice_of_no_known_shape_is_refused(payload):
    with pytest.raises(pydantic.ValidationError):
        read_notice(payload)

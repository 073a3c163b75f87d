"""Reminders by e-mail (issue 37), received by a real SMTP server on loopback (aiosmtpd): a
turn-based game waiting for a person who allowed them; at most one an hour; a deadline
near names the game again; the unsubscribe link works; two processes send one."""

from __future__ import annotations

import asyncio

import pytest

from tminus.server.accounts import Accounts
from tminus.server.limits import Limits
from tminus.server.reminders import Mail, send_reminders
from tminus.server.service import GameService
from tminus.server.storage import Store

from .helpers import TOKENS, new_service, seats
from .mailbox import smtp_server

pytestmark = pytest.mark.anyio
TURN = {"kind": "turn", "per_move": 86_400, "reserve": 0, "on_timeout": "greedy"}


@pytest.fixture
def inbox():
    with smtp_server() as (box, port):
        yield box, Mail(host="127.0.0.1", port=port, security="none",
                        public_url="https://tminus.example")  # fmt: skip


async def people_at_a_turn_based_game(service: GameService, bob_mail: bool = True):
    accounts = Accounts(service.store, service, Limits())
    ada, *_ = await accounts.sign_up("Ada", "correct horse", "ada@example.org", True)
    bob, *_ = await accounts.sign_up(
        "Bob", "correct horse", "bob@example.org" if bob_mail else None, bob_mail
    )
    created = await service.create(
        "four_way", {"players": 2}, seats("person", "person"), clock=TURN
    )
    table = created.table
    TOKENS[table.id] = created.tokens
    for seat, person in enumerate((ada, bob)):
        await accounts.hold(person, table.id, seat, created.tokens[seat])
        await service.join(table, seat, created.tokens[seat])
    return table, created.tokens


async def test_the_person_to_move_is_reminded_once_with_links(tmp_path, inbox):
    box, mail = inbox
    service = await new_service(tmp_path / "games.db")
    table, tokens = await people_at_a_turn_based_game(service)
    to_move = table.state.current_player()
    name = ["Ada", "Bob"][to_move]
    assert await send_reminders(service.store, mail) == 1
    assert await send_reminders(service.store, mail) == 0  # (nothing new, and within the hour)
    [email] = box.messages
    assert email["To"] == f"{name.lower()}@example.org"
    assert email["Subject"] == "Your move in 4-Way CountDown"
    body = email.get_content()
    link = f"https://tminus.example/game/{table.id}#seat={to_move}&token={tokens[to_move]}"
    assert f"Hello {name}," in body and link in body and "24 h left" in body
    unsubscribe = email["List-Unsubscribe"].strip("<>")
    assert unsubscribe in body and email["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    await service.store.close()


async def test_at_most_one_an_hour_and_again_when_the_deadline_nears(tmp_path, inbox):
    box, mail = inbox
    service = await new_service(tmp_path / "games.db")
    await people_at_a_turn_based_game(service)
    assert await send_reminders(service.store, mail) == 1
    service.store.clock.advance(3_600 + 1)  # an hour on: nothing new to say
    assert await send_reminders(service.store, mail) == 0
    service.store.clock.advance(86_400 - 6 * 3_600)  # the deadline is 6 hours away
    assert await send_reminders(service.store, mail) == 1
    assert "left" in box.messages[-1].get_content()
    await service.store.close()


async def test_nobody_is_mailed_who_did_not_allow_it_and_the_link_unsubscribes(tmp_path, inbox):
    box, mail = inbox
    service = await new_service(tmp_path / "games.db")
    table, tokens = await people_at_a_turn_based_game(service, bob_mail=False)
    while (seat := table.state.current_player()) != 0:  # Bob gave no address
        assert await send_reminders(service.store, mail) == 0
        action = table.state.legal_actions()[0]
        await service.move(table, seat, tokens[seat], table.move_number, action)
    assert await send_reminders(service.store, mail) == 1
    token = box.messages[0]["List-Unsubscribe"].strip("<>").rsplit("/", 1)[1]
    assert await service.store.unsubscribe(token) == "Ada"
    assert await service.store.unsubscribe("not-a-link") is None
    service.store.clock.advance(86_400)
    assert await send_reminders(service.store, mail) == 0
    await service.store.close()


async def test_two_processes_send_one_reminder(database, inbox):
    box, mail = inbox
    first = GameService(await Store(database).open())
    second = await Store(database).open()
    await people_at_a_turn_based_game(first)
    sent = await asyncio.gather(*(send_reminders(s, mail) for s in (first.store, second) * 3))
    assert sum(sent) == 1 and len(box.messages) == 1
    await second.close()
    await first.store.close()

"""Ratings (issue 37): a rated game's result moves its accounts' ratings once, by openskill's
Plackett-Luce model, whichever process applies it; bots keep fixed ratings; the leaderboard
and an account's history show it."""

from __future__ import annotations

import asyncio

import pytest

from tminus.server.accounts import Accounts
from tminus.server.app import rate_finished
from tminus.server.limits import Limits
from tminus.server.ratings import Belief, newcomer, rate, shown
from tminus.server.service import GameError, GameService
from tminus.server.storage import FINISHED, Store

from .helpers import TOKENS, join_all, new_service, seats, step, token

pytestmark = pytest.mark.anyio
PASSWORD = "correct horse"


def test_the_winner_rises_and_the_loser_falls_from_a_newcomers_1500():
    ada, bob = rate([newcomer(), newcomer()], [1, 2])
    assert shown(newcomer()) == 1500
    assert shown(ada) > 1500 > shown(bob)
    assert ada.mu > 25 > bob.mu and ada.sigma < newcomer().sigma


def test_a_shared_place_moves_neither_against_the_other_and_a_watcher_is_left_alone():
    tied = rate([newcomer(), newcomer()], [1, 1])
    assert tied[0] == tied[1] and tied[0].mu == pytest.approx(25)
    watched = rate([newcomer(), newcomer(), Belief(30, 2)], [1, 2, None])
    assert watched[2] == Belief(30, 2)
    assert rate([newcomer(), Belief(30, 2)], [1, None]) == [newcomer(), Belief(30, 2)]


def test_beating_a_stronger_player_gains_more():
    weak, strong = Belief(20, 4), Belief(30, 4)
    upset = rate([weak, strong], [1, 2])[0].mu - weak.mu
    expected = rate([strong, weak], [1, 2])[0].mu - strong.mu
    assert upset > expected > 0


async def two_accounts(service: GameService) -> tuple[Accounts, list]:
    accounts = Accounts(service.store, service, Limits())
    people = [(await accounts.sign_up(name, PASSWORD))[0] for name in ("Ada", "Bob")]
    return accounts, people


async def rated_game(service, accounts, people, bot=None):
    kinds = seats("person", "person") if bot is None else seats("person", bot)
    created = await service.create("four_way", {"players": 2}, kinds, rated=True)
    table = created.table
    TOKENS[table.id] = created.tokens
    for seat, person in enumerate(people):
        await accounts.hold(person, table.id, seat, token(table, seat))
    await join_all(service, table)
    return table


async def test_a_rated_game_moves_both_accounts_once_and_fills_the_leaderboard(tmp_path):
    service = await new_service(tmp_path / "games.db")
    accounts, (ada, bob) = await two_accounts(service)
    table = await rated_game(service, accounts, [ada, bob])
    await step(service, table)
    await service.resign(table, 1, token(table, 1))  # Bob gives up: Ada wins
    assert table.status == FINISHED
    store = service.store
    assert await store.games_to_rate() == [table.id]
    assert await rate_finished(store) == 1
    assert await rate_finished(store) == 0 and await store.apply_ratings(table.id) == {}
    board = await store.leaderboard("four_way", 2)
    assert [(s.name, s.games) for s in board] == [("Ada", 1), ("Bob", 1)]
    assert board[0].rating > 1500 > board[1].rating
    [change] = await store.rating_history(ada.id)
    assert (change["place"], change["before"], change["after"]) == (1, 1500, board[0].rating)
    in_play = await rated_game(service, accounts, [bob, ada])  # (unlisted: private)
    profile = await accounts.profile("bob")
    assert [g["id"] for g in profile["games"]] == [table.id] != [in_play.id]
    assert profile["games"][0]["place"] == 2 and profile["ratings"][0]["rating"] < 1500
    await store.close()


async def test_an_unrated_game_moves_no_rating(tmp_path):
    service = await new_service(tmp_path / "games.db")
    accounts, people = await two_accounts(service)
    created = await service.create("four_way", {"players": 2}, seats("person", "person"))
    table = created.table
    for seat, person in enumerate(people):
        await accounts.hold(person, table.id, seat, created.tokens[seat])
        await service.join(table, seat, created.tokens[seat])
    await service.resign(table, 1, created.tokens[1])
    assert await rate_finished(service.store) == 0
    assert await service.store.leaderboard("four_way", 2) == []
    await service.store.close()


async def test_a_bot_keeps_its_fixed_rating(tmp_path, monkeypatch):
    from tminus.server import ratings

    monkeypatch.setattr(ratings, "bot_ratings", lambda: {"four_way": {"greedy": [32.0, 1.0]}})
    service = await new_service(tmp_path / "games.db")
    accounts, (ada, _bob) = await two_accounts(service)
    table = await rated_game(service, accounts, [ada], bot="greedy")
    await service.resign(table, 0, token(table, 0))  # Ada loses to the strong bot
    await rate_finished(service.store)
    [standing] = await service.store.leaderboard("four_way", 2)
    loss_to_strong = 1500 - standing.rating
    # Losing to a newcomer-rated bot costs more than losing to a bot known to be strong.
    weak = rate([newcomer(), newcomer()], [2, 1])[0]
    assert 0 < loss_to_strong < 1500 - shown(weak)
    await service.store.close()


async def test_rated_games_allow_no_hints_nor_take_backs(tmp_path):
    service = await new_service(tmp_path / "games.db")
    for options in ({"hints": True}, {"undo": True}):
        with pytest.raises(GameError, match="no hints and no take-backs"):
            await create_rated(service, **options)
    assert await service.store.ids() == []
    table = (await create_rated(service)).table
    assert table.record.rated and not table.record.undo and not table.record.hints
    await service.store.close()


async def create_rated(service, **options):
    return await service.create(
        "four_way", {"players": 2}, seats("person", "person"), rated=True, **options
    )


async def test_two_processes_apply_a_rated_game_once(database):
    """Two stores on one PostgreSQL race to apply the same game: one does, once."""
    first = GameService(await Store(database).open())
    second = await Store(database).open()
    accounts, (ada, bob) = await two_accounts(first)
    table = await rated_game(first, accounts, [ada, bob])
    await first.resign(table, 0, token(table, 0))
    results = await asyncio.gather(
        *(store.apply_ratings(table.id) for store in (first.store, second) for _ in range(3))
    )
    assert sum(1 for r in results if r) == 1
    assert [s.games for s in await second.leaderboard("four_way", 2)] == [1, 1]
    await second.close()
    await first.store.close()


async def test_an_account_with_ratings_and_puzzle_tries_is_deleted_on_postgresql(database):
    """PostgreSQL enforces every foreign key: nothing of the account may be left behind."""
    service = GameService(await Store(database).open())
    accounts, (ada, bob) = await two_accounts(service)
    table = await rated_game(service, accounts, [ada, bob])
    await service.resign(table, 1, token(table, 1))
    await rate_finished(service.store)
    await service.store.record_try(ada.id, "0123456789ab", True)
    await accounts.delete(ada, PASSWORD)
    assert await service.store.account(ada.id) is None
    assert [s.name for s in await service.store.leaderboard("four_way", 2)] == ["Bob"]
    stored = await service.store.load(table.id, actions=False)
    assert stored.seats[0].name == "Former player"
    await service.store.close()

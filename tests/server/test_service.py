"""The game service: creation, seats, moves and their refusals, resignation, views, replay."""

from __future__ import annotations

import hashlib
import sqlite3

import pytest

from tminus.agents.levels import levels
from tminus.server.service import GameError, catalog
from tminus.server.storage import FINISHED, PLAYING, WAITING

from .helpers import create, join_all, new_service, play_out, seats, step, token

pytestmark = pytest.mark.anyio


@pytest.fixture
async def service(tmp_path):
    service = await new_service(tmp_path / "games.db")
    yield service
    await service.store.close()


async def snapshot(service, table):
    """Everything a refused request must leave alone: memory and the store."""
    stored = await service.store.load(table.id)
    return (table.status, table.state.history(), stored.status, stored.actions)


async def test_create_stores_the_game_and_waits_for_persons(service):
    table = await create(service, "four_way", {"players": 3}, seats("person", "greedy", "random"))
    stored = await service.store.load(table.id)
    assert stored.status == WAITING and stored.actions == []
    assert stored.params == {"players": 3, "variant": "adult", "max_turns": 5000}
    assert stored.rules_version == table.game.rules_version
    assert [s.kind for s in stored.seats] == ["person", "bot", "bot"]
    assert stored.seats[1].token_hash is None and stored.seats[1].bot == "greedy"
    assert len(stored.commitment) == 64 and stored.commitment != stored.seed


async def test_tokens_are_stored_only_as_their_hashes(service, tmp_path):
    table = await create(service, "four_way", {"players": 4}, seats(*["person"] * 4))
    tokens = [token(table, seat) for seat in range(4)]
    assert len(set(tokens)) == 4 and all(len(t) >= 30 for t in tokens)
    stored = await service.store.load(table.id)
    assert [s.token_hash for s in stored.seats] == [
        hashlib.sha256(t.encode()).hexdigest() for t in tokens
    ]
    raw = (tmp_path / "games.db").read_bytes() + (tmp_path / "games.db-wal").read_bytes()
    assert not any(t.encode() in raw for t in tokens)


async def test_the_database_file_is_readable_by_its_owner_only(service, tmp_path):
    await create(service, "four_way", {}, seats("person", "person"))
    for name in ("games.db", "games.db-wal"):
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o600, name


@pytest.mark.parametrize(
    ("game", "params", "kinds", "words"),
    [
        ("chess", {}, ("person", "person"), "unknown game 'chess'"),
        ("four_way", {"players": 7}, ("person",) * 7, "must be one of 2, 3, 4"),
        ("four_way", {"colour": "red"}, ("person", "person"), "unknown parameter 'colour'"),
        ("four_way", {"players": 3}, ("person", "person"), "has 3 seats; 2 were given"),
        ("four_way", {}, ("person", "mcts:simulations=99999999"), "Player 2: no bot"),
        ("four_way", {}, ("person", "genius"), "no bot 'genius'"),
        (
            "count_down",
            {"players": 2, "board": "/etc/passwd"},
            ("person", "greedy"),
            "names a file on the server",
        ),
    ],
)
async def test_bad_creation_is_refused_and_stores_nothing(service, game, params, kinds, words):
    with pytest.raises(GameError, match=words) as info:
        await service.create(game, params, seats(*kinds))
    assert info.value.code == "bad_request"
    assert await service.store.ids() == []


async def test_bots_are_named_by_their_level(service):
    hard = levels("four_way")[2]["spec"]
    kinds = seats("person", hard, hard, "greedy")
    table = await create(service, "four_way", {"players": 4}, kinds)
    names = [s.name for s in table.record.seats]
    assert names == ["Player 1", "Search (hard) 1", "Search (hard) 2", "Greedy (medium)"]


async def test_a_bot_only_game_starts_at_once(service):
    table = await create(service, "four_way", {}, seats("random", "greedy"))
    assert table.status == PLAYING
    assert table.state.current_player() >= 0  # the roll-off was drawn


async def test_the_game_starts_when_every_person_has_joined(service):
    table = await create(service, "four_way", {"players": 3}, seats("person", "person", "greedy"))
    await service.join(table, 0, token(table, 0), "Ada")
    assert table.status == WAITING and table.move_number == 0
    await service.join(table, 1, token(table, 1))
    assert table.status == PLAYING and table.move_number > 0
    assert (await service.store.load(table.id)).seats[0].name == "Ada"


async def test_a_person_may_start_without_the_others(service):
    table = await create(service, "four_way", {}, seats("person", "person"))
    await service.start(table, 1, token(table, 1))
    assert table.status == PLAYING
    with pytest.raises(GameError, match="already started"):
        await service.start(table, 1, token(table, 1))


async def started(service, *kinds, **params):
    table = await create(service, "four_way", params, seats(*kinds))
    await join_all(service, table)
    return table


async def person_to_move(service, table):
    while table.record.seats[table.state.current_player()].kind == "bot":
        await step(service, table)
    return table.state.current_player()


async def test_a_move_is_committed_before_the_call_returns(service):
    table = await started(service, "person", "person")
    seat = table.state.current_player()
    action = table.state.legal_actions()[0]
    before = table.move_number
    await service.move(table, seat, token(table, seat), before, action)
    stored = (await service.store.load(table.id)).actions
    assert stored == table.state.history()
    assert stored[before] == action and len(stored) > before + 1  # and the next roll


async def test_bad_token_is_refused_with_the_seats_name_and_changes_nothing(service):
    table = await started(service, "person", "person")
    seat = table.state.current_player()
    name = table.record.seats[seat].name
    before = await snapshot(service, table)
    for wrong in ("nope", token(table, 1 - seat), "", None, 5):
        with pytest.raises(GameError) as info:
            await service.move(
                table, seat, wrong, table.move_number, table.state.legal_actions()[0]
            )
        assert info.value.code == "forbidden"
        assert info.value.message == f"this invite link is not valid for {name}'s seat"
    assert await snapshot(service, table) == before


async def test_a_bots_seat_cannot_be_played_by_a_person(service):
    table = await started(service, "person", "greedy")
    with pytest.raises(GameError, match="Greedy \\(medium\\) is a bot"):
        await service.move(table, 1, "anything", table.move_number, 0)


async def test_unknown_seat_and_game_are_refused(service):
    table = await started(service, "person", "person")
    before = await snapshot(service, table)
    for seat in (2, -1, "0"):
        with pytest.raises(GameError) as info:
            await service.move(table, seat, token(table, 0), table.move_number, 0)
        assert info.value.code in ("unknown_seat", "bad_request")
    with pytest.raises(GameError, match="no game 'missing'") as info:
        await service.get("missing")
    assert info.value.code == "not_found"
    assert await snapshot(service, table) == before


async def test_out_of_turn_is_refused_naming_whose_turn_it_is(service):
    table = await started(service, "person", "person")
    to_move = table.state.current_player()
    other = 1 - to_move
    before = await snapshot(service, table)
    with pytest.raises(GameError) as info:
        await service.move(table, other, token(table, other), table.move_number, 0)
    assert info.value.code == "not_your_turn"
    assert info.value.message == f"not your turn: it is Player {to_move + 1}'s turn"
    assert await snapshot(service, table) == before


async def test_a_stale_move_number_is_refused_and_changes_nothing(service):
    table = await started(service, "person", "person")
    seat = table.state.current_player()
    action = table.state.legal_actions()[0]
    before = await snapshot(service, table)
    for number in (table.move_number - 1, table.move_number + 1, 0):
        with pytest.raises(GameError, match="stale move") as info:
            await service.move(table, seat, token(table, seat), number, action)
        assert info.value.code == "stale"
    with pytest.raises(GameError, match="move_number must be an integer"):
        await service.move(table, seat, token(table, seat), "3", action)
    assert await snapshot(service, table) == before


async def test_a_move_made_before_the_game_ended_is_stale_and_one_made_after_is_refused(service):
    """Two processes raced for a game's last move, and the one that lost heard of the end
    before its own move: the move was made for a position the game has left (stale), not
    one sent to a game over (bad_state)."""
    table = await started(service, "person", "person")
    await play_out(service, table)
    assert table.status == FINISHED
    for number, code in ((table.move_number - 1, "stale"), (table.move_number, "bad_state")):
        with pytest.raises(GameError) as info:
            await service.move(table, 0, token(table, 0), number, 0)
        assert info.value.code == code, number


async def test_an_illegal_move_is_refused_with_the_legal_ones(service):
    table = await started(service, "person", "person")
    seat = table.state.current_player()
    legal = table.state.legal_actions()
    illegal = next(a for a in range(31) if a not in legal)
    names = [s.name for s in table.record.seats]
    before = await snapshot(service, table)
    for action in (illegal, 99, -1, "flip 3", 1.0, True):
        with pytest.raises(GameError, match="illegal move") as info:
            await service.move(table, seat, token(table, seat), table.move_number, action)
        assert info.value.code == "illegal"
        assert table.state.move_label(legal[0], names) in info.value.message
    assert await snapshot(service, table) == before


async def test_the_seat_to_move_gets_each_legal_move_in_words_and_as_data(service):
    table = await started(service, "person", "person")
    seat = table.state.current_player()
    legal = service.view(table, seat, 0)["legal"]
    assert [m["action"] for m in legal] == table.state.legal_actions()
    for move in legal:
        assert move["struct"] == table.state.action_to_struct(move["action"])
        assert table.state.struct_to_action(move["struct"]) == move["action"]
    assert service.view(table, 1 - seat, 0)["legal"] == []  # not its turn


async def test_no_moves_before_the_start_or_after_the_end(service):
    table = await create(service, "four_way", {}, seats("person", "person"))
    with pytest.raises(GameError, match="not started"):
        await service.move(table, 0, token(table, 0), 0, 0)
    await service.start(table, 0, token(table, 0))
    await play_out(service, table)
    assert table.status == FINISHED
    with pytest.raises(GameError, match="ended"):
        await service.move(table, 0, token(table, 0), table.move_number, 0)


async def test_a_bot_move_for_an_old_position_is_dropped(service):
    table = await started(service, "person", "greedy")
    seat = await person_to_move(service, table)
    assert not await service.bot_move(table, 1 - seat, table.move_number, 0)  # not its turn
    await step(service, table)
    if table.state.current_player() == 1:
        assert not await service.bot_move(table, 1, table.move_number - 1, 0)


async def test_a_bots_note_is_said_in_the_log_and_kept(service, tmp_path):
    table = await started(service, "person", "random")
    await person_to_move(service, table)
    await step(service, table)
    while table.state.current_player() != 1 and table.status == PLAYING:
        await step(service, table)
    note = "Random (easy) ran out of time and played a random move."
    assert await service.bot_move(table, 1, table.move_number, table.state.legal_actions()[0], note)
    entry = next(e for e in service.view(table, 0)["log"] if e["actor"] == 1 and note in e["text"])
    assert entry["text"].startswith(note + " Random (easy)")
    again = await new_service(tmp_path / "games.db")
    rebuilt = await again.get(table.id)
    assert service.view(rebuilt, None)["log"] == service.view(table, None)["log"]


async def bot_to_move(service, table, seat=1):
    while table.state.current_player() != seat and table.status == PLAYING:
        await step(service, table)


async def test_a_bots_estimate_goes_with_its_log_line_and_is_kept(service, tmp_path):
    table = await started(service, "person", "random")
    await bot_to_move(service, table)
    move = table.state.legal_actions()[0]
    assert await service.bot_move(table, 1, table.move_number, move, None, 0.6254)
    lines = [e for e in service.view(table, 0)["log"] if e.get("estimate") is not None]
    assert [(e["actor"], e["estimate"]) for e in lines] == [(1, 0.625)]
    again = await new_service(tmp_path / "games.db")
    rebuilt = await again.get(table.id)
    assert service.view(rebuilt, None)["log"] == service.view(table, None)["log"]


async def test_a_database_from_before_estimates_is_brought_up_to_date(service, tmp_path):
    table = await started(service, "person", "random")
    await step(service, table)
    await service.store.close()
    with sqlite3.connect(tmp_path / "games.db") as db:  # as an older T-minus made it
        db.execute("ALTER TABLE actions DROP COLUMN estimate")
        db.execute("DROP TABLE alembic_version")  # (made before migrations)
    again = await new_service(tmp_path / "games.db")
    table = await again.get(table.id)
    assert all(entry.estimate is None for entry in table.log)
    await bot_to_move(again, table)
    assert await again.bot_move(table, 1, table.move_number, table.state.legal_actions()[0],
                                None, 0.5)  # fmt: skip
    await again.store.close()
    rebuilt = await (await new_service(tmp_path / "games.db")).get(table.id)
    assert 0.5 in [entry.estimate for entry in rebuilt.log]


async def test_a_bots_estimate_is_dropped_where_cards_are_hidden(service, tmp_path):
    # Its chance to win would tell what it holds.
    table = await create(service, "three_two_one", {"players": 2}, seats("person", "random"))
    await join_all(service, table)
    await bot_to_move(service, table)
    move = table.state.legal_actions()[0]
    assert await service.bot_move(table, 1, table.move_number, move, None, 0.9)
    assert all(
        "estimate" not in e for seat in (0, 1, None) for e in service.view(table, seat)["log"]
    )
    again = await new_service(tmp_path / "games.db")
    rebuilt = await again.get(table.id)
    assert all(e.estimate is None for e in rebuilt.log)
    await again.store.close()  # (left open, its thread outlives the test's event loop)


async def test_a_finished_game_records_its_result_and_reveals_the_seed(service):
    table = await started(service, "greedy", "person", players=2)
    await play_out(service, table)
    stored = await service.store.load(table.id)
    assert stored.status == FINISHED
    returns = table.state.returns()
    assert stored.result["returns"] == returns
    assert stored.result["winners"] == [s for s, r in enumerate(returns) if r == max(returns)]
    view = service.view(table, 0)
    assert view["seed"] == stored.seed and view["legal"] == [] and view["to_move"] is None


async def test_resigning_ends_the_game_and_the_others_win(service):
    table = await started(service, "person", "person", "greedy", players=3)
    await service.resign(table, 1, token(table, 1))
    assert table.status == FINISHED
    assert table.record.result == {
        "reason": "resigned",
        "resigned": 1,
        "winners": [0, 2],
        "placings": [1, 3, 1],
    }
    assert (await service.store.load(table.id)).result == table.record.result
    with pytest.raises(GameError, match="already over"):
        await service.resign(table, 0, token(table, 0))
    with pytest.raises(GameError, match="not valid"):
        await service.resign(table, 0, "forged")


async def test_views_hide_the_seed_and_tokens_until_the_end(service):
    table = await started(service, "person", "person")
    for seat in (0, 1, None):
        text = repr(service.view(table, seat)) + repr(service.summary(table))
        text += repr(service.export(table))
        assert table.record.seed not in text
        for s in table.record.seats:
            assert token(table, s.seat) not in text and s.token_hash not in text


async def test_a_seat_sees_its_legal_moves_only_on_its_turn(service):
    table = await started(service, "person", "person")
    seat = table.state.current_player()
    mine = service.view(table, seat)
    assert [m["action"] for m in mine["legal"]] == table.state.legal_actions()
    assert all(m["text"] == table.state.action_to_string(m["action"]) for m in mine["legal"])
    assert service.view(table, 1 - seat)["legal"] == []
    assert service.view(table, None)["legal"] == []
    assert service.view(table, None)["observation"] == table.state.public_observation()
    assert service.view(table, seat)["observation"] == table.state.observation(seat)


async def test_the_log_is_sent_from_where_the_socket_left_off(service):
    table = await started(service, "person", "person")
    full = service.view(table, 0)["log"]
    assert [e["index"] for e in full] == list(range(table.move_number))
    tail = service.view(table, 0, log_from=2)["log"]
    assert tail == full[2:]


async def test_a_rebuilt_game_is_the_same_game(service, tmp_path):
    table = await started(service, "person", "greedy", "random", players=3)
    for _ in range(15):
        await step(service, table)
    again = await new_service(tmp_path / "games.db")
    rebuilt = await again.get(table.id)
    assert rebuilt.state.history() == table.state.history()
    assert str(rebuilt.state) == str(table.state)
    assert rebuilt.status == PLAYING
    assert [e.seen for e in rebuilt.log] == [e.seen for e in table.log]
    await play_out(again, rebuilt)
    assert (await again.store.load(table.id)).status == FINISHED


async def test_resume_rebuilds_the_games_in_play_only(service, tmp_path):
    """Waiting and finished games stay in the store until someone asks for them."""
    playing = await started(service, "person", "greedy")
    waiting = await create(service, "four_way", {}, seats("person", "person"))
    done = await started(service, "person", "person")
    await service.resign(done, 0, token(done, 0))
    again = await new_service(tmp_path / "games.db")
    resumed, broken = await again.resume()
    assert [t.id for t in resumed] == [playing.id] and broken == {}
    assert set(again.tables) == {playing.id}
    assert (await again.get(waiting.id)).status == WAITING  # rebuilt when asked for


async def test_a_game_that_no_longer_replays_is_marked_broken_and_the_others_resume(
    service, tmp_path
):
    healthy = await started(service, "person", "greedy")
    other = await started(service, "greedy", "person")
    doomed = await started(service, "person", "person")
    for _ in range(4):
        await step(service, doomed)
    await service.store.close()
    # A rule changed: the log's 4th action is no longer legal where it stands.
    with sqlite3.connect(tmp_path / "games.db") as db:
        db.execute('UPDATE actions SET action = 99 WHERE game_id = ? AND "index" = 3', (doomed.id,))
    again = await new_service(tmp_path / "games.db")
    resumed, broken = await again.resume()
    assert {t.id for t in resumed} == {healthy.id, other.id}
    assert list(broken) == [doomed.id]
    assert "does not replay under the rules installed now" in broken[doomed.id]
    assert "action 99" in broken[doomed.id]
    record = await again.store.load(doomed.id)
    assert record.status == "broken" and record.problem == broken[doomed.id]
    with pytest.raises(GameError) as info:
        await again.get(doomed.id)
    assert info.value.code == "broken" and "cannot go on" in info.value.message
    export = await again.export_broken(doomed.id)
    assert export["status"] == "broken" and export["problem"] == broken[doomed.id]
    assert [a["action"] for a in export["actions"]][3] == 99
    assert export["rules_version"] == doomed.game.rules_version and export["seed"]
    summary = (await again.recent(10))[0]
    assert {s["id"]: s["status"] for s in await again.recent(10)}[doomed.id] == "broken"
    assert summary["rules_version"] == doomed.game.rules_version


async def test_idle_games_leave_memory_and_come_back_from_the_store(tmp_path):
    service = await new_service(tmp_path / "games.db", cache_size=4)
    tables = [await create(service, "sputnik", {"radius": 8}, seats("person", "person"))
              for _ in range(12)]  # fmt: skip
    pinned = tables[0]
    service.pin(pinned)
    for table in tables[1:]:
        await service.join(table, 0, token(table, 0))
    assert len(service.tables) <= 4 + 1 and pinned.id in service.tables
    again = await service.get(tables[1].id)
    assert again.record.seats[0].joined and again.id in service.tables
    service.unpin(pinned)
    assert len(service.tables) <= 4
    await service.store.close()


async def test_a_claim_lost_to_another_writer_is_stale_and_nothing_changes(service, tmp_path):
    """Two copies of one game (two processes): the store lets only one move at a place."""
    mine = await started(service, "person", "person")
    theirs = await (await new_service(tmp_path / "games.db")).get(mine.id)
    seat = mine.state.current_player()
    legal = mine.state.legal_actions()
    await service.move(theirs, seat, token(mine, seat), theirs.move_number, legal[0])
    before = mine.state.history()
    with pytest.raises(GameError) as info:
        await service.move(mine, seat, token(mine, seat), len(before), legal[-1])
    assert info.value.code == "stale"
    # Memory never ran ahead of the store: the copy is brought up to it, without the loser.
    stored = await service.store.load(mine.id)
    assert mine.state.history() == theirs.state.history() == stored.actions != before
    assert stored.actions[len(before)] == legal[0]  # theirs, not mine
    assert await service.get(mine.id) is mine


async def test_a_locked_store_is_a_clear_retryable_error_and_changes_nothing(tmp_path):
    service = await new_service(tmp_path / "games.db")
    service.store.busy_timeout = 0.1
    await service.store.close()
    await service.store.open()
    table = await started(service, "person", "person")
    seat = table.state.current_player()
    before = table.state.history()
    with sqlite3.connect(tmp_path / "games.db") as db:
        db.execute("BEGIN EXCLUSIVE")
        with pytest.raises(GameError) as info:
            await service.move(
                table, seat, token(table, seat), table.move_number, table.state.legal_actions()[0]
            )
        assert info.value.code == "unavailable"
        assert "database is locked" in info.value.message and "try again" in info.value.message
        assert table.state.history() == before
        with pytest.raises(GameError, match="try again"):
            await service.create("four_way", {}, seats("person", "person"))
    await service.move(
        table, seat, token(table, seat), table.move_number, table.state.legal_actions()[0]
    )
    assert len((await service.store.load(table.id)).actions) > len(before)
    await service.store.close()


async def test_replay_shows_every_step_once_the_game_is_over(service):
    table = await started(service, "person", "greedy")
    with pytest.raises(GameError, match="once the game is over"):
        service.replay_frames(table)
    await play_out(service, table)
    frames = list(service.replay_frames(table))
    assert len(frames) == table.move_number + 1
    assert frames[-1]["public"] == table.state.public_observation()
    names = [seat.name for seat in table.record.seats]
    state = table.game.new_initial_state()
    for frame, action in zip(frames[1:], table.state.history(), strict=True):
        assert frame["text"] == state.narrate(action, names, reveal=True)
        state.apply_action(action)
    assert list(service.replay_frames(table, 5, 9)) == frames[5:9]


async def test_the_catalog_lists_games_parameters_and_bots():
    games = {g["name"]: g for g in catalog()}
    four_way = games["four_way"]
    assert four_way["params"]["players"]["choices"] == [2, 3, 4]
    specs = [b["spec"] for b in four_way["bots"]]
    assert specs == [level["spec"] for level in levels("four_way")]
    assert specs[0] == "random" and "greedy" in specs and "solver" in specs
    assert four_way["rules_version"] >= 1
    # The expert depends on the count of players: the exact solver plays duels only.
    by_players = {n: [b["spec"] for b in bots] for n, bots in four_way["bots_by_players"].items()}
    assert sorted(by_players) == [2, 3, 4]
    assert by_players[2][-1] == "solver"
    assert "solver" not in by_players[3] and "solver" not in by_players[4]
    assert by_players[3] == [level["spec"] for level in levels("four_way", 3)]


async def test_a_game_offers_the_levels_of_its_count_of_players(tmp_path):
    """A three-player 4-Way game takes the three-player expert and refuses the duel solver
    (it would fail at its first move); a duel takes the solver."""
    service = await new_service(tmp_path / "games.db")
    expert3 = levels("four_way", 3)[-1]["spec"]
    table = await create(service, "four_way", {"players": 3}, seats("person", expert3, "greedy"))
    assert table.record.seats[1].bot == expert3
    with pytest.raises(GameError) as refused:
        await create(service, "four_way", {"players": 3}, seats("person", "solver", "greedy"))
    assert refused.value.code == "bad_request" and "solver" in refused.value.message
    duel = await create(service, "four_way", {"players": 2}, seats("person", "solver"))
    assert duel.record.seats[1].bot == "solver"
    await service.store.close()


async def test_a_perfect_information_game_narrates_each_action_once(tmp_path, monkeypatch):
    """Nothing is hidden: one sentence serves every seat (no narration per viewer)."""
    service = await new_service(tmp_path / "games.db")
    table = await create(service, "four_way", {}, seats("person", "person"))
    calls = []
    state_class, narrate = type(table.state), type(table.state).narrate
    monkeypatch.setattr(state_class, "narrate", lambda *a, **k: calls.append(1) or narrate(*a, **k))
    await join_all(service, table)
    for _ in range(4):
        await step(service, table)
    assert len(calls) == len(table.log) > 4
    assert all(entry.seen == [entry.text] * 3 for entry in table.log)
    await service.store.close()

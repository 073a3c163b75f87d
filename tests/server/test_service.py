"""The game service: creation, seats, moves and their refusals, resignation, views, replay."""

from __future__ import annotations

import pytest

from tminus.server.service import GameError, catalog
from tminus.server.storage import FINISHED, PLAYING, WAITING

from .helpers import join_all, new_service, play_out, seats, step, token


@pytest.fixture
def service(tmp_path):
    return new_service(tmp_path / "games.db")


def snapshot(service, table):
    """Everything a refused request must leave alone: memory and the store."""
    stored = service.store.load(table.id)
    return (table.status, table.state.history(), stored.status, stored.actions)


def test_create_stores_the_game_and_waits_for_persons(service):
    table = service.create("four_way", {"players": 3}, seats("person", "greedy", "random"))
    stored = service.store.load(table.id)
    assert stored.status == WAITING and stored.actions == []
    assert stored.params == {"players": 3, "variant": "adult", "max_turns": 5000}
    assert [s.kind for s in stored.seats] == ["person", "bot", "bot"]
    assert stored.seats[0].token and len(stored.seats[0].token) >= 30
    assert stored.seats[1].token is None and stored.seats[1].bot == "greedy"
    assert len(stored.commitment) == 64 and stored.commitment != stored.seed


def test_every_person_gets_a_different_token(service):
    table = service.create("four_way", {"players": 4}, seats(*["person"] * 4))
    tokens = {s.token for s in table.record.seats}
    assert len(tokens) == 4


@pytest.mark.parametrize(
    ("game", "params", "kinds", "words"),
    [
        ("chess", {}, ("person", "person"), "unknown game 'chess'"),
        ("four_way", {"players": 7}, ("person",) * 7, "must be one of 2, 3, 4"),
        ("four_way", {"colour": "red"}, ("person", "person"), "unknown parameter 'colour'"),
        ("four_way", {"players": 3}, ("person", "person"), "has 3 seats; 2 were given"),
        ("four_way", {}, ("person", "mcts:simulations=99999999"), "no bot"),
        ("four_way", {}, ("person", "genius"), "no bot 'genius'"),
        (
            "count_down",
            {"players": 2, "board": "/etc/passwd"},
            ("person", "greedy"),
            "names a file on the server",
        ),
    ],
)
def test_bad_creation_is_refused_and_stores_nothing(service, game, params, kinds, words):
    with pytest.raises(GameError, match=words) as info:
        service.create(game, params, seats(*kinds))
    assert info.value.code == "bad_request"
    assert service.store.ids() == []


def test_a_bot_only_game_starts_at_once(service):
    table = service.create("four_way", {}, seats("random", "greedy"))
    assert table.status == PLAYING
    assert table.state.current_player() >= 0  # the roll-off was drawn


def test_the_game_starts_when_every_person_has_joined(service):
    table = service.create("four_way", {"players": 3}, seats("person", "person", "greedy"))
    service.join(table, 0, token(table, 0), "Ada")
    assert table.status == WAITING and table.move_number == 0
    service.join(table, 1, token(table, 1))
    assert table.status == PLAYING and table.move_number > 0
    assert service.store.load(table.id).seats[0].name == "Ada"


def test_a_person_may_start_without_the_others(service):
    table = service.create("four_way", {}, seats("person", "person"))
    service.start(table, 1, token(table, 1))
    assert table.status == PLAYING
    with pytest.raises(GameError, match="already started"):
        service.start(table, 1, token(table, 1))


def started(service, *kinds, **params):
    table = service.create("four_way", params, seats(*kinds))
    join_all(service, table)
    return table


def person_to_move(service, table):
    while table.state.current_player() in table.bots:
        step(service, table)
    return table.state.current_player()


def test_a_move_is_committed_before_the_call_returns(service):
    table = started(service, "person", "person")
    seat = table.state.current_player()
    action = table.state.legal_actions()[0]
    before = table.move_number
    service.move(table, seat, token(table, seat), before, action)
    stored = service.store.load(table.id).actions
    assert stored == table.state.history()
    assert stored[before] == action and len(stored) > before + 1  # and the next roll


def test_bad_token_is_refused_and_changes_nothing(service):
    table = started(service, "person", "person")
    seat = table.state.current_player()
    before = snapshot(service, table)
    for wrong in ("nope", token(table, 1 - seat), "", None, 5):
        with pytest.raises(GameError, match="wrong token") as info:
            service.move(table, seat, wrong, table.move_number, table.state.legal_actions()[0])
        assert info.value.code == "forbidden"
    assert snapshot(service, table) == before


def test_a_bots_seat_cannot_be_played_by_a_person(service):
    table = started(service, "person", "greedy")
    with pytest.raises(GameError, match="played by a bot"):
        service.move(table, 1, "anything", table.move_number, 0)


def test_unknown_seat_and_game_are_refused(service):
    table = started(service, "person", "person")
    before = snapshot(service, table)
    for seat in (2, -1, "0"):
        with pytest.raises(GameError) as info:
            service.move(table, seat, token(table, 0), table.move_number, 0)
        assert info.value.code in ("unknown_seat", "bad_request")
    with pytest.raises(GameError, match="no game 'missing'") as info:
        service.get("missing")
    assert info.value.code == "not_found"
    assert snapshot(service, table) == before


def test_out_of_turn_is_refused_and_changes_nothing(service):
    table = started(service, "person", "person")
    other = 1 - table.state.current_player()
    before = snapshot(service, table)
    with pytest.raises(GameError, match="not your turn") as info:
        service.move(table, other, token(table, other), table.move_number, 0)
    assert info.value.code == "not_your_turn"
    assert snapshot(service, table) == before


def test_a_stale_move_number_is_refused_and_changes_nothing(service):
    table = started(service, "person", "person")
    seat = table.state.current_player()
    action = table.state.legal_actions()[0]
    before = snapshot(service, table)
    for number in (table.move_number - 1, table.move_number + 1, 0):
        with pytest.raises(GameError, match="stale move") as info:
            service.move(table, seat, token(table, seat), number, action)
        assert info.value.code == "stale"
    with pytest.raises(GameError, match="move_number must be an integer"):
        service.move(table, seat, token(table, seat), "3", action)
    assert snapshot(service, table) == before


def test_an_illegal_move_is_refused_with_the_legal_ones(service):
    table = started(service, "person", "person")
    seat = table.state.current_player()
    legal = table.state.legal_actions()
    illegal = next(a for a in range(31) if a not in legal)
    before = snapshot(service, table)
    for action in (illegal, 99, -1, "flip 3", 1.0, True):
        with pytest.raises(GameError, match="illegal move") as info:
            service.move(table, seat, token(table, seat), table.move_number, action)
        assert info.value.code == "illegal"
        assert table.state.action_to_string(legal[0]) in info.value.message
    assert snapshot(service, table) == before


def test_no_moves_before_the_start_or_after_the_end(service):
    table = service.create("four_way", {}, seats("person", "person"))
    with pytest.raises(GameError, match="not started"):
        service.move(table, 0, token(table, 0), 0, 0)
    service.start(table, 0, token(table, 0))
    play_out(service, table)
    assert table.status == FINISHED
    with pytest.raises(GameError, match="ended"):
        service.move(table, 0, token(table, 0), table.move_number, 0)


def test_a_bot_move_for_an_old_position_is_dropped(service):
    table = started(service, "person", "greedy")
    seat = person_to_move(service, table)
    assert not service.bot_move(table, 1 - seat, table.move_number, 0)  # not the bot's turn
    step(service, table)
    bot = table.state.current_player()
    if bot == 1:
        assert not service.bot_move(table, bot, table.move_number - 1, 0)


def test_a_finished_game_records_its_result_and_reveals_the_seed(service):
    table = started(service, "greedy", "person", players=2)
    play_out(service, table)
    stored = service.store.load(table.id)
    assert stored.status == FINISHED
    returns = table.state.returns()
    assert stored.result["returns"] == returns
    assert stored.result["winners"] == [s for s, r in enumerate(returns) if r == max(returns)]
    view = service.view(table, 0)
    assert view["seed"] == stored.seed and view["legal"] == [] and view["to_move"] is None


def test_resigning_ends_the_game_and_the_others_win(service):
    table = started(service, "person", "person", "greedy", players=3)
    service.resign(table, 1, token(table, 1))
    assert table.status == FINISHED
    assert table.record.result == {"reason": "resigned", "resigned": 1, "winners": [0, 2]}
    assert service.store.load(table.id).result == table.record.result
    with pytest.raises(GameError, match="already over"):
        service.resign(table, 0, token(table, 0))
    with pytest.raises(GameError, match="wrong token"):
        service.resign(table, 0, "forged")


def test_views_hide_the_seed_and_tokens_until_the_end(service):
    table = started(service, "person", "person")
    for seat in (0, 1, None):
        text = repr(service.view(table, seat)) + repr(service.summary(table))
        text += repr(service.export(table))
        assert table.record.seed not in text
        for s in table.record.seats:
            assert s.token not in text


def test_a_seat_sees_its_legal_moves_only_on_its_turn(service):
    table = started(service, "person", "person")
    seat = table.state.current_player()
    mine = service.view(table, seat)
    assert [m["action"] for m in mine["legal"]] == table.state.legal_actions()
    assert all(m["text"] == table.state.action_to_string(m["action"]) for m in mine["legal"])
    assert service.view(table, 1 - seat)["legal"] == []
    assert service.view(table, None)["legal"] == []
    assert service.view(table, None)["observation"] == table.state.public_observation()
    assert service.view(table, seat)["observation"] == table.state.observation(seat)


def test_the_log_is_sent_from_where_the_socket_left_off(service):
    table = started(service, "person", "person")
    full = service.view(table, 0)["log"]
    assert [e["index"] for e in full] == list(range(table.move_number))
    tail = service.view(table, 0, log_from=2)["log"]
    assert tail == full[2:]


def test_a_rebuilt_game_is_the_same_game(service, tmp_path):
    table = started(service, "person", "greedy", "random", players=3)
    for _ in range(15):
        step(service, table)
    again = new_service(tmp_path / "games.db")
    rebuilt = again.get(table.id)
    assert rebuilt.state.history() == table.state.history()
    assert str(rebuilt.state) == str(table.state)
    assert rebuilt.status == PLAYING
    assert [e.seen for e in rebuilt.log] == [e.seen for e in table.log]
    play_out(again, rebuilt)
    assert again.store.load(table.id).status == FINISHED


def test_resume_all_rebuilds_every_unfinished_game(service, tmp_path):
    playing = started(service, "person", "greedy")
    waiting = service.create("four_way", {}, seats("person", "person"))
    done = started(service, "person", "person")
    service.resign(done, 0, token(done, 0))
    again = new_service(tmp_path / "games.db")
    resumed = {t.id for t in again.resume_all()}
    assert resumed == {playing.id, waiting.id}


def test_replay_shows_every_step_once_the_game_is_over(service):
    table = started(service, "person", "greedy")
    with pytest.raises(GameError, match="once the game is over"):
        service.replay(table)
    play_out(service, table)
    replay = service.replay(table)
    frames = replay["frames"]
    assert len(frames) == table.move_number + 1
    assert frames[-1]["public"] == table.state.public_observation()
    names = [seat.name for seat in table.record.seats]
    state = table.game.new_initial_state()
    for frame, action in zip(frames[1:], table.state.history(), strict=True):
        assert frame["text"] == state.narrate(action, names, reveal=True)
        state.apply_action(action)


def test_the_catalog_lists_games_parameters_and_bots():
    games = {g["name"]: g for g in catalog()}
    four_way = games["four_way"]
    assert four_way["params"]["players"]["choices"] == [2, 3, 4]
    specs = [b["spec"] for b in four_way["bots"]]
    assert specs[0] == "random" and "greedy" in specs and "mcts:simulations=100" in specs


def test_a_failed_commit_leaves_memory_no_further_than_the_store(service, monkeypatch):
    table = started(service, "person", "person")
    seat = table.state.current_player()
    before = table.state.history()

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(service.store, "save", broken)
    with pytest.raises(OSError):
        service.move(
            table, seat, token(table, seat), table.move_number, table.state.legal_actions()[0]
        )
    monkeypatch.undo()
    rebuilt = service.get(table.id)
    assert rebuilt is not table and rebuilt.state.history() == before

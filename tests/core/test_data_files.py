"""The games' data files (3-2-1's deck.json, Sputnik's setup.json; Count Down's board.toml
is tested in tests/count_down) are checked by a schema: a malformed file is refused with
its entry and problem named, and no file carries words (comments) among its data."""

import json
from importlib.resources import files

import pytest

from tminus.games.data_files import parse_json, validated
from tminus.games.sputnik.board import SetupFile, setup_data
from tminus.games.three_two_one import rules
from tminus.games.three_two_one.deck import DeckFile, load_deck


def shipped(package: str, name: str) -> dict:
    return json.loads(files(package).joinpath(name).read_text(encoding="utf-8"))


def refused(model, package: str, name: str, what: str, change) -> str:
    """The message that refuses the shipped file ``name`` once ``change`` has spoilt it."""
    data = shipped(package, name)
    change(data)
    with pytest.raises(ValueError) as error:
        validated(model, data, f"{what} ({name})")
    return str(error.value)


def deck_refused(change) -> str:
    return refused(
        DeckFile, "tminus.games.three_two_one", "deck.json", "3-2-1 Countdown deck", change
    )


def setup_refused(change) -> str:
    return refused(SetupFile, "tminus.games.sputnik", "setup.json", "Sputnik setup", change)


def test_the_shipped_files_load_as_the_games_use_them():
    assert load_deck() == (rules.DECK, rules.HAND_SIZES)
    assert sum(rules.DECK) == 110 and rules.HAND_SIZES[7] == 10
    assert setup_data().corners_in_play[3] == [0, 2, 4] and setup_data().colours[0] == "red"


def test_a_comment_in_the_data_is_refused():
    message = deck_refused(lambda d: d.update(_comment="the deck"))
    assert message.startswith("bad 3-2-1 Countdown deck (deck.json): _comment: Extra inputs")
    assert "about: Extra inputs" in setup_refused(lambda d: d.update(about="the setup"))


def test_a_bad_deck_names_the_entry_and_the_problem():
    assert "cards.3: Input should be greater than or equal to 0" in deck_refused(
        lambda d: d["cards"].update({"3": -1})
    )
    assert "cards: one entry for each card value 0 to 10" in deck_refused(
        lambda d: d["cards"].pop("10")
    )
    assert "hand_size: one entry for each player count from 2 up" in deck_refused(
        lambda d: d["hand_size"].pop("5")
    )
    assert "hand_size.8: 8 hands of 14 take all 110" in deck_refused(
        lambda d: d["hand_size"].update({"8": 14})
    )
    assert "hand_size.x.[key]" in deck_refused(lambda d: d["hand_size"].update({"x": 3}))


def test_a_bad_setup_names_the_entry_and_the_problem():
    assert "corners_in_play.3: 3 corners, clockwise, none twice" in setup_refused(
        lambda d: d["corners_in_play"].update({"3": [0, 4, 2]})
    )
    assert "corners_in_play.2[1]: Input should be less than or equal to 5" in setup_refused(
        lambda d: d["corners_in_play"].update({"2": [0, 7]})
    )
    assert "corners_in_play: one entry for each number of bases 2 to 6" in setup_refused(
        lambda d: d["corners_in_play"].pop("6")
    )
    assert "colours: six different colours" in setup_refused(
        lambda d: d.update(colours=["red"] * 6)
    )


def test_a_file_that_is_not_json_is_refused():
    with pytest.raises(ValueError, match=r"^bad Sputnik setup \(x.json\): not valid JSON"):
        parse_json(SetupFile, '{"colours": [', "Sputnik setup (x.json)")

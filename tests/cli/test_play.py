"""`tminus play`: the terminal table as a person meets it, fed with typed input."""

import re

from typer.testing import CliRunner

from tminus.cli import app

runner = CliRunner()


def play(*args, input):
    return runner.invoke(app, ["play", *args], input=input)


def first_moves(*args):
    """The moves listed at the person's first decision (number, label)."""
    output = play(*args, input="q\n").output
    listing = output[: output.index("your move>")].splitlines()
    return re.findall(r"(\d+) (\S.*?)(?=\s{2,}\d+ |\s*$)", "\n".join(listing[-6:]))


def test_a_forced_move_plays_itself_without_taking_an_answer():
    # Seed 1: after three choices the person rolls two 1s, with keys 1 and 2 already up.
    result = play("four_way", "--seed", "1", input="1\n1\n1\nq\n")
    assert result.exit_code == 0, result.output
    out = result.output
    notice = out.index("Only one move for you: Pass. It plays itself.")
    assert out.index("Player 1 has no key to flip and passes") > notice
    assert out.count("your move>") == 4  # the pass asked nothing; the fourth answer is q
    assert out.rstrip().endswith("Game left.")


def test_moves_are_typed_in_any_case_as_words_or_program_names():
    moves = first_moves("four_way", "--seed", "1")
    number, label = moves[0]
    assert label.startswith("Flip ")
    by_words = play("four_way", "--seed", "1", input=f"{label.upper()}\nq\n").output
    key = label.split()[1]
    assert f"Player 1 flips {key} " in by_words
    by_program = play("four_way", "--seed", "1", input=f"  FLIP   {key}\nq\n").output
    assert f"Player 1 flips {key} " in by_program
    by_number = play("four_way", "--seed", "1", input=f"{number}\nq\n").output
    assert f"Player 1 flips {key} " in by_number


def test_ctrl_d_leaves_the_game_cleanly():
    result = play("four_way", "--seed", "1", input="")  # end of input at the first prompt
    assert result.exit_code == 0 and "Game left." in result.output
    assert "Traceback" not in result.output
    result = play("three_two_one", "--players", "2", "--seed", "2", input="1\n2\n")
    assert result.exit_code == 0 and result.output.rstrip().endswith("Game left.")


def test_long_move_lists_come_a_page_at_a_time_and_a_word_finds_moves():
    # Sputnik: after the move, 31 galaxies can be taken.
    result = play("sputnik", "--seed", "3", input="move d2\n+\nd4\nq\n")
    out = result.output
    first, more = out.split("your move>")[1:3]
    assert "moves 1–24 of 31" in first and " 24 Remove" in first and " 25 " not in first
    assert " 25 Remove" in more and "moves 25–31 of 31" in more
    found = out.split("your move>")[3]
    assert "Moves with 'd4':" in found and re.search(r"\d+ Remove the galaxy on d4", found)
    # In columns: 24 moves take fewer lines than moves.
    listing = [line for line in first.splitlines() if "Remove the galaxy" in line]
    assert len(listing) < 24


def test_the_log_calls_everyone_by_name():
    result = play("four_way", "--players", "3", "--bots", "greedy,random", "--seed", "4",
                  "--name", "[b]Zoë", input="1\n" * 400)  # fmt: skip
    out = result.output
    assert result.exit_code == 0, out
    assert "[b]Zoë rolls" in out and "Bot 2 rolls" in out and "Bot 3 rolls" in out
    assert "[b]Zoë (seat 1 of 3)" in out and "plays random" in out
    assert not re.search(r"\bseat [0-9]\b(?! of)", out)  # no "attack seat 2", "seat 0: ..."
    assert "Winner:" in out or "Draw" in out


def test_a_name_a_bot_already_has_is_refused():
    result = play("four_way", "--name", "Bot 2", input="")
    assert result.exit_code == 2 and "is a bot's name here" in result.output


def test_a_deal_is_folded_in_columns():
    out = play("three_two_one", "--players", "3", "--seed", "4", input="q\n").output
    assert "A card is dealt to Bot 2 ×12" in out and "A card is dealt to Bot 3 ×12" in out
    deal = out[: out.index("╭")]
    assert deal.count("\n") < 20  # 36 cards dealt and two turned up, in a few lines


def test_count_downs_track_has_square_names_and_the_ball_is_explained():
    out = play("count_down", "--seed", "3", input="1\n" * 6 + "q\n").output
    assert "track:" in out and "Launch ramp 1" in out and "Docking with the LEM" in out
    assert "Player 1 is on" in out
    assert re.search(r"rolls \d+ and moves to [A-Z]", out) or re.search(
        r"rolls 1[0-2]: forward to .* or back to ", out
    )
    assert "ball " not in out


def test_with_thoughts_a_searching_bot_says_its_chance_to_win():
    answers = "1\n" * 60 + "q\n"
    told = play("four_way", "--seed", "3", "--bots", "solver", "--thoughts", "--pause", "0",
                input=answers).output  # fmt: skip
    said = re.findall(r"Bot 2 flips .*? — thinks its chance to win is (\d+)%", told)
    assert said and all(0 <= int(p) <= 100 for p in said)
    quiet = play("four_way", "--seed", "3", "--bots", "solver", "--pause", "0",
                 input=answers).output  # fmt: skip
    assert "thinks" not in quiet
    # Where cards are hidden a bot's estimate would tell its hand: nothing is said.
    bot = "ismcts:simulations=5"
    hidden = play("three_two_one", "--players", "2", "--seed", "3", "--bots", bot,
                  "--thoughts", "--pause", "0", input="1\n" * 10 + "q\n").output  # fmt: skip
    assert "thinks" not in hidden and re.search(r"^  Bot 2 ", hidden, re.M)  # (it moved)

"""Parameter declarations: defaults, validation, clear errors, command-line coercion."""

import pytest

from tminus.core.params import Param, coerce_param, validate_params

DECLARED = {
    "players": Param(2, choices=(2, 3, 4)),
    "mode": Param("a", choices=("a", "b")),
    "cap": Param(10, minimum=1, maximum=100),
}


def test_defaults_fill_in_and_the_mapping_is_frozen():
    params = validate_params("g", DECLARED, {"players": 3})
    assert dict(params) == {"players": 3, "mode": "a", "cap": 10}
    with pytest.raises(TypeError):
        params["cap"] = 5


@pytest.mark.parametrize(
    "given, message",
    [
        ({"players": 5}, r"'players' of g must be one of 2, 3, 4; got 5"),
        ({"players": True}, r"'players' of g must be one of 2, 3, 4; got True"),
        ({"mode": "c"}, r"'mode' of g must be one of 'a', 'b'; got 'c'"),
        ({"cap": 0}, r"'cap' of g must be one of integers from 1 to 100; got 0"),
        ({"cap": "7"}, r"'cap' of g must be an integer"),
        (
            {"colour": 1},
            r"unknown parameter 'colour' for g; its parameters are: cap, mode, players",
        ),
    ],
)
def test_bad_values_are_named_with_what_is_allowed(given, message):
    with pytest.raises(ValueError, match=message):
        validate_params("g", DECLARED, given)


def test_command_line_strings_become_the_parameter_type():
    assert coerce_param(DECLARED["players"], "3") == 3
    assert coerce_param(DECLARED["mode"], "b") == "b"
    assert coerce_param(DECLARED["cap"], "x") == "x"  # left for validation to refuse

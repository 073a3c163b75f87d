"""``python -m tminus.cli ...``: the `tminus` command."""

from tminus.cli import main

main()

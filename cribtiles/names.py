"""Players' names: the one limit and the one check of every name, wherever it comes from (the command
line, a seat, the New game screen, a save, a record, a game of cribbage). Standard library only."""

from __future__ import annotations

#: The longest player name: names are drawn on the table, printed in terminals and come from saved files.
MAX_NAME = 40


def name_problem(name: str) -> str | None:
    r"""Why `name` cannot be a player's name, or None: the one check of every name, wherever it comes
    from (the command line, a seat, the New game screen, a save, a record, a game of cribbage). It
    quotes nothing of the name: a 5 MB name is not echoed, nor an escape that would retitle a terminal.

    >>> name_problem("Zoë"), name_problem("x" * 5_000_000)
    (None, "a player's name is 5,000,000 characters long; names have at most 40")
    >>> name_problem("Ann\x1b]0;PWNED\x07")
    "a player's name may hold only printable characters, not control characters"
    """
    if len(name) > MAX_NAME:
        return f"a player's name is {len(name):,} characters long; names have at most {MAX_NAME}"
    if not name.isprintable():  # an escape or a bell in a name would reach terminals
        return "a player's name may hold only printable characters, not control characters"
    return None

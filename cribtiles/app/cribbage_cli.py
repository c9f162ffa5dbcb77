"""`cribtiles cribbage score|peg`: classic cribbage's show and play scorers on the command line.

    cribtiles cribbage score "5H 5D 5S JC" --starter 5C     the show's breakdown, then `total 29`
    cribtiles cribbage peg "4H 7D 4S"                       what the last card scores, then `points 2`

Cards are a rank (A 2-9 T J Q K, 10 for T too) and a suit (S H D C). Bad cards: one line on standard
error and exit status 2.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from cribtiles.cribbage.cards import CardError, format_cards, parse_card, parse_cards
from cribtiles.cribbage.peg import count_of, item_words, peg_items
from cribtiles.cribbage.show import describe_show, score_show
from cribtiles.terminal import Parser, say

CARDS_HELP = "cards are a rank (A 2-9 T J Q K) and a suit (S H D C), like 5H or TD"


def _parser() -> argparse.ArgumentParser:
    ap = Parser(
        prog="cribtiles cribbage",
        description="Classic cribbage's scorers: count a hand in the show, or score a card in the play.",
        epilog=CARDS_HELP,
    )
    commands = ap.add_subparsers(dest="command", required=True, metavar="score|peg|arena")
    score = commands.add_parser(
        "score",
        prog="cribtiles cribbage score",
        help="count a hand (or the crib) with the starter",
        description="Count a four-card hand with the starter, each combination on a line, then `total N`.",
        epilog=CARDS_HELP,
    )
    score.add_argument("hand", help='the four cards of the hand, like "5H 5D 5S JC"')
    score.add_argument("--starter", required=True, help="the starter card turned up, like 5C")
    score.add_argument("--crib", action="store_true", help="count it as the crib (a flush only with the starter)")
    peg = commands.add_parser(
        "peg",
        prog="cribtiles cribbage peg",
        help="what the last card of a play sequence scores",
        description=(
            "What the last card of a sequence in the play scores (the cards since the count was last reset, "
            "in the order laid), then `points N`. The go and the last card of the play are not counted here."
        ),
        epilog=CARDS_HELP,
    )
    peg.add_argument("cards", help='the cards laid since the count was reset, in order, like "4H 7D 4S"')
    # listed for --help only: `arena` is parsed by the arena's own parser (see main)
    commands.add_parser("arena", help="measure two cribbage bots over paired deals (its own --help)")
    return ap


def _arena(args: Sequence[str]) -> int:
    """`cribtiles cribbage arena ...`: the cribbage bots' arena, with its own options."""
    from cribtiles.table.cribbage_arena import main as arena_main

    try:
        return arena_main(args)
    except SystemExit as e:  # --help, or arguments the arena refused (it has said why)
        return e.code if isinstance(e.code, int) else 2


def _score(hand_text: str, starter_text: str, crib: bool) -> list[str]:
    hand = parse_cards(hand_text)
    starter = parse_card(starter_text)
    score = score_show(hand, starter, crib)
    what = "the crib" if crib else "the hand"
    lines = [f"{what} {format_cards(hand)} with the starter {starter}"]
    if not score.items:
        lines.append("nothing scores")
    return lines + describe_show(score)


def _peg(cards_text: str) -> list[str]:
    cards = parse_cards(cards_text)
    items = peg_items(cards)
    lines = [f"{format_cards(cards)}: the count is {count_of(cards)}"]
    lines += [f"{item_words(item)} ({item.points}): {format_cards(item.cards)}" for item in items]
    if not items:
        lines.append(f"the {cards[-1]} scores nothing")
    lines.append(f"points {sum(item.points for item in items)}")
    return lines


def main(args: Sequence[str]) -> int:
    """`cribtiles cribbage ...`; the exit code (2 for bad arguments or cards)."""
    if list(args)[:1] == ["arena"]:
        return _arena(list(args)[1:])
    try:
        opts = _parser().parse_args(list(args))
    except SystemExit as e:  # --help, or arguments argparse refused (it has said why)
        return e.code if isinstance(e.code, int) else 2
    try:
        lines = _score(opts.hand, opts.starter, opts.crib) if opts.command == "score" else _peg(opts.cards)
    except CardError as e:
        say(f"cribtiles cribbage {opts.command}: {e}")
        return 2
    print("\n".join(lines))
    return 0

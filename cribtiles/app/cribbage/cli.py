"""`cribtiles cribbage score|peg|discard`: classic cribbage's show and play scorers, and the discard
advisor, on the command line.

    cribtiles cribbage score "5H 5D 5S JC" --starter 5C     the show's breakdown, then `total 29`
    cribtiles cribbage peg "4H 7D 4S"                       what the last card scores, then `points 2`
    cribtiles cribbage discard "5H 5D JS QC 8H 2S" --dealer every discard with its expected points, best first

Cards are a rank (A 2-9 T J Q K, 10 for T too) and a suit (S H D C). Bad cards: one line on standard
error and exit status 2.
"""

from __future__ import annotations

import argparse
import functools
import json
from collections.abc import Callable, Sequence

from cribtiles.bot.cribbage.advisor import DiscardAdvice, advise_discard
from cribtiles.cribbage.cards import format_cards, parse_card, parse_cards
from cribtiles.cribbage.options import Variant
from cribtiles.cribbage.peg import count_of, item_words, peg_items
from cribtiles.cribbage.show import describe_show, score_show

from ..commands import runs

CARDS_HELP = "cards are a rank (A 2-9 T J Q K) and a suit (S H D C), like 5H or TD"


def add_arguments(ap: argparse.ArgumentParser) -> None:
    """`cribtiles cribbage`'s sub-commands on `ap`: score, peg and arena (an alias of `cribtiles arena
    --game cribbage`: the one arena's arguments, `cribtiles.table.arena`)."""
    from cribtiles.table import arena as one_arena

    ap.description = "Classic cribbage's scorers: count a hand in the show, or score a card in the play."
    ap.epilog = CARDS_HELP
    commands = ap.add_subparsers(dest="cribbage", required=True, metavar="score|peg|discard|arena")
    score = commands.add_parser(
        "score",
        help="count a hand (or the crib) with the starter",
        description="Count a four-card hand with the starter, each combination on a line, then `total N`.",
        epilog=CARDS_HELP,
    )
    score.add_argument("hand", help='the four cards of the hand, like "5H 5D 5S JC"')
    score.add_argument("--starter", required=True, help="the starter card turned up, like 5C")
    score.add_argument("--crib", action="store_true", help="count it as the crib (a flush only with the starter)")
    runs(score, _prepare_score)
    peg = commands.add_parser(
        "peg",
        help="what the last card of a play sequence scores",
        description=(
            "What the last card of a sequence in the play scores (the cards since the count was last reset, "
            "in the order laid), then `points N`. The go and the last card of the play are not counted here."
        ),
        epilog=CARDS_HELP,
    )
    peg.add_argument("cards", help='the cards laid since the count was reset, in order, like "4H 7D 4S"')
    runs(peg, _prepare_peg)
    discard = commands.add_parser(
        "discard",
        help="every discard of two of six cards dealt, with its expected points",
        description=(
            "Every way to lay two of the six cards dealt away to the crib, best first: the four kept, the two "
            "thrown, the kept hand's average over the 46 starters left, the crib's expected points for the "
            "dealer (+) or against the non-dealer (-) from the table the Hard bot uses, and their sum."
        ),
        epilog=CARDS_HELP,
    )
    discard.add_argument("cards", help='the six cards dealt (five in the variants), like "5H 5D JS QC 8H 2S"')
    discard.add_argument("--dealer", action="store_true", help="the crib is yours (you deal, or your partner)")
    discard.add_argument(
        "--variant",
        choices=tuple(v.value for v in Variant),
        default=Variant.SIX_CARD.value,
        help="six-card (the default: two of six), five-card (two of five), three-player or partnership (one of five)",
    )
    discard.add_argument("--json", action="store_true", help="the discards as JSON, best first")
    runs(discard, _prepare_discard)
    arena = commands.add_parser(
        "arena", help="measure two cribbage bots over paired deals (cribtiles arena --game cribbage)"
    )
    one_arena.add_arguments(arena, game="cribbage")
    runs(arena, one_arena.prepare)


def prepare(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[], int]:
    """Never called: `cribtiles cribbage` runs one of its sub-commands, which argparse requires."""
    raise AssertionError("cribtiles cribbage without a sub-command")


def _prepare_score(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[], int]:
    """`cribtiles cribbage score`: the show's lines; CardError (a ValueError) for bad cards."""
    return functools.partial(_say_lines, _score(args.hand, args.starter, args.crib))


def _prepare_peg(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[], int]:
    """`cribtiles cribbage peg`: the play's lines; CardError (a ValueError) for bad cards."""
    return functools.partial(_say_lines, _peg(args.cards))


def _prepare_discard(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Callable[[], int]:
    """`cribtiles cribbage discard`: the advisor's table (or JSON); ValueError in words for bad cards."""
    variant = Variant(args.variant)
    advice = advise_discard(
        parse_cards(args.cards), args.dealer, to_crib=None if variant is Variant.SIX_CARD else variant.to_crib
    )
    if args.json:
        return functools.partial(_say_lines, [json.dumps(_discard_doc(advice, args.dealer), indent=1)])
    return functools.partial(_say_lines, _discard_lines(advice, args.dealer))


def _discard_doc(advice: Sequence[DiscardAdvice], dealer: bool) -> dict[str, object]:
    return {
        "dealer": dealer,
        "discards": [
            {
                "kept": [str(c) for c in a.kept],
                "thrown": [str(c) for c in a.thrown],
                "hand": round(a.hand, 4),
                "crib": round(a.crib, 4),
                "total": round(a.total, 4),
            }
            for a in advice
        ],
    }


def _discard_lines(advice: Sequence[DiscardAdvice], dealer: bool) -> list[str]:
    whose = "your crib (you deal)" if dealer else "their crib (they deal)"
    lines = [f"discards best first, to {whose}", f"{'keep':<12} {'throw':<6} {'hand':>6} {'crib':>6} {'total':>6}"]
    for a in advice:
        lines.append(
            f"{format_cards(a.kept):<12} {format_cards(a.thrown):<6} {a.hand:>6.2f} {a.crib:>+6.2f} {a.total:>6.2f}"
        )
    return lines


def _say_lines(lines: Sequence[str]) -> int:
    print("\n".join(lines))
    return 0


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

"""`cribtiles review FILE` for a game of cribbage (a saved or exported game, or a bare record): every
discard and every card laid, each from its player's own view, against the best found; the biggest
misses; each player's totals. `cribtiles review` (`cribtiles.app.review_cli`) reads the file and asks
the game for its run (the registry's `REVIEW_RUN` part, `review_run` here); its flag of its own is
`--guesses` (`REVIEW_FLAGS`, `add_review_flags`). Only a two-player game of the standard rules is
reviewed (`table.cribbage.review.refusal` says why another is not), under its own rules (`--rules` is
the tile game's).

A discard's figure is its expected points: the kept hand's exact average show over the 46 starters
plus what the two cards laid away are worth in the crib (Hard's crib table; minus in the opponent's
crib). A card's figure is its value over the rest of the play: the points it and the cards after it
win less those they give away, Hard's look-ahead averaged over `--guesses` guesses at the opponent's
cards, drawn from what the player had seen (`--seed` seeds them). "Lost" is the best's figure less
the chosen one's, never below 0.

`--json` prints one JSON document (UTF-8), stable from version to version (new keys may be added):

    {"format": "cribtiles-cribbage-review", "version": 1, "guesses": 64, "seed": 0,
     "players": ["You", "Medium bot"], "complete": true, "decisions": [DECISION, ...],
     "scores": [[0, 0], [0, 2], ...], "finals": [84, 121], "biggest_misses": [0, 12, ...],
     "totals": [TOTAL, ...]}
    DECISION = {"kind": "discard", "deal": 1, "player": 0, "name": "You", "own_crib": false,
                "dealt": "4C 6C 6H JS 2H 3S", "kept": "4C 6C 6H JS", "laid": "2H 3S", "hand": 4.37,
                "crib": -7.02, "expected": -2.65, "best_kept": "2H 3S 4C 6H", "best_laid": "6C JS",
                "best_expected": 4.11, "lost": 6.76, "is_best": false}
             | {"kind": "play", "deal": 1, "player": 1, "name": "Medium bot", "held": "4D 5S 6S",
                "pile": "JH 8C", "count": 18, "laid": "6S", "points": 0, "value": -3.62, "best": "5S",
                "best_points": 0, "best_value": -1.98, "lost": 1.64, "is_best": false, "samples": 64}
    TOTAL = {"player": 0, "name": "You", "discards": 9, "best_discards": 1, "discard_lost": 37.8,
             "plays": 36, "best_plays": 20, "play_lost": 12.6, "accuracy": 0.47}
    `scores[i]` is both scores just after decisions[i]; `biggest_misses` are indices into `decisions`,
    the biggest first (at most 10; decisions that lost nothing are not misses).
"""

from __future__ import annotations

import argparse
import functools
import random
from collections.abc import Callable
from typing import Any, TextIO

from cribtiles.cribbage.cards import format_cards
from cribtiles.table.cribbage.review import (
    DEFAULT_GUESSES,
    CribbageReview,
    Decision,
    DiscardReview,
    refusal,
    review_game,
)
from cribtiles.table.cribbage.table import CribbageTable

from ..files import shown_path
from ..review_output import MISSES as MISSES  # the misses listed (text and JSON)
from ..review_output import (
    closing_lines,
    misses_heading,
    opening_lines,
    print_reviewed,
    review_document,
)

REVIEW_FORMAT, JSON_VERSION = "cribtiles-cribbage-review", 1
#: At most this many guesses a card laid: more is a typing slip.
MAX_GUESSES = 10_000


def add_review_flags(ap: argparse.ArgumentParser) -> None:
    """Cribbage's own flag of `cribtiles review` on its parser `ap` (the registry's `REVIEW_FLAGS`)."""
    ap.add_argument(
        "--guesses",
        type=_guesses,
        default=DEFAULT_GUESSES,
        metavar="N",
        help=f"a game of cribbage: guesses at the opponent's cards each card laid is weighed over "
        f"(default {DEFAULT_GUESSES}; more is steadier)",
    )


def _guesses(text: str) -> int:
    """`--guesses 64`: 1 to MAX_GUESSES.

    >>> _guesses("16")
    16
    """
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a whole number of guesses, like 64") from None
    if not 1 <= n <= MAX_GUESSES:
        raise argparse.ArgumentTypeError(f"the guesses are 1 to {MAX_GUESSES}, not {n}")
    return n


def review_run(table: CribbageTable, args: argparse.Namespace, stderr: TextIO) -> Callable[[], int]:
    """The review of `table`'s game (the registry's `REVIEW_RUN`); ValueError in words for a variant the
    review does not take, or `--rules`."""
    why = refusal(table.state.record())
    if why:
        raise ValueError(f"{shown_path(args.file)}: {why}")
    if args.rules:
        raise ValueError("--rules is for a game of Crib Tiles; a game of cribbage is reviewed by its own rules")
    return functools.partial(review_cribbage, table, args, stderr)


def review_cribbage(table: CribbageTable, ns: argparse.Namespace, stderr: TextIO) -> int:
    """The review of `table`'s game on standard output; 0, or 130 when Ctrl-C stopped it (ReviewRefused,
    a ValueError in words, for a variant the review does not take)."""
    return print_reviewed(
        lambda progress: review_game(table.state, random.Random(ns.seed), ns.guesses, progress),
        lambda review: review_json(review, ns.seed),
        review_text,
        ns,
        stderr,
        "decision",
    )


def review_text(review: CribbageReview, source: str = "") -> str:
    """The review as a terminal shows it: each deal's decisions, the biggest misses, each player's totals."""
    names = review.names
    width = max(len(n) for n in names)
    how = f"each card laid weighed over {review.guesses} guesses"
    lines = opening_lines(names, source, len(review.decisions), "decision", how, review.complete)
    if not review.decisions:
        return "\n".join(lines)
    deal = 0
    for d in review.decisions:
        if d.deal != deal:
            deal = d.deal
            lines += ["", f"Deal {deal}"]
        lost = "best" if d.is_best else f"{d.value_lost:.1f} lost"
        lines.append(f"  {names[d.player]:<{width}}  {lost:>10}  {d.words()}")
    lines += ["", *figure_notes()]
    misses = review.biggest_misses(MISSES)
    lines += misses_heading(bool(misses), "every decision was the best found")
    lines += [f"  Deal {d.deal}, {names[d.player]}: {d.words()}" for d in misses]
    lines += ["", "Totals:"]
    lines += [f"  {names[t.player]:<{width}}  {t.words()}" for t in review.totals()]
    finals = ", ".join(f"{n} {s}" for n, s in zip(names, review.finals, strict=True))
    lines += closing_lines(review.complete, finals)
    return "\n".join(lines)


def figure_notes() -> list[str]:
    """What the figures mean, in words."""
    return [
        "A discard's expected points: the kept hand's exact average show over the 46 starters, plus what the "
        "two cards laid away are worth in the crib (Hard's crib table; minus in the opponent's crib).",
        "A card's value: the points it and the cards after it win less those they give away over the rest of "
        "the play (Hard's look-ahead, averaged over guesses at the opponent's cards from what the player saw).",
        "Lost: the best found's figure less the one chosen.",
    ]


def review_json(review: CribbageReview, seed: int) -> dict[str, Any]:
    """The review as the JSON document of the module's notes."""
    totals = [
        {
            "player": t.player,
            "name": review.names[t.player],
            "discards": t.discards,
            "best_discards": t.best_discards,
            "discard_lost": round(t.discard_lost, 2),
            "plays": t.plays,
            "best_plays": t.best_plays,
            "play_lost": round(t.play_lost, 2),
            "accuracy": round(t.accuracy, 3),
        }
        for t in review.totals()
    ]
    return review_document(
        (REVIEW_FORMAT, JSON_VERSION),
        {"guesses": review.guesses, "seed": seed},
        review,
        ("decisions", review.decisions),
        _decision_json,
        (list(review.finals), totals),
    )


def _decision_json(d: Decision, names: tuple[str, ...]) -> dict[str, Any]:
    common = {"kind": str(d.kind), "deal": d.deal, "player": d.player, "name": names[d.player]}
    if isinstance(d, DiscardReview):
        chosen, best = d.chosen, d.best
        return {
            **common,
            "own_crib": d.own_crib,
            "dealt": format_cards(d.dealt),
            "kept": format_cards(chosen.kept),
            "laid": format_cards(chosen.thrown),
            "hand": round(chosen.hand, 2),
            "crib": round(chosen.crib, 2),
            "expected": round(chosen.total, 2),
            "best_kept": format_cards(best.kept),
            "best_laid": format_cards(best.thrown),
            "best_expected": round(best.total, 2),
            "lost": round(d.value_lost, 2),
            "is_best": d.is_best,
        }
    return {
        **common,
        "held": format_cards(d.hand),
        "pile": format_cards(d.pile),
        "count": d.count,
        "laid": str(d.played),
        "points": d.chosen.points,
        "value": round(d.chosen.value, 2),
        "best": str(d.best.card),
        "best_points": d.best.points,
        "best_value": round(d.best.value, 2),
        "lost": round(d.value_lost, 2),
        "is_best": d.is_best,
        "samples": d.samples,
    }

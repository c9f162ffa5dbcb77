"""`cribtiles review FILE` for a game of the tile game (a saved table, a game record or a match record):
every turn (every round of a match) against the best move found by Expert analysis, the biggest misses,
and the totals of each player. `cribtiles review` (`cribtiles.app.review_cli`) reads the file and asks
the game for its run (the registry's `REVIEW_RUN` part, `review_run` here); its flag of its own is
`--budget` (`REVIEW_FLAGS`, `add_review_flags`), and it takes the command's `--rules`.

The game is reviewed under the rule options its record names (a record saved before an option existed
has that option's default). `--rules` changes some of them, as the game takes them: `--rules
bonuses=off` replays the same moves and weighs them without bonuses. The JSON names the rules used.

Values are evaluations in points: the Expert's (the spread over the next turns plus the value of the
tiles kept, averaged over guesses of the hidden tiles), or once the bag is empty between two players the
spread to the end of the game, searched. A turn's "value lost" is the best move's value less the played
move's (never below 0); "points lost" is the best move's score less the played move's (below 0 when the
best move scores less now: the review calls such a move best only when its continuations beat the
higher-scoring moves' by more than their noise). The text says what these figures mean under the
turns. Rounds and turns are numbered from 1.

`--json` prints one JSON document (UTF-8), stable from version to version (new keys may be added):

    {"format": "cribtiles-review", "version": 1, "budget": 1.0, "seed": 0, "players": ["Hard", "Medium"],
     "rules": "start=low,exchange=when-stuck,joker=off,rounds=1,mode=standard,bonuses=on",
     "complete": true, "turns": [TURN, ...], "scores": [[27, 0], [27, 17], ...], "finals": [[264, 253]],
     "biggest_misses": [15, 31, 18, ...], "totals": [TOTAL, ...]}
    TURN = {"round": 1, "turn": 3, "player": 1, "name": "Medium",
            "played": "e2=9L e3=8L e4=4L e5=7L", "played_score": 17, "played_value": 21.0,
            "best": "d2=9L d3=7L d4=8L d5=4L", "best_score": 17, "best_value": 24.5,
            "points_lost": 0, "value_lost": 3.5, "is_best": false,
            "method": "simulated" | "endgame" | "static" | "only", "samples": 2, "exact": false,
            "played_opens": "Opens row 7 at k7, where 6 tiles still out make 20 or more: ...", "best_opens": "",
            "played_value_after": 3.1, "best_value_after": 5.8}
    TOTAL = {"player": 0, "name": "Hard", "turns": 16, "best_found": 9, "points_lost": 11, "value_lost": 59.33}
    `scores[i]` is every player's score in its round just after turns[i] (a round starts again at 0);
    `finals[r]` is round r's final scores (its scores so far when it was not finished); `biggest_misses`
    are indices into `turns`, the biggest first (at most 10; turns that lost nothing are not misses);
    `method` says how the turn's moves were weighed: "simulated" by the Expert's rollouts (`samples` of
    them for each move), "endgame" by the endgame search (`exact` when it reached the end on every
    line), "static" by Hard's evaluation (no rollout fitted in the budget), "only" when the move played
    was the only one to weigh.
    `played_opens` and `best_opens` say what each play opens or closes for the reply ("" when nothing
    worth saying); `played_value_after` and `best_value_after` are the learned value of the position
    each move leaves, the final spread the player could expect (null where the value does not speak:
    a game of three or more, Solitaire).
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, TextIO

from cribtiles.bot.opens import outlook_words
from cribtiles.rules.errors import RecordError
from cribtiles.rules.game import GameState
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.record import record_of, replay
from cribtiles.table.tiles.review import DEFAULT_BUDGET, Review, TurnReview, review_games
from cribtiles.table.tiles.table import Table

from ..review_output import MISSES as MISSES  # the misses listed (text and JSON)
from ..review_output import (
    closing_lines,
    misses_heading,
    opening_lines,
    print_reviewed,
    review_document,
)

REVIEW_FORMAT, JSON_VERSION = "cribtiles-review", 1
#: At most this many seconds a turn: a longer budget is a typing slip (a whole game would take hours).
MAX_BUDGET = 600.0


def add_review_flags(ap: argparse.ArgumentParser) -> None:
    """The tile game's own flags of `cribtiles review` on its parser `ap` (the registry's `REVIEW_FLAGS`)."""
    ap.add_argument(
        "--budget",
        type=_budget,
        default=DEFAULT_BUDGET,
        metavar="SECONDS",
        help=f"seconds of analysis for each turn (default {DEFAULT_BUDGET:g}; longer is steadier)",
    )


def _budget(text: str) -> float:
    """`--budget 0.5`: seconds a turn, 0 to MAX_BUDGET.

    >>> _budget("0.5"), _budget("2")
    (0.5, 2.0)
    """
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a number of seconds, like 1 or 0.5") from None
    if not (math.isfinite(seconds) and 0 <= seconds <= MAX_BUDGET):
        raise argparse.ArgumentTypeError(f"the budget is 0 to {MAX_BUDGET:g} seconds a turn, not {text[:20]}")
    return seconds


def review_run(table: Table, args: argparse.Namespace, stderr: TextIO) -> Callable[[], int]:
    """The review of `table`'s rounds, under `--rules` when given (the registry's `REVIEW_RUN`); ValueError
    in words when those rules or a replay under them are refused."""
    games = under_rules((*table.match.finished, table.match.game), args.rules)
    return functools.partial(_review, games, args, stderr)


def under_rules(games: Sequence[GameState], rules: str) -> tuple[GameState, ...]:
    """The rounds `games` replayed with the rule options `rules` (`bonuses=off`) changed from their
    records' (as they are with none); ValueError, in words, when the options or a replay are refused.

    >>> from cribtiles.rules.game import new_game
    >>> under_rules((new_game(seed=3),), "bonuses=off")[0].options.bonuses
    False
    """
    if not rules:
        return tuple(games)
    out = []
    for game in games:
        try:
            options = RuleOptions.parse(rules, base=game.options)
        except ValueError as e:
            raise ValueError(f"--rules: {e}") from None
        try:
            out.append(replay(replace(record_of(game), options=options)))
        except RecordError as e:
            raise ValueError(f"the game cannot be replayed under {options.to_text()}: {e}") from None
    return tuple(out)


def _review(games: Sequence[GameState], ns: argparse.Namespace, stderr: TextIO) -> int:
    """The review of `games` (the rounds of a table) on standard output, its progress on `stderr`; 0, or
    130 when Ctrl-C stopped it."""
    return print_reviewed(
        lambda progress: review_games(games, ns.budget, time.perf_counter, random.Random(ns.seed), progress),
        lambda review: review_json(review, ns.seed, games[0].options),
        review_text,
        ns,
        stderr,
        "turn",
    )


# --- words ---


def _turn_label(t: TurnReview, rounds: int) -> str:
    return f"round {t.round + 1}, turn {t.number + 1}" if rounds > 1 else f"turn {t.number + 1}"


def review_text(review: Review, source: str = "") -> str:
    """The review as a terminal shows it: each turn, the biggest misses, each player's totals."""
    rounds = len(review.finals)
    names = review.names
    width = max(len(n) for n in names)
    moves = max([len(str(t.played)) for t in review.turns] + [len(str(t.best)) for t in review.turns] + [6])
    per_turn = f"{review.budget:g} s of analysis a turn"
    lines = opening_lines(names, source, len(review.turns), "turn", per_turn, review.complete)
    if not review.turns:
        return "\n".join(lines)
    head = f"{'turn':>4}  {'player':<{width}}  {'played':<{moves}}  {'pts':>3}  {'best found':<{moves}}  {'pts':>3}"
    head += "  points lost  value lost"
    for r in range(rounds):
        lines.append("")
        if rounds > 1:
            lines.append(f"Round {r + 1}")
        lines.append(head)
        for t in (t for t in review.turns if t.round == r):
            best = "(the same)" if t.is_best else str(t.best)
            lines.append(
                f"{t.number + 1:>4}  {names[t.player]:<{width}}  {t.played!s:<{moves}}  {t.played_score:>3}  "
                f"{best:<{moves}}  {t.best_score:>3}  {t.points_lost:>11}  {t.value_lost:>10.1f}"
            )
    lines += ["", *figure_notes(review)]
    misses = review.biggest_misses(MISSES)
    lines += misses_heading(bool(misses), "every move played was the best found")
    for t in misses:
        lines.append(
            f"  {_turn_label(t, rounds)}, {names[t.player]}: played {t.played} for {t.played_score}; "
            f"best {t.best} for {t.best_score} ({_lost(t)})"
        )
        lines += [f"    {said}" for said in miss_notes(t, names[t.player])]
    lines += ["", "Totals:"]
    for total in review.totals():
        lines.append(
            f"  {names[total.player]:<{width}}  {total.turns} turns, the best found on {total.best_found}; "
            f"{total.points_lost} points and {total.value_lost:.1f} in value lost"
        )
    finals = "; ".join(" ".join(f"{n} {s}" for n, s in zip(names, f, strict=True)) for f in review.finals)
    lines += closing_lines(review.complete, finals)
    return "\n".join(lines)


def miss_notes(t: TurnReview, name: str) -> list[str]:
    """What the learned value reads in a miss, each a sentence: what the play made and the best one
    open or close for the reply, and where the player can expect to finish after each."""
    said = []
    if t.played_opens and (t.is_best or t.best_opens == t.played_opens):
        said.append(f"{'Both plays' if not t.is_best else 'The play'}: {t.played_opens}")
    else:
        if t.played_opens:
            said.append(f"The play made: {t.played_opens}")
        if t.best_opens:
            said.append(f"The best found: {t.best_opens}")
    outlook = outlook_words(name, t.played_after, t.best_after, t.is_best)
    return [*said, outlook] if outlook else said


def figure_notes(review: Review) -> list[str]:
    """What the columns' figures mean, in words (and why a points lost is below 0, when one is)."""
    notes = [
        "Points lost: what the best found scores more than the move played, now.",
        "Value lost: how much more the best found is worth, counting the turns after it too: the points it "
        "wins on the other players over the next turns (the Expert's continuations, averaged over guesses "
        "of the hidden tiles; to the end of the game once the bag is empty between two).",
    ]
    if any(t.played_opens or t.best_opens or t.played_after is not None for t in review.turns):
        notes.append(
            "Under a miss, the learned value's reading (a value of the position learned from self-play): what "
            "each play opens or closes for the reply (the chance that the next player, whose tiles come from "
            "those still out, holds one that scores 10 or 20 there), and where the player can expect to finish."
        )
    if any(t.points_lost < 0 for t in review.turns):
        notes.append(
            "A points lost below 0: the best found scores less now, but the continuations find it clearly "
            "better later (the tiles it keeps, what it leaves open), by more than their noise."
        )
    return notes


def _lost(t: TurnReview) -> str:
    points = f"{t.points_lost} point{'s' if abs(t.points_lost) != 1 else ''}"
    if t.points_lost < 0:
        points = f"{-t.points_lost} point{'s' if t.points_lost != -1 else ''} fewer now"
    return f"{points}, {t.value_lost:.1f} in value lost"


def review_json(review: Review, seed: int, options: RuleOptions | None = None) -> dict[str, Any]:
    """The review as the JSON document of the module's notes (`rules` only when `options` are given)."""
    totals = [
        {
            "player": total.player,
            "name": review.names[total.player],
            "turns": total.turns,
            "best_found": total.best_found,
            "points_lost": total.points_lost,
            "value_lost": round(total.value_lost, 2),
        }
        for total in review.totals()
    ]
    return review_document(
        (REVIEW_FORMAT, JSON_VERSION),
        {"budget": review.budget, "seed": seed},
        review,
        ("turns", review.turns),
        _turn_json,
        ([list(f) for f in review.finals], totals),
        None if options is None else options.to_text(),
    )


def _turn_json(t: TurnReview, names: Sequence[str]) -> dict[str, Any]:
    return {
        "round": t.round + 1,
        "turn": t.number + 1,
        "player": t.player,
        "name": names[t.player],
        "played": str(t.played),
        "played_score": t.played_score,
        "played_value": round(t.played_value, 2),
        "best": str(t.best),
        "best_score": t.best_score,
        "best_value": round(t.best_value, 2),
        "points_lost": t.points_lost,
        "value_lost": round(t.value_lost, 2),
        "is_best": t.is_best,
        "method": str(t.method),
        "samples": t.samples,
        "exact": t.exact,
        "played_opens": t.played_opens,
        "best_opens": t.best_opens,
        "played_value_after": None if t.played_after is None else round(t.played_after, 2),
        "best_value_after": None if t.best_after is None else round(t.best_after, 2),
    }

"""A game in the terminal against a bot: the board drawn in text, moves typed in notation.

It is the plain way to play until the window opens (and stays, for terminals and screen readers).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from cribtiles.bot import JokerManners, choose_safely, make_bot
from cribtiles.rules import IllegalMove, NotationError, format_move, parse_move, score_play
from cribtiles.rules.game import GameState, new_game
from cribtiles.rules.movegen import scored_plays
from cribtiles.rules.moves import Play
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.scoring import PlayScore
from cribtiles.rules.tiles import format_tiles

HELP = """Type a play as square=tile pairs, like  f7=4L g7=5D h7=6L  (columns a-m, rows 1-13;
tiles are a rank A 2-9 T J Q K and L for light or D for dark; lay a 6/9 as 6 or 9).
Other commands: pass, exchange 4L 5D, hint (the best play), board, help, quit."""


def describe(result: PlayScore) -> str:
    lines = []
    for line in result.lines:
        lines.append(f"  {line.describe()}")
        for c in line.combinations:
            tiles = " ".join(str(line.line.tiles[i]) for i in c.positions)
            lines.append(f"      {c.kind} {tiles}: {c.points}")
    for b in result.bonuses:
        lines.append(f"  bonus: {b.describe()}")
    lines.append(f"  total {result.total}")
    return "\n".join(lines)


def _status(state: GameState, me: int) -> str:
    scores = "   ".join(f"{n}: {s}" for n, s in zip(state.names, state.scores, strict=True))
    return f"\n{state.board}\n\n{scores}   bag: {state.bag_size()}\nYour rack: {format_tiles(state.racks[me])}"


def play_text_game(
    level: str = "medium",
    seed: int | None = None,
    options: RuleOptions | None = None,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> GameState:
    """Play one game, you against a bot; returns the final state."""
    seed = random.randrange(2**31) if seed is None else seed
    state = new_game(2, options or RuleOptions(), seed, ("You", level.capitalize()))
    bot, rng, manners = make_bot(level), random.Random(seed), JokerManners()
    me = 0
    write(f"Crib Tiles: you against the {level} bot (game seed {seed}). Type help for help.")
    write(f"{state.names[state.starter]} drew the lowest tile and plays first.")
    while not state.is_over:
        if state.current != me:
            move = choose_safely(bot, state.view(state.current), rng)
            before = state.board
            state = state.apply(move, manners.declare(state.view(1), move) if isinstance(move, Play) else None)
            write(f"\n{state.names[1]} plays {format_move(move)}")
            if isinstance(move, Play):
                write(describe(score_play(before, move)))
            continue
        write(_status(state, me))
        try:
            text = read("Your move> ").strip()
        except EOFError:
            write("\nGoodbye.")
            return state
        if text in ("quit", "exit", "q"):
            return state
        if text in ("help", "?", ""):
            write(HELP)
            continue
        if text == "board":
            continue
        if text == "hint":
            plays = scored_plays(state.board, state.racks[me])
            if plays:
                best = max(plays, key=lambda ps: ps[1])
                write(f"Best scoring play: {best[0]} for {best[1]}")
            else:
                write("You have no play: pass or exchange.")
            continue
        try:
            move = parse_move(text)
            before = state.board
            state = state.apply(move)
        except (IllegalMove, NotationError) as e:
            write(f"Not allowed: {e}")
            continue
        if isinstance(move, Play):
            write(describe(score_play(before, move)))
    assert state.outcome is not None
    o = state.outcome
    write(_status(state, me))
    for p, name in enumerate(state.names):
        write(f"{name}: {state.scores[p]} - {o.deductions[p]} left on the rack = {o.final_scores[p]}")
    write("It's a tie!" if len(o.winners) > 1 else f"{state.names[o.winners[0]]} won.")
    return state

"""A game in the terminal against a bot: the board drawn in text, moves typed in notation.

It is the plain way to play until the window opens (and stays, for terminals and screen readers).
It keeps its game where the window keeps its own (the data folder, or `--data-dir`): the one saved
game is resumed, by the window or here, and it is saved after every turn, so quitting, Ctrl-C, the
end of input or a closed terminal never lose more than the move being typed. With `rounds=N` it plays
whole matches: round after round, with running totals and the Servant between them.
"""

from __future__ import annotations

import contextlib
import logging
import random
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from cribtiles.bot import LEVELS, Bot, JokerManners, choose_safely, make_bot
from cribtiles.bot.greedy import greedy_move
from cribtiles.rules import IllegalMove, NotationError, format_move, score_play
from cribtiles.rules.game import GameState, PlayerView, new_game
from cribtiles.rules.match import Match
from cribtiles.rules.movegen import scored_plays
from cribtiles.rules.moves import Exchange, Move, Play
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.record import apply_text
from cribtiles.rules.scoring import PlayScore
from cribtiles.rules.tiles import format_tiles

from .logs import setup_logging
from .storage import FolderInUse, Store

log = logging.getLogger("cribtiles.text")

Read = Callable[[str], str]
Write = Callable[[str], None]

ME, BOT = 0, 1  # you sit in seat 0, as in the window
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a Ctrl-C
QUIT_WORDS = ("quit", "exit", "q")

HELP = """Type a play as square=tile pairs, like  f7=4L g7=5D h7=6L  (columns a-m, rows 1-13;
tiles are a rank A 2-9 T J Q K and L for light or D for dark; lay a 6/9 as 6 or 9).
Other commands: pass, exchange 4L 5D, hint (the best play), board, help, quit.
Your game is saved after every turn: quit (or Ctrl-C) and `cribtiles --text` resumes it."""

JOKER_HELP = """Joker rule: add  declare N  to a play to claim N points (the bot may call Joker and take
the rest); type  joker  to call Joker on the bot's last play (it declares honestly: a call costs 5)."""


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


def level_of(name: str, default: str) -> str:
    """The bot level a player's name stands for ('Medium' -> 'medium'), as the window reads it."""
    n = name.strip().lower()
    return n if n in LEVELS else default


def resume_command(data_dir: Path | None) -> str:
    return "`cribtiles --text`" if data_dir is None else f"`cribtiles --text --data-dir {data_dir}`"


# --- the table: the game or match in play, the bot, the save ---


@dataclass
class _Table:
    store: Store
    match: Match
    single: bool  # one game, saved as its GameState (rules rounds=1, or a saved single game resumed)
    level: str
    bot: Bot
    write: Write
    manners: JokerManners = field(default_factory=JokerManners)
    told_save_error: bool = False

    @property
    def state(self) -> GameState:
        return self.match.game

    @state.setter
    def state(self, state: GameState) -> None:
        self.match = replace(self.match, game=state)

    @property
    def rounds(self) -> int:
        return 1 if self.single else self.match.options.rounds

    def save(self) -> bool:
        """Save the game (a match of several rounds as a match); say in words, once, if it failed."""
        failed = len(self.store.errors)
        self.store.save_game(self.state if self.single else self.match)
        if len(self.store.errors) == failed:
            return True
        if not self.told_save_error:
            self.told_save_error = True
            self.write(
                f"Your game could not be saved: {self.store.errors[-1]}. You can play on, "
                "but if you leave now this game is lost."
            )
        return False


def _bot_rng(state: GameState) -> random.Random:
    """The bot's generator for this move, from the game and the move number only: a resumed game
    plays on exactly as if it had never been left."""
    return random.Random(f"cribtiles-text/{state.seed}/{len(state.log)}")


# --- starting: a new game, or the saved one ---


def _open_table(
    store: Store, level: str | None, seed: int | None, options: RuleOptions, new: bool, write: Write
) -> _Table:
    prefs, notes = store.load_preferences()
    saved: GameState | Match | None = None
    if not new:
        saved, game_note = store.load_game()
        notes = " ".join(n for n in (notes, game_note) if n)
    if notes:
        write(notes)
    if saved is None:
        table = _new_table(store, level or prefs.level, seed, options, write)
    else:
        table = _resumed_table(store, saved, prefs.level, write)
    table.save()
    return table


def _new_table(store: Store, level: str, seed: int | None, options: RuleOptions, write: Write) -> _Table:
    seed = random.randrange(2**31) if seed is None else seed
    names = ("You", level.capitalize())
    if options.rounds > 1:
        match, single = Match.start(2, options, seed, names), False
    else:
        game = new_game(2, options, seed, names)
        match, single = Match(options, seed, game.names, (), game), True
    table = _Table(store, match, single, level, make_bot(level), write)
    what = "a game" if single else f"a match of {options.rounds} rounds"
    write(f"Crib Tiles: {what} against the {level} bot (seed {seed}). Type help for help.")
    log.info("text game: new %s against %s, seed %d, rules %s", what, level, seed, options.to_text())
    return table


def _resumed_table(store: Store, saved: GameState | Match, default_level: str, write: Write) -> _Table:
    if isinstance(saved, Match):
        match, single = saved, False
    else:  # a single game, the window's or ours
        match, single = Match(saved.options, saved.seed, saved.names, (), saved), True
    level = level_of(match.names[BOT], default_level)
    table = _Table(store, match, single, level, make_bot(level), write)
    if match.game.is_over:  # saved between two rounds of a match
        table.match = match.next_round()
    where = "" if single else f", round {table.match.round} of {table.rounds}"
    turns = len(table.state.turns)
    played = f"{turns} turn{'s' if turns != 1 else ''} played"
    write(f"Resuming your game against the {level} bot (seed {match.seed}{where}, {played}).")
    log.info("text game: resumed against %s, seed %d%s, %s", level, match.seed, where, played)
    return table


# --- playing ---


class _Quit(Exception):
    """The player typed quit."""


def _play_match(table: _Table, read: Read) -> None:
    while True:
        _play_round(table, read)
        if table.single or table.match.is_over:
            break
        _between_rounds(table)
        table.match = table.match.next_round()
        table.save()
    if not table.single:
        _match_result(table)


def _play_round(table: _Table, read: Read) -> None:
    if not table.state.turns:
        if not table.single:
            table.write(f"\nRound {table.match.round} of {table.rounds}.")
        table.write(f"{table.state.names[table.state.starter]} drew for the start and plays first.")
    while not table.state.is_over:
        if table.state.current == ME:
            _your_turn(table, read)
        else:
            _bot_turn(table)
    _round_result(table)


def _bot_turn(table: _Table) -> None:
    before = table.state
    mover = before.current
    move, after = _bot_move(table, before, mover)
    table.state = after
    table.save()
    name = before.names[mover]
    if isinstance(move, Play):
        table.write(f"\n{name} plays {format_move(move)}")
        table.write(describe(score_play(before.board, move)))
    elif isinstance(move, Exchange):
        n = len(move.tiles)
        table.write(f"\n{name} exchanges {n} tile{'s' if n != 1 else ''}.")
    else:
        table.write(f"\n{name} passes.")


def _bot_move(table: _Table, state: GameState, mover: int) -> tuple[Move, GameState]:
    """The bot's move and the state after it; a move the rules refuse is replaced by the greedy one,
    as in the arena. Under the Joker rule the bot declares what its play is worth."""
    view, rng = state.view(mover), _bot_rng(state)
    move = choose_safely(table.bot, view, rng)
    try:
        return move, state.apply(move, _declared(table, view, move))
    except ValueError as e:  # IllegalMove is a ValueError
        log.warning("the %s bot proposed an illegal move (%s); the greedy move was played", table.level, e)
        move = greedy_move(view, rng)
        return move, state.apply(move, _declared(table, view, move))


def _declared(table: _Table, view: PlayerView, move: Move) -> int | None:
    """What the bot declares for its play under the Joker rule (None: no declaration to make)."""
    if view.options.joker and isinstance(move, Play):
        return table.manners.declare(view, move)
    return None


def _your_turn(table: _Table, read: Read) -> None:
    table.write(_status(table))
    text = read("Your move> ").strip()
    words = text.lower().split()
    if text.lower() in QUIT_WORDS:
        raise _Quit
    if not words or words[0] in ("help", "?"):
        table.write(HELP + ("\n" + JOKER_HELP if table.state.options.joker else ""))
    elif words == ["board"]:
        pass  # the board is drawn again before the next prompt
    elif words == ["hint"]:
        table.write(_hint(table.state))
    elif words[0] == "joker":
        _call_joker(table, words)
    else:
        _your_move(table, text)


def _hint(state: GameState) -> str:
    plays = scored_plays(state.board, state.racks[ME])
    if not plays:
        return "You have no play: pass or exchange."
    best = max(plays, key=lambda ps: ps[1])
    return f"Best scoring play: {best[0]} for {best[1]}"


def _your_move(table: _Table, text: str) -> None:
    before = table.state
    try:
        after = apply_text(before, text)
    except (IllegalMove, NotationError) as e:
        table.write(f"Not allowed: {e}")
        return
    table.state = after
    move = after.turns[-1].move
    if isinstance(move, Play):
        table.write(describe(score_play(before.board, move)))
    _bot_may_call_joker(table)
    table.save()


def _bot_may_call_joker(table: _Table) -> None:
    """After your play the bot calls "Joker" when you declared less than it was worth, as bots do in the arena."""
    state = table.state
    if not state.options.joker:
        return
    for seat in range(state.players):
        if seat != ME and table.manners.should_call(state.view(seat)):
            gain = state.unclaimed
            table.state = state = state.call_joker(seat)
            table.write(f"{state.names[seat]} calls Joker and takes the {gain} points you did not declare.")


def _call_joker(table: _Table, words: list[str]) -> None:
    if words != ["joker"]:
        table.write("Not allowed: type just  joker  to call Joker on the last play.")
        return
    try:
        after = table.state.call_joker(ME)
    except IllegalMove as e:
        table.write(f"Not allowed: {e}")
        return
    gain = after.scores[ME] - table.state.scores[ME]
    table.state = after
    table.save()
    if gain > 0:
        table.write(f"Joker! You take the {gain} points the last play did not declare.")
    else:
        table.write(f"Nothing was missed: the call costs you {-gain} points.")


# --- what is shown ---


def _status(table: _Table) -> str:
    state = table.state
    scores = "   ".join(f"{n}: {s}" for n, s in zip(state.names, state.scores, strict=True))
    lines = [f"\n{state.board}\n", f"{scores}   bag: {state.bag_size()}"]
    if not table.single:
        lines.append(f"Round {table.match.round} of {table.rounds}; {_totals(table.match)} before this round")
    lines.append(f"Your rack: {format_tiles(state.racks[ME])}")
    return "\n".join(lines)


def _totals(match: Match) -> str:
    return "totals " + ", ".join(f"{n} {t}" for n, t in zip(match.names, match.totals, strict=True))


def _round_result(table: _Table) -> None:
    state = table.state
    assert state.outcome is not None
    o = state.outcome
    table.write(_status(table))
    for p, name in enumerate(state.names):
        table.write(f"{name}: {state.scores[p]} - {o.deductions[p]} left on the rack = {o.final_scores[p]}")
    table.write("It's a tie!" if len(o.winners) > 1 else f"{state.names[o.winners[0]]} won.")
    log.info("text game: round over, final scores %s", o.final_scores)


def _between_rounds(table: _Table) -> None:
    match = table.match
    servants = " and ".join(match.names[p] for p in match.servant)
    table.write(f"\nAfter round {match.round} of {table.rounds}: {_totals(match)}.")
    table.write(f"The Servant (the lowest total, who keeps score for the others): {servants}.")


def _match_result(table: _Table) -> None:
    match = table.match
    table.write(f"\nThe match is over after {table.rounds} rounds: {_totals(match)}.")
    winners = match.winners
    table.write("The match is a tie!" if len(winners) > 1 else f"{match.names[winners[0]]} won the match.")


# --- leaving ---


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore Ctrl-C while the game is saved on the way out (only the main thread may do this)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _leave(table: _Table | None, write: Write, why: str, data_dir: Path | None, *, new_line: bool = True) -> None:
    """Save once more (a Ctrl-C may fall between a move and its save) and say how to come back.
    `new_line`: end the line of the prompt first (Ctrl-C or the end of input came in the middle of it)."""
    with _sigint_ignored():
        lead = "\n" if new_line else ""
        if table is None:
            write(f"{lead}{why}: no game had begun.")
            return
        if table.save():
            write(f"{lead}{why}: your game is saved; {resume_command(data_dir)} resumes it.")
        else:
            write(f"{lead}{why}: your game could not be saved ({table.store.errors[-1]}).")
        log.info("text game left (%s) after %d turns", why, len(table.state.turns))


def _terminal_read(prompt: str) -> str:
    """`input`, with a missing or broken standard input taken as the end of input."""
    if sys.stdin is None:
        raise EOFError
    try:
        return input(prompt)
    except OSError as e:  # the terminal went away
        raise EOFError from e


def play_text_game(
    level: str | None = None,
    seed: int | None = None,
    options: RuleOptions | None = None,
    read: Read = _terminal_read,
    write: Write = print,
    *,
    data_dir: Path | None = None,
    new: bool = False,
) -> int:
    """Play in the terminal, you (seat 0) against a bot; the exit code: 0, 1 when the data folder is
    in use by another Crib Tiles, 130 after Ctrl-C.

    The saved game in `data_dir` (None: the user data folder) is resumed unless `new` (or a level or
    seed) asks for a new game; `level` None means the level of the resumed game, or the last chosen."""
    store = Store(data_dir)
    setup_logging(store.folder)
    try:
        note = store.lock()
    except FolderInUse as e:  # the window or another text game has this folder: never write over its game
        log.warning("refused to start: %s", e)
        print(f"cribtiles: {e}", file=sys.stderr)
        return 1
    try:
        if note:
            write(note)
        new = new or level is not None or seed is not None
        return _play(store, level, seed, options or RuleOptions(), new, read, write, data_dir)
    finally:
        store.unlock()


def _play(
    store: Store,
    level: str | None,
    seed: int | None,
    options: RuleOptions,
    new: bool,
    read: Read,
    write: Write,
    data_dir: Path | None,
) -> int:
    table: _Table | None = None
    try:
        table = _open_table(store, level, seed, options, new, write)
        _play_match(table, read)
    except _Quit:
        _leave(table, write, "Goodbye", data_dir, new_line=False)
    except EOFError:
        _leave(table, write, "End of input", data_dir)
    except KeyboardInterrupt:
        _leave(table, write, "Interrupted", data_dir)
        return EXIT_INTERRUPTED
    return 0

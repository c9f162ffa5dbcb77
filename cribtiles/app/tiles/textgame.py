"""A game in the terminal against a bot: the board drawn in text, moves typed in notation.

It is the plain way to play until the window opens (and stays, for terminals and screen readers).
It drives the game through the same `Session` as the window (`cribtiles.table.tiles.session`: seats, the
turn loop, the bots' Joker manners; here the bots choose at once, in this thread) and keeps its
game where the window keeps its own (the data folder, or `--data-dir`): the one saved game is
resumed, by the window or here, and it is saved after every turn, so quitting, Ctrl-C, the end of
input or a closed terminal never lose more than the move being typed. With `rounds=N` it plays
whole matches: round after round, with running totals and the Servant.
"""

from __future__ import annotations

import logging
import random
import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from cribtiles.rules import IllegalMove, NotationError, format_move, parse_move
from cribtiles.rules.game import PlayerView
from cribtiles.rules.moves import Exchange, Move
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.scoring import PlayScore
from cribtiles.rules.tiles import format_tiles
from cribtiles.signals import handling, sigint_ignored
from cribtiles.table.seats import Seat
from cribtiles.table.tiles.history import TurnRecord, why_it_ended
from cribtiles.table.tiles.privacy import hands_over, next_person
from cribtiles.table.tiles.public import PublicMatch
from cribtiles.table.tiles.seen import call_words
from cribtiles.table.tiles.session import InlineThinker, LocalSession, Session
from cribtiles.table.tiles.table import Table
from cribtiles.terminal import for_terminal, say

from ..logs import setup_logging
from ..storage import FolderInUse, Store

log = logging.getLogger("cribtiles.text")

Read = Callable[[str], str]
Write = Callable[[str], None]
Clear = Callable[[], None]

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a Ctrl-C
EXIT_OUT_OF_MEMORY = 1
QUIT_WORDS = ("quit", "exit", "q")

HELP = """Type a play as square=tile pairs, like  f7=4L g7=5D h7=6L  (columns a-m, rows 1-13;
tiles are a rank A 2-9 T J Q K and L for light or D for dark; lay a 6/9 as 6 or 9).
Other commands: pass, exchange 4L 5D, hint (the best play), board, help, quit.
Your game is saved after every turn: quit (or Ctrl-C) and `cribtiles --text` resumes it."""

JOKER_HELP = """Joker rule: a player declares what a play scores, and may count wrong. Add  declare N  to
a play to declare N points (any number: more than it scores stands unless someone calls). Type
joker  to call Joker on the last play, before you move: you take the points it left unclaimed, or
those it claimed over its score, or lose 5 if it was declared right. The bots call on your plays too.
A play's score shows once Joker can no longer be called on it."""


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


def clear_terminal() -> None:
    """Clear the terminal and its scrollback, so that a rack typed at stays hidden from the next
    person at the keyboard (nothing to clear when the output is not a terminal)."""
    if sys.stdout is not None and sys.stdout.isatty():
        sys.stdout.write("\x1b[H\x1b[2J\x1b[3J")
        sys.stdout.flush()


def _print(text: str) -> None:
    """The text mode's output: nothing read from a file or typed (a name, a folder's name) may pass a
    control character to the terminal."""
    print(for_terminal(text))


def resume_command(data_dir: Path | None) -> str:
    return "`cribtiles --text`" if data_dir is None else f"`cribtiles --text --data-dir {data_dir}`"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


# --- the session: the table, the bots, the save ---


@dataclass
class _Session:
    store: Store
    game: LocalSession  # the game, driven only through its Session's questions and acts
    write: Write
    told_save_error: bool = False
    clear: Clear = clear_terminal
    curtain: int | None = None  # several people: the racks wait until this person says they are ready
    hidden: int | None = None  # Joker: the play told by its declaration only, its score to show later

    def name(self, seat: int) -> str:
        return self.game.state.names[seat]

    @property
    def names(self) -> tuple[str, ...]:
        return self.game.state.names

    def save(self) -> bool:
        """Save the table (seats and game or match); say in words, once, when it failed."""
        failed = len(self.store.errors)
        self.game.save()
        if len(self.store.errors) == failed:
            return True
        if not self.told_save_error:
            self.told_save_error = True
            self.write(
                f"Your game could not be saved: {self.store.errors[-1]}. You can play on, "
                "but if you leave now this game is lost."
            )
        return False


def _bot_levels(seats: Sequence[Seat]) -> str:
    levels = [s.level for s in seats if s.level is not None]
    if len(levels) == 1:
        return f"the {levels[0]} bot"
    return f"the {', '.join(levels[:-1])} and {levels[-1]} bots" if levels else "nobody"


# --- starting: a new game, or the saved one ---


def _open(
    store: Store,
    level: str | None,
    seed: int | None,
    options: RuleOptions,
    new: bool,
    write: Write,
    seats: Sequence[Seat] | None = None,
    clear: Clear = clear_terminal,
) -> _Session:
    prefs, notes = store.load_preferences()
    table: Table | None = None
    if not new:
        table, game_note = store.load_table(finished=True)
        notes = " ".join(n for n in (notes, game_note) if n)
        if table is not None and table.match_over and table.round_over:
            _record(store, table, write)  # left at its end before it was recorded; never twice (its key)
            table = None
    else:  # the game this one replaces: an unfinished one is kept in the history, and that is said
        notes = " ".join(n for n in (notes, store.keep_unfinished()) if n)
    if notes:
        write(notes)
    if table is None:
        table = _new_table(seats or (Seat.person("You"), Seat.bot(level or prefs.level)), seed, options, write)
        fresh = True
    else:
        fresh = False
    session = _Session(store, LocalSession(table, InlineThinker(), store), write, clear=clear)
    if not fresh:
        _resume(session)
    session.save()
    return session


def _new_table(seats: Sequence[Seat], seed: int | None, options: RuleOptions, write: Write) -> Table:
    seed = random.randrange(2**31) if seed is None else seed
    table = Table.new(seats, options, seed)
    what = "a game" if options.rounds == 1 else f"a match of {options.rounds} rounds"
    people = [s.name for s in table.seats if s.is_person]
    if len(people) == 1 and people[0] == "You":
        who = f"against {_bot_levels(table.seats)}"
    else:
        who = "for " + ", ".join(s.name for s in table.seats)
    write(f"Crib Tiles: {what} {who} (seed {seed}). Type help for help.")
    log.info("text game: new %s %s, seed %d, rules %s", what, who, seed, options.to_text())
    return table


def _resume(session: _Session) -> None:
    game = session.game
    if _next_is_round(game):  # saved between two rounds of a match
        game.next_round()
    rounds = game.match.options.rounds
    where = f", round {game.match.round} of {rounds}" if rounds > 1 else ""
    played = f"{_plural(len(game.state.turns), 'turn')} played"
    session.write(
        f"Resuming your game against {_bot_levels(game.seats)} (seed {game.table.match.seed}{where}, {played})."
    )
    log.info("text game: resumed, seed %d%s, %s", game.table.match.seed, where, played)


def _next_is_round(game: Session) -> bool:
    """The round is over and the match has rounds still to play."""
    return game.state.is_over and not game.match.is_over


# --- playing ---


class _Quit(Exception):
    """The player typed quit."""


def _play_match(session: _Session, read: Read) -> None:
    game = session.game
    while True:
        _play_round(session, read)
        if game.match.is_over:
            break
        _between_rounds(session)
        game.next_round()
        session.save()
    if game.match.options.rounds > 1:
        _match_result(session)
    said = len(session.store.errors)  # the finished game (or match) goes into the history
    game.finish()
    for message in session.store.errors[said:]:
        session.write(message)


def _record(store: Store, table: Table, write: Write) -> None:
    """Add the finished game (or match) to the history of games; say what went wrong, if anything."""
    said = len(store.errors)
    store.record(table)
    for message in store.errors[said:]:
        write(message)


def _play_round(session: _Session, read: Read) -> None:
    game = session.game
    rounds = game.match.options.rounds
    if not game.state.turns:
        if rounds > 1:
            session.write(f"\nRound {game.match.round} of {rounds}.")
        who = session.name(game.state.starter)
        session.write(f"{who} drew for the start and {'play' if who == 'You' else 'plays'} first.")
    if _several_people(game):  # the first person's rack waits for them, too
        session.curtain = next_person(game.seats, game.state.current)
    while game.to_move is not None:
        if game.to_move not in game.mine:
            _bot_turn(session)
        else:
            _person_turn(session, read)
    _settle(session)  # the end of the round closes the last play's call window
    _round_result(session)


def _bot_turn(session: _Session) -> None:
    """The bot to move chooses (its generator comes from the table: a resumed game goes on exactly as
    if it had never been left) and plays; it declares its score by its level's manners. Its move is
    ready at the session's second poll: the first asks for it, and the bot answers at once."""
    for _ in range(2):
        if session.game.poll() is not None:
            break
    else:
        raise RuntimeError("the bot to move gave no move")
    record = session.game.land()
    session.save()
    _tell(session, record)


def _person_turn(session: _Session, read: Read) -> None:
    game = session.game
    seat = game.to_move
    assert seat is not None
    if session.curtain == seat:
        ready = read(f"Pass to {session.name(seat)}: press Enter when ready> ").strip().lower()
        if ready in QUIT_WORDS:
            raise _Quit
        session.curtain = None
    session.write(_status(session, seat))
    prompt = "Your move> " if len(game.mine) == 1 else f"{session.name(seat)}'s move> "
    text = read(prompt).strip()
    words = text.lower().split()
    if text.lower() in QUIT_WORDS:
        raise _Quit
    if not words or words[0] in ("help", "?"):
        session.write(HELP + ("\n" + JOKER_HELP if game.match.options.joker else ""))
    elif words == ["board"]:
        pass  # the board is drawn again before the next prompt
    elif words == ["hint"]:
        session.write(_hint(game.view(seat)))
    elif words[0] == "joker":
        _call_joker(session, seat, words)
    else:
        _person_move(session, seat, text)


def _hint(view: PlayerView) -> str:
    plays = view.scorer.scored_plays(view.board, view.rack)
    if not plays:
        return "You have no play: pass or exchange."
    best = max(plays, key=lambda ps: ps[1])
    return f"Best scoring play: {best[0]} for {best[1]}"


def parse_declared(text: str) -> tuple[Move, int | None]:
    """A move as typed, with `declare N` after a play under the Joker rule.

    >>> move, declared = parse_declared("f7=4L g7=5D declare 9")
    >>> print(move, declared)
    f7=4L g7=5D 9
    """
    words = text.split()
    if len(words) >= 2 and words[-2].lower() == "declare":
        number = words[-1]
        if not (number.isascii() and number.isdigit() and len(number) <= 4):
            raise NotationError(f"declare a number of points, like  declare 12  (not {number[:20]!r})")
        return parse_move(" ".join(words[:-2])), int(number)
    return parse_move(text), None


def _person_move(session: _Session, seat: int, text: str) -> None:
    try:
        move, declared = parse_declared(text)
        record = session.game.act(seat, move, declared)
    except (IllegalMove, NotationError) as e:
        session.write(f"Not allowed: {e}")
        return
    session.save()
    game = session.game
    if _several_people(game) and hands_over(game.seats, record.player, game.to_move):
        # the rack (and any hint) typed at goes off the screen before the next person sits down
        session.clear()
        session.curtain = next_person(game.seats, game.state.current)
    _tell(session, record)


def _several_people(game: Session) -> bool:
    """People take turns at the keyboard (in Solitaire both sides are one person's)."""
    return len(game.mine) > 1 and not game.match.options.solitaire


def _call_joker(session: _Session, seat: int, words: list[str]) -> None:
    if words != ["joker"]:
        session.write("Not allowed: type just  joker  to call Joker on the last play.")
        return
    try:
        call = session.game.call_joker(seat)
    except IllegalMove as e:
        session.write(f"Not allowed: {e}")
        return
    session.save()
    last = session.game.history[-1] if session.game.history else None
    session.write(call_words(call, last.player if last else seat, session.names))
    _settle(session)


# --- what is shown ---


def _tell(session: _Session, record: TurnRecord) -> None:
    """What a turn did: a play with its breakdown as the table lets it be seen (under the Joker rule,
    while it may be called, only what was declared: counting it is the others' part), a pass or an
    exchange; then the Joker calls made on it, and the score of a play whose call window has closed."""
    _settle(session)  # this turn closed the last play's window
    name, move = session.name(record.player), record.turn.move
    seen = session.game.seen(record)
    if seen is not None:
        verb = "You play" if name == "You" else f"{name} plays"
        declare = "declare" if name == "You" else "declares"
        declares = f" and {declare} {record.declared}" if seen.joker else ""
        session.write(f"\n{verb} {format_move(move)}{declares}")
        if seen.hidden:
            session.hidden = record.number
        elif not seen.joker:
            session.write(describe(seen.score) if seen.score is not None else "")
    elif isinstance(move, Exchange):
        session.write(f"\n{name} exchanges {_plural(record.turn.drawn, 'tile')}.")
    else:
        session.write(f"\n{name} passes.")
    for call in record.calls:
        session.write(call_words(call, record.player, session.names))
    if seen is not None and seen.joker and not seen.hidden:  # called at once: its score shows now
        _write_settled(session, record)


def _settle(session: _Session) -> None:
    """The play told by its declaration only, once Joker can no longer be called on it: its score."""
    number, session.hidden = session.hidden, None
    history = session.game.history
    if number is None or not number < len(history):
        return
    seen = session.game.seen(history[number])
    if seen is not None and seen.hidden:  # still open
        session.hidden = number
        return
    _write_settled(session, history[number])


def _write_settled(session: _Session, record: TurnRecord) -> None:
    seen = session.game.seen(record)
    if seen is None or seen.score is None:
        return
    whose = "Your" if session.name(record.player) == "You" else f"{session.name(record.player)}'s"
    session.write(f"{whose} play {format_move(record.turn.move)} was worth {seen.score.total}: {seen.standing}.")
    session.write(describe(seen.score))


def _status(session: _Session, seat: int) -> str:
    game = session.game
    state = game.state
    scores = "   ".join(f"{n}: {s}" for n, s in zip(state.names, state.scores, strict=True))
    lines = [f"\n{state.board}\n", f"{scores}   bag: {state.bag_size()}"]
    rounds = game.match.options.rounds
    if rounds > 1:
        lines.append(f"Round {game.match.round} of {rounds}; {_totals(game.match)} before this round")
    whose = "Your rack" if len(game.mine) == 1 else f"{state.names[seat]}'s rack"
    lines.append(f"{whose}: {format_tiles(game.view(seat).rack)}")
    return "\n".join(lines)


def _totals(match: PublicMatch) -> str:
    return "totals " + ", ".join(f"{n} {t}" for n, t in zip(match.names, match.totals, strict=True))


def _round_result(session: _Session) -> None:
    state = session.game.state
    assert state.outcome is not None
    o = state.outcome
    session.write(f"\n{state.board}\n")
    session.write(why_it_ended(o, state.names))
    for p, name in enumerate(state.names):
        session.write(f"{name}: {state.scores[p]} - {o.deductions[p]} left on the rack = {o.final_scores[p]}")
    session.write("It's a tie!" if len(o.winners) > 1 else f"{state.names[o.winners[0]]} won.")
    log.info("text game: round over, final scores %s", o.final_scores)


def _between_rounds(session: _Session) -> None:
    match = session.game.match
    servants = " and ".join(match.names[p] for p in match.servant)
    session.write(f"\nAfter round {match.round} of {match.options.rounds}: {_totals(match)}.")
    session.write(f"The Servant (the lowest total, who keeps score for the others): {servants}.")


def _match_result(session: _Session) -> None:
    match = session.game.match
    session.write(f"\nThe match is over after {match.options.rounds} rounds: {_totals(match)}.")
    winners = match.winners
    session.write("The match is a tie!" if len(winners) > 1 else f"{match.names[winners[0]]} won the match.")


# --- leaving ---


def _leave(session: _Session | None, write: Write, why: str, data_dir: Path | None, *, new_line: bool = True) -> None:
    """Save once more (a Ctrl-C may fall between a move and its save) and say how to come back.
    `new_line`: end the line of the prompt first (Ctrl-C or the end of input came in the middle of it)."""
    with sigint_ignored():
        lead = "\n" if new_line else ""
        if session is None:
            write(f"{lead}{why}: no game had begun.")
            return
        if session.save():
            write(f"{lead}{why}: your game is saved; {resume_command(data_dir)} resumes it.")
        else:
            write(f"{lead}{why}: your game could not be saved ({session.store.errors[-1]}).")
        log.info("text game left (%s) after %s", why, _plural(len(session.game.state.turns), "turn"))


def _terminal_read(prompt: str) -> str:
    """`input`, with a missing or broken standard input taken as the end of input."""
    if sys.stdin is None:
        raise EOFError
    try:
        return input(for_terminal(prompt))  # a prompt names the player
    except OSError as e:  # the terminal went away
        raise EOFError from e


def play_text_game(
    level: str | None = None,
    seed: int | None = None,
    options: RuleOptions | None = None,
    read: Read = _terminal_read,
    write: Write = _print,
    *,
    data_dir: Path | None = None,
    new: bool = False,
    seats: Sequence[Seat] | None = None,
    clear: Clear = clear_terminal,
) -> int:
    """Play in the terminal, you (seat 0) against a bot, or at a table of `seats` (people take their
    turns at the one keyboard); the exit code: 0, 1 when the data folder is in use by another Crib
    Tiles, 130 after Ctrl-C.

    The saved game in `data_dir` (None: the user data folder) is resumed unless `new` (or a level or
    seed) asks for a new game; `level` None means the bot of the resumed game, or the last one chosen.
    With several people, each rack waits behind "Pass to Ben: press Enter when ready", and after a
    person's turn `clear` (the terminal's screen and scrollback) takes their rack off the screen."""
    store = Store(data_dir)
    setup_logging(store.folder)
    try:
        note = store.lock()
    except FolderInUse as e:  # the window or another text game has this folder: never write over its game
        log.warning("refused to start: %s", e)
        say(f"cribtiles: {e}")
        return 1
    try:
        if note:
            write(note)
        new = new or level is not None or seed is not None or seats is not None
        return _play(store, level, seed, options or RuleOptions(), new, read, write, data_dir, seats, clear)
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
    seats: Sequence[Seat] | None = None,
    clear: Clear = clear_terminal,
) -> int:
    session: _Session | None = None
    try:
        with handling(("SIGTERM", "SIGHUP"), _stop):
            session = _open(store, level, seed, options, new, write, seats, clear)
            _play_match(session, read)
    except _Quit:
        _leave(session, write, "Goodbye", data_dir, new_line=False)
        return 0
    except EOFError:
        _leave(session, write, "End of input", data_dir)
        return 0
    except KeyboardInterrupt:
        _leave(session, write, "Interrupted", data_dir)
        return EXIT_INTERRUPTED
    except _Stopped as e:
        _leave(session, write, f"Stopped by {e.signal.name}", data_dir)
        return 128 + int(e.signal)
    except MemoryError:  # left below, once the frames of what ran out (a bot's search) are let go
        pass
    else:
        return 0
    log.error("text game: out of memory")
    _leave(session, write, "Out of memory", data_dir)
    return EXIT_OUT_OF_MEMORY


class _Stopped(BaseException):
    """SIGTERM or SIGHUP (a closed terminal): leave as after Ctrl-C, the game saved. Like Ctrl-C's
    KeyboardInterrupt it is no Exception, so that a bot thinking when it comes (in this thread) does
    not take it for a failure of its own and play on: the game stops at once."""

    def __init__(self, sig: signal.Signals) -> None:
        super().__init__(sig.name)
        self.signal = sig


def _stop(signum: int, _frame: object) -> None:
    raise _Stopped(signal.Signals(signum))

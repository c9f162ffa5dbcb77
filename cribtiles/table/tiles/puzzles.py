"""Puzzles, "find the best play": positions from the bots' own games where one play scores far more
than the obvious one, and is the only play that scores so much. Pure: no pygame.

`python -m cribtiles.table.tiles.puzzles --make 40` plays seeded Hard v Hard games, keeps the positions that
qualify, and writes a curated set, easiest first, to `data/puzzles.json` (shipped with the package).

What the words mean here:
- the **best play** of a position: the play that scores the most. A position is a puzzle only when it
  is unique: every other legal play scores less (so the answer is one play, and an answer that scores
  as much is that play).
- the **obvious play**: the best play a player finds by scanning single lines, that is the best play
  that scores one line only (no placed tile touches a tile across the play: findability's "forms no
  cross lines"). A position is a puzzle when the best play scores at least `RATIO` times the obvious
  one and at least `MARGIN` points more; a position without any one-line play has no bar, and is none.
- **easy to hard**: by how often a casual player notices the best play (Easy's findability: fewer tiles
  and no cross lines are seen more often) and how many legal plays there are to look through; the
  levels' bounds are `EASY_CHANCE` ... below.
- a puzzle is scored by the standard rules (`SCORER`, bonuses on), whatever the options of the game its
  position came from: a puzzle is a board and a rack, and the set ships without rule options.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import random
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path

from cribtiles.bot.tiles.findability import EASY, forms_cross_lines
from cribtiles.bot.tiles.levels import make_bot
from cribtiles.quoting import quoted
from cribtiles.rules.board import Board
from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.game import GameState, new_game
from cribtiles.rules.match import Match
from cribtiles.rules.moves import Play, format_rack, parse_move, parse_rack
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.scorer import STANDARD_SCORER
from cribtiles.rules.tiles import Tile, full_set, rack_counter

from ..seats import Seat
from .table import Table

log = logging.getLogger("cribtiles.puzzles")

#: The best play scores at least RATIO times the obvious play's score, and MARGIN points more.
RATIO = 2
MARGIN = 8
#: The bots whose games the puzzles come from, seat by seat.
LEVELS = ("hard", "hard")
#: At most this many puzzles are taken from one game, so that a set shows many boards.
PER_GAME = 1
DATA_FILE = "puzzles.json"
FORMAT = 1  # the version of the file's layout
#: The levels: a puzzle is "easy" when Easy's findability notices its best play at least EASY_CHANCE
#: of the time among at most EASY_PLAYS legal plays, "medium" at MEDIUM_CHANCE and MEDIUM_PLAYS, else
#: "hard". (The best play always forms cross lines, else it would be the obvious one, so the chance is
#: Easy's by tile count, halved: 0.46 for one tile, 0.325 for two, 0.2 for three, 0.1 for four.)
EASY_CHANCE, EASY_PLAYS = 0.3, 100
MEDIUM_CHANCE, MEDIUM_PLAYS = 0.2, 500
LEVEL_WORDS = ("easy", "medium", "hard")
#: How every puzzle is scored: by the standard rules.
SCORER = STANDARD_SCORER


@dataclass(frozen=True)
class Puzzle:
    """One position: the board and the rack of the player to move, the best play and the obvious one
    with their scores, and where it came from (the seed of the bots' game and the turns before it)."""

    id: str
    board: str  # the board text of rules.md 7
    rack: str  # the rack text of the player to move
    seat: int  # whose turn it was in the bots' game (0: the first seat), whose rack `rack` is
    players: tuple[str, ...]  # the bots of that game, seat by seat
    best: str  # the best play, in notation
    best_score: int
    obvious: str  # the obvious play (the best one-line play), in notation
    obvious_score: int
    seed: int  # the bots' game: `Table.new(seats, seed=seed)`
    turn: int  # the turns played before the position
    plays: int  # how many legal plays the rack has there
    chance: float  # how often Easy's findability notices the best play (lower: harder)

    @property
    def position(self) -> Board:
        return Board.from_text(self.board)

    @property
    def rack_tiles(self) -> tuple[Tile, ...]:
        return parse_rack(self.rack)

    @property
    def best_play(self) -> Play:
        return _play(self.best)

    @property
    def obvious_play(self) -> Play:
        return _play(self.obvious)

    @property
    def level(self) -> str:
        """ "easy", "medium" or "hard", by how often the best play is noticed."""
        if self.chance >= EASY_CHANCE and self.plays <= EASY_PLAYS:
            return "easy"
        return "medium" if self.chance >= MEDIUM_CHANCE and self.plays <= MEDIUM_PLAYS else "hard"

    def as_dict(self) -> dict[str, object]:
        data = asdict(self)
        data["players"] = list(self.players)
        return data

    @classmethod
    def from_dict(cls, data: object) -> Puzzle:
        """A puzzle read back from the file; ValueError, in words, when a field is missing or wrong."""
        if not isinstance(data, dict):
            raise ValueError("a puzzle is an object")
        texts = ("id", "board", "rack", "best", "obvious")
        numbers = ("seat", "best_score", "obvious_score", "seed", "turn", "plays")
        for name in texts:
            if not isinstance(data.get(name), str):
                raise ValueError(f"a puzzle's {name} is text")
        for name in numbers:
            value = data.get(name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"a puzzle's {name} is a whole number")
        players, chance = data.get("players"), data.get("chance")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ValueError("a puzzle's players are a list of bot levels")
        if not isinstance(chance, (int, float)) or isinstance(chance, bool):
            raise ValueError("a puzzle's chance is a number")
        puzzle = cls(
            id=data["id"],
            board=data["board"],
            rack=data["rack"],
            seat=data["seat"],
            players=tuple(players),
            best=data["best"],
            best_score=data["best_score"],
            obvious=data["obvious"],
            obvious_score=data["obvious_score"],
            seed=data["seed"],
            turn=data["turn"],
            plays=data["plays"],
            chance=float(chance),
        )
        try:  # the texts must read as what they say
            puzzle.position, puzzle.rack_tiles, puzzle.best_play, puzzle.obvious_play  # noqa: B018
        except ValueError as e:
            raise ValueError(f"puzzle {puzzle.id}: {e}") from e
        return puzzle


def _play(text: str) -> Play:
    move = parse_move(text)
    if not isinstance(move, Play):
        raise ValueError(f"{quoted(text)} is not a play")
    return move


# --- finding them ---


def one_line(board: Board, play: Play) -> bool:
    """Whether the play scores one line only: what a player scanning single lines finds."""
    return not forms_cross_lines(board, play)


def obvious_of(board: Board, plays: Sequence[tuple[Play, int]]) -> tuple[Play, int] | None:
    """The obvious play among the scored `plays` of `board`: the best one-line play (of equals, the
    first in notation order, so the choice is always the same), or None when there is none."""
    single = [(p, s) for p, s in plays if one_line(board, p)]
    if not single:
        return None
    return min(single, key=lambda ps: (-ps[1], str(ps[0])))


def far_more(best: int, obvious: int) -> bool:
    """The best play scores far more than the obvious one."""
    return best >= RATIO * obvious and best >= obvious + MARGIN


def puzzle_id(seed: int, turn: int, board: str, rack: str) -> str:
    """A puzzle's id: its game's seed and turn, and a short digest of its position. A player's solved
    puzzles are remembered by id, so a set made again from other games (the bots changed) must not
    give a new position an old id: `s41t1-…` names one board and rack only."""
    digest = hashlib.blake2s(f"{board}|{rack}".encode(), digest_size=3).hexdigest()
    return f"s{seed}t{turn}-{digest}"


def puzzle_at(state: GameState, seed: int, players: Sequence[str]) -> Puzzle | None:
    """The puzzle at the position of `state` for the player to move, or None when it is not one: the
    first play (on an empty board every spot is alike), no legal play, a best play that is not unique,
    or one that does not score far more than the obvious play."""
    board = state.board
    if board.is_empty() or state.is_over:
        return None
    rack = state.racks[state.current]
    plays = SCORER.scored_plays(board, rack)
    if not plays:
        return None
    ranked = sorted(plays, key=lambda ps: -ps[1])
    best, best_score = ranked[0]
    if len(ranked) > 1 and ranked[1][1] == best_score:
        return None
    obvious = obvious_of(board, plays)
    if obvious is None or not far_more(best_score, obvious[1]):
        return None
    turn = len(state.turns)
    return Puzzle(
        id=puzzle_id(seed, turn, board.to_text(), format_rack(rack)),
        board=board.to_text(),
        rack=format_rack(rack),
        seat=state.current,
        players=tuple(players),
        best=str(best),
        best_score=best_score,
        obvious=str(obvious[0]),
        obvious_score=obvious[1],
        seed=seed,
        turn=turn,
        plays=len(plays),
        chance=round(EASY.chance(board, best), 4),
    )


def move_rng(seed: int, turn: int) -> random.Random:
    """The generator of one bot move of a puzzle game (string seeding is the same in every process)."""
    return random.Random(f"cribtiles-puzzles/{seed}/{turn}")


def positions(seed: int, levels: Sequence[str] = LEVELS) -> Iterator[GameState]:
    """Every position of the bots' game `seed`, each before its move, to the end of the game."""
    seats = [Seat.bot(level, f"{level.capitalize()} {i + 1}") for i, level in enumerate(levels)]
    table = Table.new(seats, RuleOptions(), seed=seed)
    bots = [make_bot(level) for level in levels]
    while not table.round_over:
        state = table.state
        yield state
        p = state.current
        table.play_bot(bots[p].choose(table.view(p), move_rng(seed, len(state.turns))))


def find_puzzles(seed: int, levels: Sequence[str] = LEVELS) -> list[Puzzle]:
    """The puzzles of the bots' game `seed`, in the order they came up."""
    found = []
    for state in positions(seed, levels):
        puzzle = puzzle_at(state, seed, levels)
        if puzzle is not None:
            found.append(puzzle)
    return found


def difficulty(puzzle: Puzzle) -> tuple[int, float, int, str]:
    """The key that orders puzzles easy to hard (see the module's words): by level, then by the chance
    of noticing the best play, then by the number of legal plays."""
    return (LEVEL_WORDS.index(puzzle.level), -puzzle.chance, puzzle.plays, puzzle.id)


def pick(found: Sequence[Puzzle], per_game: int = PER_GAME) -> list[Puzzle]:
    """The puzzles of one game worth keeping: the widest gaps between best and obvious first."""
    return sorted(found, key=lambda p: (-(p.best_score - p.obvious_score), p.turn))[:per_game]


def make_set(count: int, first_seed: int = 1, max_games: int = 1000, progress: bool = False) -> list[Puzzle]:
    """`count` puzzles from the bots' games of seeds `first_seed`, `first_seed` + 1 ... (at most
    `max_games` of them), `PER_GAME` at most from each, ordered easy to hard."""
    chosen: list[Puzzle] = []
    seed = first_seed
    while len(chosen) < count and seed < first_seed + max_games:
        chosen += pick(find_puzzles(seed))[: count - len(chosen)]
        if progress:
            print(f"\rgame {seed - first_seed + 1}: {len(chosen)} of {count} puzzles", end="", file=sys.stderr)
        seed += 1
    if progress:
        print(file=sys.stderr)
    return sorted(chosen, key=difficulty)


# --- the answers ---


@dataclass(frozen=True)
class Verdict:
    """A player's answer scored against the best: what it scores (None when the rules refuse it, or
    its tiles are not on the rack), the best score, whether it is the best play, and all of it in words."""

    play: str
    points: int | None
    best: int
    found: bool
    words: str


def check_answer(puzzle: Puzzle, play: Play | str) -> Verdict:
    """Score `play` on the puzzle's board against its best play.

    The best play is the only one that scores `best_score`, so an answer is found when it scores that."""
    try:
        answer = _play(play) if isinstance(play, str) else play
    except ValueError as e:
        return Verdict(str(play), None, puzzle.best_score, False, f"That is not a play: {e}.")
    missing = rack_counter(answer.tiles) - rack_counter(puzzle.rack_tiles)
    if missing:
        tiles = " ".join(str(t) for t in sorted(missing.elements()))
        return Verdict(str(answer), None, puzzle.best_score, False, f"Those tiles are not all on your rack: {tiles}.")
    try:
        points = SCORER.score(puzzle.position, answer).total
    except IllegalMove as e:
        return Verdict(str(answer), None, puzzle.best_score, False, f"The rules refuse that play: {e}.")
    best = puzzle.best_score
    if points == best:
        words = f"You found it: {puzzle.best} for {best}, the best play here."
        return Verdict(str(answer), points, best, True, words)
    words = f"You found {points}: the best is {best} — {puzzle.best}."
    return Verdict(str(answer), points, best, False, words)


# --- the puzzle at a table ---


def puzzle_state(puzzle: Puzzle, names: Sequence[str] = ("You", "Hard")) -> GameState:
    """The puzzle as a game at a table: its board, your rack and your turn; the opponent's rack and
    the bag hold the tiles that are neither on the board nor on your rack, in the set's order."""
    board = puzzle.position
    rack = puzzle.rack_tiles
    rest = rack_counter(full_set()) - rack_counter(rack) - rack_counter(t for _, t in board.tiles())
    unseen = tuple(sorted(rest.elements()))
    base = new_game(2, RuleOptions(), puzzle.seed, tuple(names))
    return GameState(
        options=base.options,
        seed=base.seed,
        names=base.names,
        board=board,
        racks=(rack, unseen[-5:]),
        bags=(unseen[:-5],),
        scores=(0, 0),
        current=0,
        start_draws=base.start_draws,
        starter=0,
    )


def puzzle_table(puzzle: Puzzle) -> Table:
    """You against Hard at the puzzle's position, your turn."""
    state = puzzle_state(puzzle)
    seats = (Seat.person("You"), Seat.bot("hard"))
    return Table(seats, Match(state.options, state.seed, state.names, (), state), history=[])


# --- the file ---


def to_json(puzzles: Iterable[Puzzle]) -> str:
    data = {
        "format": FORMAT,
        "about": (
            f"Crib Tiles puzzles from {'-'.join(LEVELS)} games: the best play is unique and scores at least "
            f"{RATIO}x and {MARGIN} points more than the best one-line play; easy to hard. "
            "Made by python -m cribtiles.table.tiles.puzzles --make N."
        ),
        "puzzles": [p.as_dict() for p in puzzles],
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def from_json(text: str) -> tuple[Puzzle, ...]:
    """The puzzles of a file's text; ValueError, in words, when it cannot be read."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"the puzzles are not JSON ({e})") from e
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("puzzles"), list):
        raise ValueError(f"the puzzles' file is not of format {FORMAT}")
    puzzles = tuple(Puzzle.from_dict(p) for p in data["puzzles"])
    ids = [p.id for p in puzzles]
    if len(set(ids)) != len(ids):
        raise ValueError("two puzzles have the same id")
    return puzzles


def shipped_path() -> Path:
    return Path(__file__).with_name("data") / DATA_FILE


def shipped_puzzles() -> tuple[Puzzle, ...]:
    """The puzzles shipped with the package; none (logged) when the file is missing or damaged."""
    try:
        text = resources.files("cribtiles.table.tiles").joinpath("data", DATA_FILE).read_text(encoding="utf-8")
        return from_json(text)
    except (OSError, ValueError) as e:
        log.warning("the puzzles could not be read: %s", e)
        return ()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cribtiles.table.tiles.puzzles", description=__doc__.split("\n")[0])
    parser.add_argument("--make", type=int, metavar="N", required=True, help="how many puzzles to make (30-60)")
    parser.add_argument("--first-seed", type=int, default=1, help="the seed of the first bots' game (default 1)")
    parser.add_argument("--out", type=Path, default=None, help=f"where to write them (default: data/{DATA_FILE})")
    args = parser.parse_args(argv)
    if not 1 <= args.make <= 500:
        parser.error("--make: from 1 to 500 puzzles")
    puzzles = make_set(args.make, args.first_seed, progress=True)
    out = args.out or shipped_path()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(to_json(puzzles), encoding="utf-8")
    levels = {lv: sum(1 for p in puzzles if p.level == lv) for lv in LEVEL_WORDS}
    print(f"{len(puzzles)} puzzles ({', '.join(f'{n} {lv}' for lv, n in levels.items())}) written to {out}")
    return 0 if len(puzzles) == args.make else 1


if __name__ == "__main__":
    sys.exit(main())

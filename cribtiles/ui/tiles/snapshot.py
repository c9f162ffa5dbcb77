"""What the table looks like at one moment: a read-only snapshot that the scene builds each frame and
every drawing function reads (Tuxemon's contract: drawing changes nothing). Views import this
module, never the scene, so no drawing module imports the scene that imports it back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from cribtiles.bot.coach import ExchangeAdvice, Suggestion, TilesOut
from cribtiles.rules.board import BLOCKED, Board, Square
from cribtiles.rules.game import JokerCall, Turn
from cribtiles.rules.scoring import PlayScore
from cribtiles.rules.tiles import Tile
from cribtiles.table.seats import Seat
from cribtiles.table.tiles.public import PublicMatch, PublicState
from cribtiles.table.tiles.seen import SeenScore

from ..again import AgainQuestion
from ..chat import ChatView
from ..geometry import Layout, Point, Rect
from .preview import Preview

Frozen = MappingProxyType


@dataclass(frozen=True)
class DraftView:
    """The person's tiles this turn, as they lie: ids on the rack, ids on squares, faces, marks."""

    tiles: tuple[Tile, ...]
    order: tuple[int, ...]
    placed: Mapping[Square, int]
    faces: Mapping[int, Tile]
    held: int | None
    marked: frozenset[int]

    def face(self, tile_id: int) -> Tile:
        return self.faces[tile_id]

    def is_free(self, board: Board, square: Square) -> bool:
        return square not in BLOCKED and board[square] is None and square not in self.placed


@dataclass(frozen=True)
class Flight:
    """A bot's tile on its way from the bot's rack to a square."""

    tile: Tile
    start: Point
    square: Square
    t0: float
    duration: float


@dataclass(frozen=True)
class Breakdown:
    """A play's score, explained: who, the engine's PlayScore, and when it appeared (its rows are
    read out one by one). `seen`: what the people at the table may see of it now (the table's rule:
    under the Joker rule only the declaration while the play may be called); the panel draws that."""

    player: int
    score: PlayScore
    shown_at: float = -1e9
    number: int | None = None  # the turn it is (None: a score shown outside a game's turns)
    seen: SeenScore | None = None


@dataclass(frozen=True)
class FlipAnim:
    before: Tile
    t0: float


@dataclass(frozen=True)
class PegView:
    """Where one player's pegs stand on the peg board this frame."""

    back: int
    shown: float
    moving: bool
    waiting: bool


@dataclass(frozen=True)
class Buttons:
    """What the buttons may do now."""

    can_play: bool
    can_pass: bool
    can_exchange: bool
    exchange_ready: bool
    may_pass: bool  # the player to move is stuck (or exchanges are allowed at any time)
    no_play: bool = False  # the player to move, one of this window's, has no legal play


@dataclass(frozen=True)
class DeclaringView:
    """A person counting their play under the Joker rule: what they found, pointed at and typed."""

    found: tuple[tuple[str, int], ...]
    points: int
    typed: str
    claimed: frozenset[Square]
    pointed: frozenset[Square]


@dataclass(frozen=True)
class PastTurn:
    """A turn of the game shown again: the board right after it, its squares, its breakdown."""

    number: int
    player: int
    board: Board
    squares: tuple[Square, ...]
    score: PlayScore | None
    words: str  # what it was, for a pass or an exchange
    seen: SeenScore | None = None  # what the table may see of its score (`Breakdown.seen`)


@dataclass(frozen=True)
class ReplayView:
    """A recorded game stepped through (the replay scene): which round, how many turns made so far."""

    round: int  # 1-based
    rounds: int  # the rounds of the record
    at: int  # the turns made so far (0: the racks as dealt)
    turns: tuple[Turn, ...]  # every turn of the round, for the list to jump to
    start: str  # who starts and why, shown before the first turn
    can_export: bool
    typed: str = ""  # a turn number being typed to jump to
    calls: tuple[tuple[int, JokerCall], ...] = ()  # every Joker call of the round, for the list


@dataclass(frozen=True)
class CoachView:
    """The coach at the table this frame: its buttons, the hint ghosted on the board, the exchange
    advice, the candidate plays (with the Expert's progress), the tiles still out."""

    may_ask: bool  # a hint may be asked for now (the settings, the game's limit, the turn)
    hints_on: bool  # the settings allow hints: the coach's buttons are shown
    stuck: bool  # no play: the hint is the exchange advice
    hint: Suggestion | None = None
    advice: ExchangeAdvice | None = None
    candidates: tuple[Suggestion, ...] | None = None  # the candidate panel, when open
    chosen: int | None = None  # the candidate laid on the board
    progress: tuple[int, int] | None = None  # the Expert's rollouts while it runs: (done, likely in all)
    expert_ran: bool = False
    failure: str = ""  # why the Expert's evaluation gave no answer
    tiles_out: tuple[TilesOut, ...] | None = None  # shown when not None
    hints_used: int = 0
    hint_limit: int = 0  # 0: no limit

    @property
    def key(self) -> tuple[object, ...]:
        """What the side panel's rows depend on (the rows are laid out again when it changes)."""
        return (
            id(self.hint),
            id(self.advice),
            self.candidates is not None,
            self.tiles_out,
            self.may_ask,
            self.hints_on,
            self.stuck,
        )


@dataclass(frozen=True)
class UndoQuestion:
    """A request to take back a move, as this window shows it: the words, the keys, and the labels of
    the buttons that answer it in the Play and Pass buttons' places (None: that one keeps its own)."""

    text: str
    keys: str = ""
    yes: str | None = None  # "Allow"
    no: str | None = None  # "Refuse", or the asker's "Withdraw"


@dataclass(frozen=True)
class TableSnapshot:
    layout: Layout
    now: float
    pace: float
    mouse: tuple[int, int]
    state: PublicState
    seats: tuple[Seat, ...]
    human: int  # the seat whose rack is shown
    my_turn: bool
    busy: bool  # a bot's tiles are on their way
    thinking: bool
    draft: DraftView
    pos: Mapping[int, tuple[float, float, float]]  # tile id -> drawn x, y, size
    rest: Mapping[int, Rect]  # tile id -> where it rests (rack slot or square)
    grab: tuple[float, float]
    lift: tuple[float, float]
    held_centre: Point
    live: Preview | None
    breakdown: Breakdown | None
    rows_shown: int | None  # rows of the breakdown read out so far (None: all)
    hover_rows: tuple[Square, ...]
    flights: tuple[Flight, ...]
    flips: Mapping[int, FlipAnim]
    pegs: tuple[PegView, ...]
    exchanging: bool
    keyboard: bool
    cursor: Square
    selected: int
    help: bool
    toasts: tuple[str, ...]
    buttons: Buttons
    next_level: str  # the bot a new game would seat, for the end card
    next_is_round: bool  # the round is over and the match goes on
    curtain: str | None = None  # hot seat: the racks are hidden until this person is ready
    declaring: DeclaringView | None = None  # Joker: the person counts their play
    may_call: bool = False  # Joker: the person shown may call on the last play
    hide_scores: bool = False  # Joker: a person's play is not scored for them before they declare
    past: PastTurn | None = None  # a turn clicked in the turn list, shown with the board as it was
    turn_scroll: int = 0  # turns of the list scrolled past (newest first)

    @property
    def board(self) -> Board:
        """The board to draw: as it was after the turn shown again, or as it is."""
        return self.past.board if self.past is not None else self.state.board

    match: PublicMatch | None = None  # the rounds so far, their running totals and the Servant
    racks_counted: bool = False  # the end: the racks are counted off, the scores are the final ones
    undo_shown: bool = False  # the Undo button is shown (the setting is on and a bot sits at the table)
    can_undo: bool = False  # ... and the person shown may take back their last turn now
    confirming: str | None = None  # "confirm before play": the question asked ("Play f7=5D for 12?")
    replay: ReplayView | None = None  # a recorded game stepped through: nothing here is played
    coach: CoachView | None = None  # the coach's buttons and what it shows (None: no coach here)
    opening: str = ""  # who starts and why (the draw for the start), shown through the first round of turns
    peg_totals: bool = False  # a match: the peg board shows the running match totals, not the round's scores
    you: int | None = None  # the seat called "You": the only person at a table of bots (whoever's rack is shown)
    about: tuple[str, ...] = ()  # a table online: what it says of each seat, in words ("away 3 min"; "": nothing)
    clock: str = ""  # a table online with a turn timer: what the seat to move has left ("1:20 left")
    plays_again: bool = True  # the end card's button starts a new game here (online: asks the others)
    again: AgainQuestion | None = None  # online, once over: playing again, as this window is asked it
    watching: bool = False  # a table online watched from no seat: every seat's plate, no rack, nothing to play
    undo_asked: UndoQuestion | None = None  # a request to take back a move waits for answers
    chat: ChatView | None = None  # a table online: the line being typed, if any (None: no chat here)

    def tile_rect_for(self, tile_id: int) -> Rect | None:
        return self.rest.get(tile_id)

"""The player's tiles this turn and the drag-and-drop state machine that moves them.

`Draft` only *proposes*: it knows which rack tile lies on which square and which face a 6/9 shows,
and turns that into a `Play` for the rules engine to judge. It never decides whether a play is legal.
Tiles are named by an id (their index in the rack dealt for this turn), so two equal tiles stay apart.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import Enum

from cribtiles.rules.board import BLOCKED, Board, Square
from cribtiles.rules.moves import Exchange, Play
from cribtiles.rules.tiles import Tile


class Drop(Enum):
    """What became of a dropped tile."""

    PLACED = "placed"  # it lies on a square now
    RACKED = "racked"  # it went (back) into the rack at a chosen slot
    RETURNED = "returned"  # the drop was refused: it glides back where it came from


@dataclass(frozen=True)
class FromRack:
    slot: int


@dataclass(frozen=True)
class FromBoard:
    square: Square


Origin = FromRack | FromBoard


@dataclass
class Draft:
    """The rack of the player to move and the tiles they have laid on the board, not yet played."""

    tiles: tuple[Tile, ...]  # the rack as dealt this turn, in rack form; ids index this
    order: list[int] = field(default_factory=list)  # ids on the rack, left to right
    placed: dict[Square, int] = field(default_factory=dict)  # square -> id, laid this turn
    faces: dict[int, Tile] = field(default_factory=dict)  # id -> the face it shows (6 or 9)
    held: int | None = None  # the id being dragged
    origin: Origin | None = None
    marked: set[int] = field(default_factory=set)  # ids chosen for an exchange
    before: list[int] = field(default_factory=list)  # the rack's order when the first tile left it for the board

    @classmethod
    def deal(cls, rack: tuple[Tile, ...], order: list[int] | None = None) -> Draft:
        """A fresh draft for `rack`; `order` keeps the player's own arrangement if it still fits."""
        tiles = tuple(t.rack_form for t in rack)
        ids = list(range(len(tiles)))
        if order is None or sorted(order) != ids:
            order = ids
        return cls(tiles, list(order), {}, {i: t for i, t in enumerate(tiles)})

    # --- questions ---

    def face(self, tile_id: int) -> Tile:
        return self.faces[tile_id]

    def square_of(self, tile_id: int) -> Square | None:
        for s, i in self.placed.items():
            if i == tile_id:
                return s
        return None

    def rack_ids(self) -> list[int]:
        """The ids on the rack, left to right (the held tile is on neither rack nor board)."""
        return list(self.order)

    def proposal(self) -> Play | None:
        """The play the tiles on the board propose, or None if there are none."""
        if not self.placed:
            return None
        return Play.of((s, self.faces[i]) for s, i in self.placed.items())

    def exchange(self) -> Exchange | None:
        return Exchange.of(self.tiles[i] for i in sorted(self.marked)) if self.marked else None

    def is_free(self, board: Board, square: Square) -> bool:
        return square not in BLOCKED and board[square] is None and square not in self.placed

    # --- picking up ---

    def pick_from_rack(self, slot: int) -> int | None:
        """Lift the tile in rack slot `slot`; returns its id (None for an empty slot)."""
        if self.held is not None or not 0 <= slot < len(self.order):
            return None
        self._remember()
        self.held = self.order.pop(slot)
        self.origin = FromRack(slot)
        return self.held

    def pick_from_board(self, square: Square) -> int | None:
        """Lift a tile laid this turn (tiles of earlier turns stay put)."""
        if self.held is not None or square not in self.placed:
            return None
        self.held = self.placed.pop(square)
        self.origin = FromBoard(square)
        return self.held

    # --- dropping ---

    def drop_on_square(self, board: Board, square: Square | None) -> Drop:
        """Drop the held tile on a square: it snaps there if the square is free, else goes back."""
        if self.held is None:
            return Drop.RETURNED
        if square is None or not self.is_free(board, square):
            return self.cancel()
        self.placed[square] = self.held
        self.marked.discard(self.held)
        self._release()
        return Drop.PLACED

    def drop_on_rack(self, slot: int) -> Drop:
        """Drop the held tile into the rack before the tile now in `slot` (reordering the rack)."""
        if self.held is None:
            return Drop.RETURNED
        self.order.insert(max(0, min(slot, len(self.order))), self.held)
        self._release()
        return Drop.RACKED

    def cancel(self) -> Drop:
        """Put the held tile back where it was picked up."""
        if self.held is None:
            return Drop.RETURNED
        if isinstance(self.origin, FromBoard):
            self.placed[self.origin.square] = self.held
        else:
            slot = self.origin.slot if isinstance(self.origin, FromRack) else len(self.order)
            self.order.insert(min(slot, len(self.order)), self.held)
        self._release()
        return Drop.RETURNED

    def _release(self) -> None:
        self.held = None
        self.origin = None

    # --- whole-rack actions ---

    def place(self, tile_id: int, board: Board, square: Square) -> bool:
        """Put a rack tile straight on a square (the keyboard's way); False if it cannot go there."""
        if self.held is not None or tile_id not in self.order or not self.is_free(board, square):
            return False
        self._remember()
        self.order.remove(tile_id)
        self.placed[square] = tile_id
        self.marked.discard(tile_id)
        return True

    def take_back(self, square: Square) -> int | None:
        """Return the tile laid on `square` this turn to the rack slot it came from."""
        tile_id = self.placed.pop(square, None)
        if tile_id is not None:
            self._home([tile_id])
        return tile_id

    def recall(self) -> list[int]:
        """Every tile laid this turn goes back to the rack; returns their ids."""
        self.cancel()
        back = [self.placed[s] for s in sorted(self.placed)]
        self.placed.clear()
        self._home(back)
        return back

    def _remember(self) -> None:
        """Note the rack's order as the first tile of a play leaves it."""
        if not self.placed:
            self.before = list(self.order)

    def _home(self, ids: list[int]) -> None:
        """Put tiles back in the rack where they were (before the tile that followed them then), so a
        recall undoes the turn's arrangement rather than piling the tiles at the end."""
        rank = {tile_id: k for k, tile_id in enumerate(self.before)}
        for tile_id in sorted(ids, key=lambda i: rank.get(i, len(self.tiles))):
            after = self.before[rank[tile_id] + 1 :] if tile_id in rank else []
            follower = next((i for i in after if i in self.order), None)
            self.order.insert(self.order.index(follower) if follower is not None else len(self.order), tile_id)

    def shuffle(self, rng: random.Random) -> None:
        """Shuffle the tiles on the rack into a different order (when there is one)."""
        before = list(self.order)
        if len({self.tiles[i] for i in before}) < 2:
            return
        while self.order == before:
            rng.shuffle(self.order)

    def move_in_rack(self, tile_id: int, step: int) -> None:
        """Move a rack tile `step` slots left (-) or right (+)."""
        if tile_id not in self.order:
            return
        i = self.order.index(tile_id)
        j = max(0, min(len(self.order) - 1, i + step))
        self.order.insert(j, self.order.pop(i))

    def flip(self, tile_id: int) -> bool:
        """Turn a 6/9 tile over; False for any other tile."""
        t = self.faces[tile_id]
        if not t.is_six_nine:
            return False
        self.faces[tile_id] = t.flipped
        return True

    def toggle_mark(self, tile_id: int) -> None:
        """Choose a rack tile for an exchange, or unchoose it."""
        if tile_id in self.marked:
            self.marked.discard(tile_id)
        elif tile_id in self.order:
            self.marked.add(tile_id)

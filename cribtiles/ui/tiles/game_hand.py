"""The person's tiles under the mouse: picked up, dragged, dropped on the rack or a square, flipped
(6/9), marked for an exchange, laid for them (a hint); and where each is drawn, easing towards where
it rests. The keyboard's cursor is `game_keys`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence

import pygame

from cribtiles.rules.board import Square
from cribtiles.rules.tiles import Tile

from ..geometry import Point, Rect, contains
from ..motion import glide_share
from .drag import Draft, Drop
from .game_host import Stage
from .snapshot import DraftView, FlipAnim, Frozen

FLIP = 0.22  # seconds of a tile turning over at normal speed
LIFTED = 1.08  # a held tile's size, as drawn while held (see table._draw_held)


class Hand:
    """The draft of the rack shown and how its tiles lie and move. `moved` is told when a tile moves
    by hand (the coach puts its hint away then)."""

    def __init__(self, stage: Stage, tiles: Sequence[Tile], moved: Callable[[], None] = lambda: None) -> None:
        self.stage = stage
        self.moved = moved
        self.draft = Draft.deal(tuple(tiles))
        self.pos: dict[int, list[float]] = {}  # tile id -> drawn [x, y, size]
        self.grab: tuple[float, float] = (0.0, 0.0)  # cursor minus the held tile's top-left, at rack size
        self.lift: tuple[float, float] = (0.0, -1e9)  # the held tile's size when picked up, and when
        self.mouse: tuple[int, int] = (0, 0)
        self.flips: dict[int, FlipAnim] = {}
        self.exchanging = False  # the rack's tiles are clicked to be thrown back
        self._hand_cursor: bool | None = None
        self.snap()

    # --- where the tiles are ---

    def deal(self, tiles: Sequence[Tile], keep: list[Tile] | None = None) -> None:
        """A new rack: kept tiles where the player had them, new ones slide in from the right."""
        self.draft = Draft.deal(tuple(tiles))
        self.exchanging = False
        self._arrange(keep)

    def reset(self, tiles: Sequence[Tile]) -> None:
        """The rack as it stands again (a turn taken back): every tile at once where it rests."""
        self.draft = Draft.deal(tuple(tiles))
        self.exchanging = False
        self.pos = {}
        self.snap()

    def tile_rect_for(self, tile_id: int) -> Rect | None:
        """Where a tile of the player's draft should rest now (rack slot or square)."""
        layout = self.stage.app.layout
        sq = self.draft.square_of(tile_id)
        if sq is not None:
            return layout.tile_rect(sq)
        order = self.draft.order
        if tile_id not in order:
            return None
        i = order.index(tile_id)
        gap = self.rack_gap_at()
        if gap is not None and i >= gap:
            i += 1
        return layout.slot_rect(min(i, 4))

    def rack_gap_at(self) -> int | None:
        """While a tile is held over the rack, the slot that opens for it."""
        if self.draft.held is None:
            return None
        slot = self.stage.app.layout.rack_slot_at(self.held_centre())
        if slot is None:
            return None
        return min(slot, len(self.draft.order))

    def held_centre(self) -> Point:
        size = self.stage.app.layout.rack_tile
        return self.mouse[0] - self.grab[0] + size / 2, self.mouse[1] - self.grab[1] + size / 2

    def snap(self) -> None:
        """Every tile at once where it rests (a new layout)."""
        for i in range(len(self.draft.tiles)):
            r = self.tile_rect_for(i)
            if r is not None:
                self.pos[i] = [float(r[0]), float(r[1]), float(r[2])]

    def tile_at(self, point: Point) -> tuple[str, int] | None:
        """The player's tile under a point: ('rack', slot) or ('board', id)."""
        sq = self.stage.app.layout.square_at(point)
        if sq is not None and sq in self.draft.placed:
            return "board", self.draft.placed[sq]
        for slot, tid in enumerate(self.draft.order):
            r = self.tile_rect_for(tid)
            if r is not None and contains(r, point):
                return "rack", slot
        return None

    def _arrange(self, keep: list[Tile] | None) -> None:
        tiles = self.draft.tiles
        used: set[int] = set()
        order: list[int] = []
        for t in keep or []:
            for i, u in enumerate(tiles):
                if i not in used and u == t:
                    used.add(i)
                    order.append(i)
                    break
        order += [i for i in range(len(tiles)) if i not in used]
        self.draft.order = order
        self.pos = {}
        rx, _, rw, _ = self.stage.app.layout.rack
        for i in range(len(tiles)):
            r = self.tile_rect_for(i)
            if r is None:
                continue
            if i in used:
                self.pos[i] = [float(r[0]), float(r[1]), float(r[2])]
            else:  # a new tile from the bag slides in from the rack's right end
                self.pos[i] = [float(rx + rw), float(r[1]), float(r[2])]

    def glide(self, dt: float, pace: float) -> None:
        """A frame: the tiles ease towards where they rest; finished flips end."""
        k = glide_share(dt, pace)
        for tid in range(len(self.draft.tiles)):
            if tid == self.draft.held:
                continue
            r = self.tile_rect_for(tid)
            if r is None:
                continue
            p = self.pos.setdefault(tid, [float(r[0]), float(r[1]), float(r[2])])
            for j in range(3):
                p[j] += (r[j] - p[j]) * k
                if abs(r[j] - p[j]) < 0.3:
                    p[j] = float(r[j])
        for tid, f in list(self.flips.items()):
            if self.stage.now - f.t0 >= self.stage.anim(FLIP):
                del self.flips[tid]

    # --- the mouse ---

    def point_cursor(self, over_something: bool) -> None:
        """A hand over what can be picked up or pressed, an arrow elsewhere."""
        over = over_something or self.draft.held is not None or self.tile_at(self.mouse) is not None
        if over != self._hand_cursor:
            self._hand_cursor = over
            with contextlib.suppress(pygame.error):
                pygame.mouse.set_cursor(pygame.SYSTEM_CURSOR_HAND if over else pygame.SYSTEM_CURSOR_ARROW)

    def press(self, point: Point) -> None:
        """A press on a tile: picked up (or, with the exchange open, marked)."""
        hit = self.tile_at(point)
        if hit is None:
            return
        kind, where = hit
        if self.exchanging:
            if kind == "rack":
                self.draft.toggle_mark(self.draft.order[where])
                self.stage.app.sounds.click()
            return
        if kind == "rack":
            tid = self.draft.pick_from_rack(where)
        else:
            square = self.draft.square_of(where)
            tid = self.draft.pick_from_board(square) if square is not None else None
        if tid is None:
            return
        self.moved()
        rack_tile = self.stage.app.layout.rack_tile
        p = self.pos.get(tid, [float(point[0]), float(point[1]), float(rack_tile)])
        # held tiles are drawn at rack size: keep the same spot of the tile under the cursor
        ratio = rack_tile / max(1.0, p[2])
        self.grab = ((point[0] - p[0]) * ratio, (point[1] - p[1]) * ratio)
        self.lift = (p[2], self.stage.now)
        self.stage.refresh_preview()

    def release(self) -> None:
        if self.draft.held is None:
            return
        layout, stage = self.stage.app.layout, self.stage
        centre_pt = self.held_centre()
        slot = layout.rack_slot_at(centre_pt)
        tid = self.draft.held
        if slot is not None:
            result = self.draft.drop_on_rack(min(slot, len(self.draft.order)))
        elif stage.my_turn and not self.exchanging:
            result = self.draft.drop_on_square(stage.state.board, layout.nearest_square(centre_pt))
        else:
            result = self.draft.cancel()
        if result is not Drop.RETURNED:
            stage.app.sounds.click()
        elif layout.square_at(centre_pt) is not None and not stage.my_turn:
            stage.toast("Wait for your turn to lay tiles.")
        # the tile eases from where it was let go to where it rests
        self.pos[tid] = [
            self.mouse[0] - self.grab[0] * LIFTED,
            self.mouse[1] - self.grab[1] * LIFTED,
            layout.rack_tile * LIFTED,
        ]
        stage.refresh_preview()

    def flip_at(self, point: Point) -> None:
        hit = self.tile_at(point)
        if hit is None:
            return
        kind, where = hit
        self.flip(self.draft.order[where] if kind == "rack" else where)

    def flip(self, tid: int) -> None:
        before = self.draft.face(tid)
        if self.draft.flip(tid):
            self.moved()
            self.flips[tid] = FlipAnim(before, self.stage.now)
            self.stage.refresh_preview()

    # --- the rack's moves ---

    def recall(self) -> None:
        """Every tile back on the rack."""
        if self.draft.placed or self.draft.held is not None:
            self.moved()
            self.draft.recall()
            self.stage.refresh_preview()

    def open_exchange(self) -> None:
        self.draft.recall()
        self.stage.refresh_preview()
        self.exchanging = True

    def close_exchange(self) -> None:
        self.exchanging = False
        self.draft.marked.clear()

    def lay(self, tiles: Sequence[tuple[Tile, Square]]) -> None:
        """Lay `tiles` from the rack on their squares, as the player would, to be played or moved."""
        self.draft.recall()
        for tile, square in tiles:
            tid = next((i for i in self.draft.order if self.draft.tiles[i] == tile.rack_form), None)
            if tid is None or not self.draft.place(tid, self.stage.state.board, square):
                continue
            if self.draft.face(tid) != tile:
                self.draft.flip(tid)
        self.stage.refresh_preview()
        self.stage.app.sounds.click()

    def mark(self, tiles: Sequence[Tile]) -> None:
        """With the exchange open, `tiles` chosen to throw back."""
        self.draft.marked.clear()
        for t in tiles:
            tid = next(
                (i for i in self.draft.order if self.draft.tiles[i] == t.rack_form and i not in self.draft.marked), None
            )
            if tid is not None:
                self.draft.toggle_mark(tid)
        self.stage.app.sounds.click()

    # --- the snapshot's part ---

    def draft_view(self, covered: bool) -> DraftView:
        """The draft to draw (none under the curtain)."""
        d = self.draft if not covered else Draft.deal(())
        return DraftView(
            d.tiles, tuple(d.order), Frozen(dict(d.placed)), Frozen(dict(d.faces)), d.held, frozenset(d.marked)
        )

    def drawn_at(self, covered: bool) -> Frozen[int, tuple[float, float, float]]:
        n = 0 if covered else len(self.draft.tiles)
        return Frozen({tid: (p[0], p[1], p[2]) for tid, p in self.pos.items() if tid < n})

    def flips_view(self) -> Frozen[int, FlipAnim]:
        return Frozen(dict(self.flips))

    def rests(self, covered: bool) -> Frozen[int, Rect]:
        n = 0 if covered else len(self.draft.tiles)
        return Frozen({tid: r for tid in range(n) if (r := self.tile_rect_for(tid)) is not None})

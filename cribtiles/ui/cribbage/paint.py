"""Drawing the cribbage table from a snapshot: the felt, the cards where they lie, the running count,
the peg board with both tracks, the explanations in the side panel, the buttons and the end card.
Every function takes the surface (or a frame's `Layer`), the layout and the snapshot it needs, and
changes nothing else. `CribView` draws a frame: the still background, and over it what moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import pygame

from cribtiles.cribbage.cards import Card
from cribtiles.table.cribbage.public import CribbageSummary

from .. import art, pegboard
from ..again import AgainQuestion
from ..chat import ChatView
from ..chat_paint import draw_field, draw_heard, draw_history
from ..coach_panel import COACH
from ..frame import Frame, Layer
from ..geometry import Rect
from ..paint import CREAM, DIM, GOLD, RED, Target, button, draw_circle, draw_rect, fit_width, rounded_panel, wrap, write
from ..pegs import LAP
from . import cards
from .coach import CoachNote
from .layout import ButtonKind, CribLayout

LIT = (255, 226, 120)
RING = (255, 214, 102)
#: The game hole: a score of 121 goes round the board twice (two laps of 60) and into it.
GAME_HOLE = 2 * LAP + 1


# --- what a frame shows ---


@dataclass(frozen=True)
class Sprite:
    """A card on the felt this frame: its face (None: its back), where, and how it is marked."""

    card: Card | None
    x: float
    y: float
    w: int
    dim: bool = False  # cannot be played now
    lit: bool = False  # pointed at from the panel's explanations
    chosen: bool = False  # chosen for the crib
    focus: bool = False  # the keyboard's card
    hinted: bool = False  # the coach's: a card to lay away, or to lay
    mark: int | None = None  # a card of the count with three or four players: who laid it (their side's colour)


@dataclass(frozen=True)
class InfoLine:
    """A line of the side panel: words, the cards they are about (drawn after them, lit when pointed
    at), the points on the right; `hand` names the counted hand the line belongs to (the show)."""

    text: str
    right: str = ""
    colour: tuple[int, int, int] = CREAM
    step: int = 0  # text size, relative to the panel's
    cards: tuple[Card, ...] = ()
    indent: int = 0
    hand: int | None = None


@dataclass(frozen=True)
class ButtonView:
    kind: ButtonKind
    rect: Rect
    label: str
    enabled: bool
    hover: bool
    strong: bool = False


@dataclass(frozen=True)
class SeatView:
    """Another player's seat this frame: who, what is said of them (the dealer, the cards left, away),
    their colour (their side's), and whether they are to act now."""

    player: int
    name: str
    note: str
    colour: int  # the index of their side's colour
    to_act: bool = False


@dataclass(frozen=True)
class PegSpot:
    """One player's pegs this frame: the back peg's hole and the front peg's score on its way."""

    back: int
    shown: float
    number: int  # the score written beside the track


@dataclass(frozen=True)
class CribSnapshot:
    """The cribbage table at one moment, for drawing: frozen values only."""

    layout: CribLayout
    names: tuple[str, ...]
    person: int
    dealer: int
    deal: int
    sprites: tuple[Sprite, ...]
    held: Sprite | None  # the card being dragged, drawn over everything
    seats: tuple[SeatView, ...]  # the other players, clockwise from your left
    deck: bool  # the pack lies there (put away for the show)
    crib_label: str
    count: int | None  # the running count, None outside the play
    count_words: str
    prompt: str
    prompt_error: bool
    buttons: tuple[ButtonView, ...]
    number: str | None  # the count being said (muggins), written between - and +: "" while nothing is typed
    pegs: tuple[PegSpot, ...]  # a side each
    lines: tuple[InfoLine, ...]
    hover_line: int | None
    keys: str
    end: CribbageSummary | None
    end_hover: ButtonKind | None
    chat: ChatView | None = None  # online: the lines heard, the line being typed
    coach: CoachNote | None = None  # the hint shown (I): the best discards, or the card to lay and why
    end_review: bool = False  # the end card offers the game's review (V)
    end_again: AgainQuestion | None = None  # online: playing again, as this window is asked it
    sides: tuple[str, ...] = ()  # each side's name on the peg board ("You", "Medium bot"; "You & North")
    game_hole: int = 121  # the target: the hole the pegs stop in
    near: SeatView | None = None  # a table watched: the first seat, named at the bottom as the others at the top

    @property
    def bot_label(self) -> str:
        """What is said of the player on your left (the bot, with two players)."""
        return self.seats[0].note if self.seats else ""


# --- the whole frame ---


class CribView:
    """Draws the cribbage table through the frame path (`frame.Frame`): a card dragged or a peg moving
    restores and sends to the screen only what moved since the last frame, not the window."""

    def __init__(self) -> None:
        self.frame = Frame()

    def draw(self, screen: pygame.Surface, snap: CribSnapshot, full: bool = False) -> list[pygame.Rect] | None:
        """Draw the table; returns the rectangles that changed since the last frame, or None when the
        whole window did (the first frame, new names or a new size, or `full`)."""
        layer = Layer(screen.get_size())
        draw_moving(layer, snap)
        return self.frame.show(screen, background(snap), layer.items, full)


def background(snap: CribSnapshot) -> pygame.Surface:
    """What does not move: the felt, the panels' ground, the places' outlines and the peg board's holes."""
    return _static(snap.layout, snap.sides, snap.game_hole)


def draw_moving(surface: Target, snap: CribSnapshot) -> None:
    """Everything over the background, in drawing order."""
    lay = snap.layout
    _labels(surface, lay, snap)
    _count(surface, lay, snap)  # under the cards: one on its way may cross it
    for sprite in snap.sprites:
        draw_card(surface, lay, sprite)
    _prompt(surface, lay, snap)
    for b in snap.buttons:
        button(surface, b.rect, b.label, b.enabled, b.hover, strong=b.strong)
    if snap.number is not None:
        box = lay.number_box({b.kind: b.rect for b in snap.buttons})
        if box is not None:
            rounded_panel(surface, box, (0, 0, 0, 120), 8)
            write(
                surface,
                snap.number,
                round(box[3] * 0.7),
                GOLD,
                (box[0] + box[2] / 2, box[1] + box[3] / 2),
                "center",
            )
    draw_pegs(surface, lay, snap)
    draw_lines(surface, lay, snap.lines, snap.hover_line)
    if snap.coach is not None:
        draw_coach(surface, lay, snap.coach)
    kx, ky, kw, kh = lay.keys
    size = max(12, lay.text - 5)
    for i, line in enumerate(wrap(snap.keys, size, kw)[:2]):
        write(surface, line, size, (150, 140, 120), (kx + kw / 2, ky + kh * 0.3 + i * size * 1.15), "midtop")
    if snap.held is not None:
        draw_card(surface, lay, snap.held, lifted=True)
    if snap.end is not None:
        watched = snap.near is not None
        draw_end(surface, lay, snap.end, snap.end_hover, snap.end_review, snap.sides, snap.end_again, watched)
    if snap.chat is not None:  # over the end card too: a last word after the game
        _chat(surface, lay, snap.chat)


def _chat(surf: Target, lay: CribLayout, chat: ChatView) -> None:
    """What the table told (lines said, the connection, who went away) at the foot of the side panel,
    fading, as the tile game tells its messages; the line being typed across the felt over your hand."""
    if chat.typed is None:
        draw_heard(surf, chat_strip(lay), chat, max(13, lay.text - 3))
    else:
        draw_history(surf, chat_history(lay), chat, max(13, lay.text - 3))
        draw_field(surf, chat_field(lay), chat, lay.text)


def chat_strip(lay: CribLayout) -> Rect:
    """The lower part of the side panel's text box: the lines heard sit at its foot, newest lowest."""
    x, y, w, h = lay.info
    return (x + 6, y + h // 2, w - 12, h // 2 - 6)


def chat_history(lay: CribLayout) -> Rect:
    """The table's chat while a line is typed: the whole of the side panel's text box."""
    x, y, w, h = lay.info
    return (x + 4, y + 4, w - 8, h - 8)


def chat_field(lay: CribLayout) -> Rect:
    """The field a line is typed in: across the felt just over your hand (the prompt's row)."""
    hx, hy, hw, _ = lay.hand
    h = max(56, round(lay.height * 0.075))
    return (hx, hy - h, hw, h)


class _StaticCache:
    """The felt, the panel's ground and the peg board's holes, drawn once per window size and sides."""

    def __init__(self) -> None:
        self.key: tuple[int, int, tuple[str, ...], int] | None = None
        self.surface: pygame.Surface | None = None

    def get(self, lay: CribLayout, sides: tuple[str, ...], game_hole: int) -> pygame.Surface:
        key = (lay.width, lay.height, sides, game_hole)
        if self.surface is None or self.key != key:
            self.surface = _draw_static(lay, sides, game_hole)
            self.key = key
        return self.surface


_STATIC = _StaticCache()


def _static(lay: CribLayout, sides: tuple[str, ...], game_hole: int) -> pygame.Surface:
    return _STATIC.get(lay, sides, game_hole)


def _draw_static(lay: CribLayout, sides: tuple[str, ...], game_hole: int) -> pygame.Surface:
    surf = pygame.Surface((lay.width, lay.height))
    surf.blit(art.felt(lay.width, lay.height), (0, 0))
    rounded_panel(surf, lay.panel, (12, 24, 18, 120), 14)
    rounded_panel(surf, lay.info, (0, 0, 0, 80), 10)
    # the places on the felt: faint outlines where the deck, the crib and the play lie
    for rect in (lay.deck, lay.crib):
        _outline(surf, rect, (255, 255, 255, 30))
    draw_pegboard(surf, lay, sides, game_hole)
    return surf


def _outline(surf: Target, rect: Rect, colour: tuple[int, int, int, int]) -> None:
    surf.blit(_outline_surface(rect[2], rect[3], colour), rect[:2])


@lru_cache(maxsize=16)
def _outline_surface(w: int, h: int, colour: tuple[int, int, int, int]) -> pygame.Surface:
    # kept: a frame made of the same surfaces in the same places is known to look the same
    layer = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(layer, colour, layer.get_rect(), 2, border_radius=max(4, w // 12))
    return layer


# --- cards ---


def card_surface(lay: CribLayout, card: Card | None, w: int, dim: bool = False) -> pygame.Surface:
    """A card at width `w`: drawn sharp at the widths cards rest at, scaled from the nearest in between
    (a card on its way from your hand to the play), so that motion never waits for wood to be drawn."""
    rest = min((lay.card_w, lay.play_w, lay.back_w), key=lambda r: abs(r - w))
    source = cards.back(rest) if card is None else cards.face(card, rest, dim)
    # a size on the way is seen for one frame: scaled plainly, not smoothed nor kept (0.05 ms, not 1)
    return source if rest == w else pygame.transform.scale(source, (w, cards.height_of(w)))


def draw_card(surf: Target, lay: CribLayout, s: Sprite, lifted: bool = False) -> None:
    w = s.w
    h = cards.height_of(w)
    x, y = round(s.x), round(s.y)
    blur = max(3, w // (7 if lifted else 14))
    shadow = art.soft_shadow(w, h, max(3, round(w * 0.08)), blur, 110 if lifted else 140)
    off = max(2, w // (6 if lifted else 24))
    surf.blit(shadow, (x + off - 2 * blur, y + off - 2 * blur))
    if s.lit:
        surf.blit(_glow(w + 16, h + 16), (x - 8, y - 8))
    surf.blit(card_surface(lay, s.card, w, s.dim), (x, y))
    if s.lit:
        draw_rect(surf, LIT, (x - 2, y - 2, w + 4, h + 4), 3, border_radius=max(4, round(w * 0.09)))
    elif s.chosen:
        draw_rect(surf, GOLD, (x - 2, y - 2, w + 4, h + 4), 2, border_radius=max(4, round(w * 0.09)))
    if s.focus:
        draw_rect(surf, RING, (x - 5, y - 5, w + 10, h + 10), 2, border_radius=max(6, round(w * 0.11)))
    if s.mark is not None:  # who laid it: their colour under the card
        _dot(surf, (x + w / 2, y + h + 9), art.PLAYER_COLOURS[s.mark % 4])
    if s.hinted:  # the coach's colour, as its ghosted tiles at the tile game's table
        draw_rect(surf, COACH, (x - 8, y - 8, w + 16, h + 16), 3, border_radius=max(8, round(w * 0.13)))


@lru_cache(maxsize=8)
def _glow(w: int, h: int) -> pygame.Surface:
    """The light round a card pointed at from the panel's explanations."""
    glow = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(glow, (*LIT, 90), glow.get_rect(), 8, border_radius=12)
    return glow


def _labels(surf: Target, lay: CribLayout, snap: CribSnapshot) -> None:
    size = lay.text
    plates = [(lay.seat_label(i), seat) for i, seat in enumerate(snap.seats)]
    plates += [(lay.near_label(), snap.near)] if snap.near is not None else []
    for (x, y, w, h), seat in plates:
        _dot(surf, (x + 7, y + h * 0.3), art.PLAYER_COLOURS[seat.colour % 4], seat.to_act)
        write(
            surf,
            fit_width(seat.name, size, w - 20),
            size,
            GOLD if seat.to_act else CREAM,
            (x + 20, y + h * 0.3),
            "midleft",
        )
        small = max(12, size - 3)
        # with two players the note has the row's fifth to itself; in a shared row it may take three lines
        notes = [fit_width(seat.note, small, w - 20)] if lay.players == 2 else _parts_in_lines(seat.note, small, w - 20)
        for j, note in enumerate(notes):
            write(surf, note, small, DIM, (x + 20, y + h * 0.3 + size * 1.1 + j * small * 1.15), "midleft")
    if snap.deck:
        dx, dy, dw, _ = lay.deck
        for i in range(3):  # a few cards' thickness
            surf.blit(card_surface(lay, None, dw), (dx + i, dy - i))
        under = "starter" if snap.count is not None else "the pack"
        sx = (lay.starter[0] + lay.starter[2] / 2) if snap.count is not None else dx + dw / 2
        write(surf, under, max(12, size - 4), DIM, (sx, lay.starter[1] + lay.starter[3] + 4), "midtop")
    cx, cy, cw, ch = lay.crib
    below = cy + ch + 3 * max(2, cw // 30) + 6  # under the stack of four
    small = max(12, size - 4)
    label = fit_width(snap.crib_label, small, cw + 2 * lay.margin)
    write(surf, label, small, DIM, (cx + cw / 2, below), "midtop")


def _parts_in_lines(note: str, size: int, width: int, most: int = 3) -> list[str]:
    """A seat's note ("partner · the dealer · 2 cards") in at most `most` lines of `width`, broken between
    its parts, each line fitted."""
    lines: list[str] = []
    for part in note.split(" · ") if note else []:
        joined = f"{lines[-1]} · {part}" if lines else part
        if lines and art.font(size).size(joined)[0] <= width:
            lines[-1] = joined
        else:
            lines.append(part)
    return [fit_width(line, size, width) for line in lines[:most]]


def _dot(surf: Target, at: tuple[float, float], colour: tuple[int, int, int], ring: bool = False) -> None:
    """A player's colour; ringed in gold while they are to act."""
    if ring:
        draw_circle(surf, GOLD, at, 11, 2)
    draw_circle(surf, (0, 0, 0), (at[0] + 1, at[1] + 2), 7)
    draw_circle(surf, colour, at, 7)


def _count(surf: Target, lay: CribLayout, snap: CribSnapshot) -> None:
    """The running count, large, over the play's place (outlined: cards dragged there are played)."""
    if snap.count is None:
        return
    px, py, pw, ph = lay.play
    _outline(surf, (px - 6, py - 6, pw + 12, ph + 12), (255, 255, 255, 18))
    x, y, w, h = lay.count
    big = art.engraved_text(str(snap.count), round(h * 0.95), GOLD, light=False)
    label = art.text("count", max(12, lay.text - 2), DIM)
    total = label.get_width() + 10 + big.get_width()
    left = x + (w - total) / 2
    surf.blit(label, label.get_rect(midleft=(round(left), y + h // 2 + 2)))
    surf.blit(big, big.get_rect(midleft=(round(left + label.get_width() + 10), y + h // 2)))
    if snap.count_words:
        size = max(12, lay.text - 3)
        right = round(left + total + 14)
        write(surf, fit_width(snap.count_words, size, x + w - right), size, CREAM, (right, y + h // 2 + 2), "midleft")


def _prompt(surf: Target, lay: CribLayout, snap: CribSnapshot) -> None:
    x, y, w, h = lay.prompt
    if not snap.prompt:
        return
    colour = RED if snap.prompt_error else GOLD
    size = lay.text
    text = fit_width(snap.prompt, size, w)
    r = art.text(text, size, colour).get_rect(center=(x + w // 2, y + h // 2))
    rounded_panel(surf, (r.x - 12, r.y - 5, r.w + 24, r.h + 10), (0, 0, 0, 110), 10)
    write(surf, text, size, colour, (x + w / 2, y + h / 2), "center")


# --- the peg board ---


def draw_pegboard(surf: pygame.Surface, lay: CribLayout, sides: tuple[str, ...], game_hole: int = GAME_HOLE) -> None:
    """The plank, each side's lane and holes, and the names (the still part of the peg board): a lane a
    player, or a lane a partnership ("You & North")."""
    pegboard.draw_board(surf, lay.pegboard, list(sides), _peg_text(lay), game_hole)


def _peg_text(lay: CribLayout) -> int:
    return max(13, lay.text - 2)


def draw_pegs(surf: Target, lay: CribLayout, snap: CribSnapshot) -> None:
    lanes = [
        pegboard.Lane(art.PLAYER_COLOURS[p % 4], spot.back, spot.shown, spot.number) for p, spot in enumerate(snap.pegs)
    ]
    pegboard.draw_lanes(surf, lay.pegboard, lanes, _peg_text(lay), snap.game_hole)


# --- the side panel's explanations ---


def line_rects(lay: CribLayout, lines: tuple[InfoLine, ...]) -> list[Rect]:
    """Where each line of the panel lies (those that do not fit are left out: fewer rects than lines)."""
    x, y, w, h = lay.info
    pad = max(8, lay.margin // 2 + 2)
    top, bottom = y + pad, y + h - pad
    out: list[Rect] = []
    for line in lines:
        size = _line_size(lay, line)
        lh = round(size * 1.35) + (pad // 2 if line.step >= 2 else 0)
        if top + lh > bottom:
            break
        out.append((x + pad, top, w - 2 * pad, lh))
        top += lh
    return out


def _line_size(lay: CribLayout, line: InfoLine) -> int:
    return max(13, lay.text - 2 + line.step)


def draw_lines(surf: Target, lay: CribLayout, lines: tuple[InfoLine, ...], hover: int | None) -> None:
    for i, (line, rect) in enumerate(zip(lines, line_rects(lay, lines), strict=False)):
        x, y, w, h = rect
        size = _line_size(lay, line)
        if hover == i and line.cards:
            rounded_panel(surf, (x - 4, y, w + 8, h), (255, 214, 102, 50), 6)
        left = x + line.indent * size
        right_w = art.font(size).size(line.right)[0] + 8 if line.right else 0
        room = x + w - right_w - left
        names_w = card_names_width(line.cards, size) if line.cards else 0
        text = fit_width(line.text, size, max(20, room - names_w - (size // 2 if names_w else 0)))
        r = write(surf, text, size, line.colour, (left, y + h / 2), "midleft")
        if line.cards and names_w <= room - r[2]:
            draw_card_names(surf, line.cards, size, (r[0] + r[2] + size // 2, y + h / 2))
        if line.right:
            write(surf, line.right, size, line.colour if line.step >= 2 else GOLD, (x + w, y + h / 2), "midright")


def card_names_width(items: tuple[Card, ...], size: int) -> int:
    f = art.font(size)
    return sum(f.size(cards.rank_text(c))[0] + round(size * 0.62) + round(size * 0.3) for c in items)


def draw_card_names(surf: Target, items: tuple[Card, ...], size: int, at: tuple[float, float]) -> None:
    """Cards written as their rank and a small pip in the suit's colour: 5♥ 10♦, on a cream chip each."""
    x, cy = at
    f = art.font(size)
    pip_size = round(size * 0.55)
    for c in items:
        rank = cards.rank_text(c)
        tw = f.size(rank)[0]
        chip_w = tw + pip_size + 8
        rounded_panel(surf, (round(x), round(cy - size * 0.55), chip_w, round(size * 1.1)), (*cards.FACE, 235), 4)
        write(surf, rank, size - 1, cards.ink(c.suit), (x + 3, cy + 1), "midleft")
        p = cards.pip(c.suit, pip_size)
        surf.blit(p, p.get_rect(midleft=(round(x + 4 + tw), round(cy))))
        x += chip_w + round(size * 0.3)


# --- the coach ---


def coach_box(lay: CribLayout, note: CoachNote) -> tuple[Rect, int, list[str]]:
    """Where the coach's note lies (at the foot of the side panel's text, over its oldest lines), its text
    size and its words of why wrapped to the box."""
    x, y, w, h = lay.info
    size = max(13, lay.text - 3)
    pad = max(8, size // 2)
    why = wrap(note.why, size, w - 2 * pad)
    line = round(size * 1.35)
    height = pad + round((size + 1) * 1.4) + line * (len(note.rows) + len(why)) + pad + pad // 2
    height = min(height, h)
    return (x, y + h - height, w, height), size, why


def draw_coach(surf: Target, lay: CribLayout, note: CoachNote) -> None:
    """The coach's note in its own colour, as the tile game's coach panel: a title, its rows, then why."""
    (x, y, w, h), size, why = coach_box(lay, note)
    pad = max(8, size // 2)
    rounded_panel(surf, (x, y, w, h), (12, 22, 30, 235), 10)
    draw_rect(surf, COACH, (x, y, w, h), 2, border_radius=10)
    top = y + pad
    title = fit_width(note.title, size + 1, w - 2 * pad)
    write(surf, title, size + 1, COACH, (x + pad, top), "topleft")
    top += round((size + 1) * 1.4)
    line = round(size * 1.35)
    for words, right in note.rows:
        rw = art.font(size).size(right)[0] + 8
        write(surf, fit_width(words, size, w - 2 * pad - rw), size, CREAM, (x + pad, top + line / 2), "midleft")
        write(surf, right, size, GOLD, (x + w - pad, top + line / 2), "midright")
        top += line
    top += pad // 2
    for text in why:
        if top + line > y + h:
            break
        write(surf, text, size, DIM, (x + pad, top + line / 2), "midleft")
        top += line


# --- the end of the game ---


END_KEYS = "Enter or N: a new game · Escape: the title screen"


def draw_end(
    surf: Target,
    lay: CribLayout,
    end: CribbageSummary,
    hover: ButtonKind | None,
    review: bool = False,
    sides: tuple[str, ...] = (),
    again: AgainQuestion | None = None,
    watching: bool = False,
) -> None:
    """The end card: who won, each side's score (the winner's first), the margin, the deals, the buttons
    (Review among them when `review`); `sides` names each side as the peg board does ("You & North"), else
    the players' names. Online, `again`: New game is Play again (or Withdraw), asked of the others; at a
    table `watching`, only Watch it once the table is played again."""
    surf.blit(_veil(lay.width, lay.height), (0, 0))
    x, y, w, h = lay.end_card()
    surf.blit(art.soft_shadow(w, h, 16, 10, 170), (x - 20 + 4, y - 20 + 8))
    surf.blit(art.plank(w, h, (92, 58, 34), 81), (x, y))
    size = lay.text
    names = sides if len(sides) == len(end.scores) else end.names
    winner = names[end.winner]
    plural = " & " in winner
    if end.person_won:
        title = "You win!" if not plural else f"{winner.replace(' & ', ' and ')} win!"
    else:
        title = f"{winner.replace(' & ', ' and ')} win{'' if plural else 's'}"
    write(
        surf,
        fit_width(title, round(size * 2.2), w - 2 * size),
        round(size * 2.2),
        GOLD,
        (x + w / 2, y + size),
        "midtop",
    )
    ty = y + size * 4
    order = sorted(range(len(end.scores)), key=lambda side: (side != end.winner, -end.scores[side]))
    for p in order:
        colour = GOLD if p == end.winner else CREAM
        name = names[p]
        write(surf, fit_width(name, size + 2, w // 2), size + 2, colour, (x + w * 0.3, ty), "midleft")
        write(surf, str(end.scores[p]), size + 8, colour, (x + w * 0.7, ty), "midright")
        ty += round(size * 1.8)
    write(
        surf,
        fit_width(end.margin_words, size, w - 2 * size),
        size,
        GOLD if end.skunk else CREAM,
        (x + w / 2, ty),
        "midtop",
    )
    ty += round(size * 1.5)
    write(surf, f"{end.deals} deal{'s' if end.deals != 1 else ''}", size - 3, DIM, (x + w / 2, ty), "midtop")
    buttons = lay.end_buttons(review)
    for kind, rect in buttons.items():
        label, enabled = kind.value, True
        if kind is ButtonKind.NEW_GAME and again is not None:
            label, enabled = again.button or "Play again", again.button is not None
            if watching and again.button is None:  # a spectator's only button: Watch it
                continue
        button(surf, rect, label, enabled, hover is kind, strong=kind is ButtonKind.NEW_GAME)
    keys = "Enter or N: a new game · V: the review · Escape: the title screen" if review else END_KEYS
    _, by, _, bh = buttons[ButtonKind.NEW_GAME]
    small = max(12, size - 4)
    if again is not None:
        write(surf, fit_width(again.text, small, w - 2 * size), small, CREAM, (x + w / 2, by - size * 0.4), "midbottom")
        keys = " · ".join(k for k in (again.keys, "V: the review" if review else "", "Escape: the title screen") if k)
    write(surf, fit_width(keys, small, w - 2 * size), small, DIM, (x + w / 2, by + bh + size * 0.5), "midtop")


@lru_cache(maxsize=2)
def _veil(w: int, h: int) -> pygame.Surface:
    veil = pygame.Surface((w, h), pygame.SRCALPHA)
    veil.fill((0, 0, 0, 120))
    return veil

"""Where everything of the cribbage table sits, for any window from 960 x 640 up: pure arithmetic.

The felt on the left holds the bot's cards at the top (with three or four players, each other player's
in a seat of that row, left to right as they sit clockwise from your left), the deck with the starter,
the play (or the show) and the crib in the middle, your hand at the bottom with the buttons under it;
the panel on the right holds the peg board and the explanations. `hand_at` and friends answer what lies
under a point.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..geometry import MIN_HEIGHT, MIN_WIDTH, Point, Rect, contains

#: The most cards one count can hold: all eight of the play (four aces and four twos count only 12).
PILE_MOST = 8
#: Your hand of six, the most it ever holds.
HAND_MOST = 6
#: The gap between the show's four cards and the starter, in card widths.
STARTER_GAP = 0.35
#: How far the starter lies aside from the pack it is turned on, in card widths.
STARTER_ASIDE = 0.22


class ButtonKind(StrEnum):
    """The table's buttons; which are shown depends on the moment."""

    DISCARD = "Discard"
    GO = "Go"
    COUNT = "Count"
    GO_ON = "Go on"
    LESS = "-"
    MORE = "+"
    MUGGINS = "Muggins!"
    LET_GO = "Let it stand"
    UNDO = "Undo"  # your last decision taken back (against a bot, where the settings allow it; online, asked)
    ALLOW = "Allow"  # online: another asks to take back a move, and you let them
    REFUSE = "Refuse"
    WITHDRAW = "Withdraw"  # online: your own request to take back a move, withdrawn
    NEW_GAME = "New game"
    REVIEW = "Review"  # the end card's: every decision of the game against the best found
    TITLE = "Title"


@dataclass(frozen=True)
class CribLayout:
    """Every rectangle of the cribbage table at one window size (pixels, top-left origin)."""

    width: int
    height: int
    margin: int
    card_w: int  # your hand
    card_h: int
    play_w: int  # the cards of the play, the show, the deck and the crib
    play_h: int
    back_w: int  # the bot's cards
    back_h: int
    felt: Rect  # the table left of the panel
    bot_row: Rect
    bot_label: Rect
    deck: Rect
    starter: Rect
    play: Rect  # the cards of the count, in order
    count: Rect  # the running count, written large
    crib: Rect
    prompt: Rect  # what to do now, or why not
    hand: Rect
    button_row: Rect
    panel: Rect
    pegboard: Rect
    info: Rect
    keys: Rect
    text: int  # the size of ordinary words
    players: int = 2  # the seats at the table: the other players' seats share the top row

    @classmethod
    def of(cls, width: int, height: int, players: int = 2) -> CribLayout:
        """The layout of a window `width` x `height` (smaller windows are laid out as 960 x 640) for a
        table of `players` (2 to 4)."""
        w, h = max(width, MIN_WIDTH), max(height, MIN_HEIGHT)
        margin = max(10, round(min(w, h) * 0.02))
        text = max(14, min(30, round(h * 0.024)))
        panel_w = max(300, round(w * 0.3))
        felt_w = w - panel_w - 3 * margin
        felt = (margin, margin, felt_w, h - 2 * margin)
        button_h = max(34, round(h * 0.055))
        prompt_h = round(text * 1.6)
        # rows, top to bottom: the bot's cards (0.62 card), the middle (0.8 card + the count's words),
        # your hand (a card and its lift), the buttons; the card as large as both sides allow
        count_h = round(text * 2.6)
        spare = felt[3] - button_h - prompt_h - count_h - 5 * margin
        by_height = spare / (0.62 + 0.8 + 1.12) / 1.4
        by_width = (felt_w - 2 * margin - (HAND_MOST - 1) * margin * 0.6) / HAND_MOST
        card_w = int(min(by_height, by_width))
        card_h = round(card_w * 1.4)
        play_w, back_w = round(card_w * 0.8), round(card_w * 0.62)
        play_h, back_h = round(play_w * 1.4), round(back_w * 1.4)
        x0, y = felt[0] + margin, felt[1] + margin
        inner_w = felt_w - 2 * margin
        button_row = (x0, felt[1] + felt[3] - margin - button_h, inner_w, button_h)
        hand_h = round(card_h * 1.12)
        # what the rows leave over goes between them: a little under the bot's cards, more above your hand
        slack = max(0, button_row[1] - margin - (y + back_h + margin + count_h + play_h + margin + prompt_h + hand_h))
        bot_row = (x0 + inner_w // 5, y, inner_w * 3 // 5, back_h)
        bot_label = (x0, y, inner_w // 5 - margin, back_h)
        y += back_h + margin + round(slack * 0.35)
        deck = (x0, y + count_h, play_w, play_h)
        # the starter is turned face up on the pack, a little aside so that the pack shows under it
        starter = (x0 + round(play_w * STARTER_ASIDE), y + count_h + round(play_h * 0.04), play_w, play_h)
        crib = (x0 + inner_w - play_w, y + count_h, play_w, play_h)
        play_x = starter[0] + play_w + 2 * margin
        play = (play_x, y + count_h, crib[0] - 2 * margin - play_x, play_h)
        count = (play_x, y, play[2], count_h)
        y += count_h + play_h + margin + round(slack * 0.45)
        prompt = (x0, y, inner_w, prompt_h)
        y += prompt_h + margin // 2
        hand = (x0, y, inner_w, hand_h)
        px = felt[0] + felt_w + margin
        panel = (px, margin, panel_w, h - 2 * margin)
        inner = max(8, margin // 2 + 4)
        pegboard = (px + inner, margin + inner, panel_w - 2 * inner, round(h * 0.25))
        keys_h = round(text * 2.4)
        info_y = pegboard[1] + pegboard[3] + inner
        info = (px + inner, info_y, panel_w - 2 * inner, margin + panel[3] - inner - keys_h - info_y)
        keys = (px + inner, info[1] + info[3], info[2], keys_h)
        return cls(
            w, h, margin, card_w, card_h, play_w, play_h, back_w, back_h, felt, bot_row, bot_label, deck,
            starter, play, count, crib, prompt, hand, button_row, panel, pegboard, info, keys, text,
            max(2, min(4, players)),
        )  # fmt: skip

    # --- cards in rows ---

    def hand_slots(self, n: int) -> list[Rect]:
        """Your `n` cards side by side, centred in the hand's row (resting, not lifted)."""
        return _row(self.hand, n, self.card_w, self.card_h, round(self.margin * 0.6), self.hand[1] + self.card_h // 9)

    def lifted(self, rect: Rect) -> Rect:
        """A chosen card of the hand, raised out of the row."""
        return rect[0], rect[1] - self.card_h // 9, rect[2], rect[3]

    def bot_slots(self, n: int) -> list[Rect]:
        return _row(self.bot_row, n, self.back_w, self.back_h, round(self.margin * 0.4), self.bot_row[1])

    # --- the near seat of a table watched: the first seat's, at the bottom, as the others' are at the top ---

    def near_label(self) -> Rect:
        """Where the near seat of a table watched is named and described (the left of the hand's row)."""
        x, y, w, h = self.hand
        return x, y + (h - self.back_h) // 2, w // 5 - self.margin, self.back_h

    def near_slots(self, n: int) -> list[Rect]:
        """The near seat's `n` cards, backs as the others' (a spectator holds no hand), in the hand's row."""
        x, y, w, h = self.hand
        row = (x + w // 5, y + (h - self.back_h) // 2, w * 3 // 5, self.back_h)
        return _row(row, n, self.back_w, self.back_h, round(self.margin * 0.4), row[1])

    # --- the other players' seats (one with two players: the bot's row and its label) ---

    def _seat_box(self, index: int) -> Rect:
        """The whole of the other player number `index` (0: on your left)'s seat in the top row."""
        others = self.players - 1
        _, y, _, h = self.bot_label
        x, right = self.felt[0] + self.margin, self.felt[0] + self.felt[2] - self.margin
        gap = self.margin
        w = (right - x - gap * (others - 1)) / others
        return round(x + index * (w + gap)), y, round(w), h

    def seat_label(self, index: int) -> Rect:
        """Where the other player `index` (clockwise from your left) is named and described."""
        if self.players == 2:
            return self.bot_label
        x, y, w, h = self._seat_box(index)
        return x, y, round(w * 0.42), h

    def seat_row(self, index: int) -> Rect:
        """Where the other player `index`'s cards lie (backs, or face up once counted in the show)."""
        if self.players == 2:
            return self.bot_row
        x, y, w, h = self._seat_box(index)
        left = round(w * 0.44)
        return x + left, y, w - left, h

    def seat_slots(self, index: int, n: int) -> list[Rect]:
        """The other player `index`'s `n` cards in their seat's row."""
        row = self.seat_row(index)
        return _row(row, n, self.back_w, self.back_h, round(self.margin * 0.4), row[1])

    def pile_slots(self, n: int) -> list[Rect]:
        """The cards of the count from the left, overlapping as much as the play's width needs."""
        x, y, w, _ = self.play
        # side by side while they fit, overlapping past five (a count of more is rare): few shifts
        step = min(self.play_w + self.margin * 0.5, (w - self.play_w) / max(4, n - 1, 1))
        return [(round(x + i * step), y, self.play_w, self.play_h) for i in range(n)]

    def show_slots(self) -> list[Rect]:
        """The show: a hand's four cards from where the pack lies (it is put away for the show), then the
        starter a little apart."""
        x = self.deck[0]
        gap = round(self.margin * 0.6)
        y = self.deck[1]
        slots = [(x + i * (self.play_w + gap), y, self.play_w, self.play_h) for i in range(4)]
        sx = x + 4 * (self.play_w + gap) + round(self.play_w * STARTER_GAP)
        return [*slots, (sx, y, self.play_w, self.play_h)]

    def crib_stack(self, n: int) -> list[Rect]:
        """The crib's cards as a small stack, each a little down and right of the last."""
        x, y, w, h = self.crib
        off = max(2, w // 30)
        return [(x + i * off, y + i * off, w, h) for i in range(n)]

    def buttons(self, kinds: tuple[ButtonKind, ...]) -> dict[ButtonKind, Rect]:
        """The buttons shown now, centred in their row (the small - and + beside the count's box)."""
        x, y, w, h = self.button_row
        gap = self.margin
        widths = [h if k in (ButtonKind.LESS, ButtonKind.MORE) else max(h * 3, round(w * 0.2)) for k in kinds]
        total = sum(widths) + gap * (len(kinds) - 1) + (2 * h if ButtonKind.LESS in kinds else 0)
        left = x + (w - total) // 2
        out: dict[ButtonKind, Rect] = {}
        for kind, bw in zip(kinds, widths, strict=True):
            out[kind] = (left, y, bw, h)
            left += bw + gap + (2 * h if kind is ButtonKind.LESS else 0)  # the number's box after -
        return out

    def number_box(self, buttons: dict[ButtonKind, Rect]) -> Rect | None:
        """Where the declared count is written: between the - and + buttons."""
        less = buttons.get(ButtonKind.LESS)
        if less is None:
            return None
        return less[0] + less[2] + self.margin // 2, less[1], 2 * less[3] - self.margin, less[3]

    @property
    def sides(self) -> int:
        """The scoring sides: three with three players, else two (partners share one)."""
        return 3 if self.players == 3 else 2

    def end_card(self) -> Rect:
        """The card that tells the end of the game, over the middle of the felt (a line a side's score)."""
        x, y, w, h = self.felt
        cw = min(w - 2 * self.margin, max(520, round(w * 0.7)))
        rows = round(self.text * 1.8 * (self.sides - 2))
        ch = min(h - 2 * self.margin, round(self.text * 12) + rows + self.end_button_h + 4 * self.margin)
        return x + (w - cw) // 2, y + (h - ch) // 2, cw, ch

    @property
    def end_button_h(self) -> int:
        return max(36, round(self.height * 0.055))

    def end_buttons(self, review: bool = False) -> dict[ButtonKind, Rect]:
        """The end card's buttons: New game and Title, and Review between them when it is offered."""
        x, y, w, h = self.end_card()
        kinds = (
            (ButtonKind.NEW_GAME, ButtonKind.REVIEW, ButtonKind.TITLE)
            if review
            else (ButtonKind.NEW_GAME, ButtonKind.TITLE)
        )
        bh = self.end_button_h
        gap = self.margin * 2
        bw = min(round(w * 0.3), (w - 2 * self.margin - (len(kinds) - 1) * gap) // len(kinds))
        left = x + (w - len(kinds) * bw - (len(kinds) - 1) * gap) // 2
        top = y + h - bh - self.margin - round(self.text * 1.6)  # the keys' words under them
        return {k: (left + i * (bw + gap), top, bw, bh) for i, k in enumerate(kinds)}

    # --- what lies under a point ---

    def hand_at(self, point: Point, rects: list[Rect]) -> int | None:
        """Which of the hand's cards (at `rects`, drawn left to right) is under a point: the topmost."""
        for i in range(len(rects) - 1, -1, -1):
            if contains(rects[i], point):
                return i
        return None

    def in_crib_zone(self, point: Point) -> bool:
        """A card dropped here goes to the crib: the crib's place, generously."""
        x, y, w, h = self.crib
        return contains((x - w // 2, y - h // 3, 2 * w, h + h // 2), point)

    def in_play_zone(self, point: Point) -> bool:
        """A card dropped here is played: anywhere over the middle of the felt."""
        x, _, w, _ = self.felt
        top = self.count[1]
        return contains((x, top, w, self.prompt[1] + self.prompt[3] - top), point)


def _row(area: Rect, n: int, cw: int, ch: int, gap: int, y: int) -> list[Rect]:
    """`n` cards `cw` wide, `gap` apart (overlapping if they must), centred in `area`."""
    if n <= 0:
        return []
    x, _, w, _ = area
    step: float = cw + gap
    if n * cw + (n - 1) * gap > w:
        step = (w - cw) / max(1, n - 1)
    total = cw + step * (n - 1)
    left = x + (w - total) / 2
    return [(round(left + i * step), y, cw, ch) for i in range(n)]

"""The review of a finished game of cribbage in the window: every discard and every card laid, each from
its player's own view, against the best found (the discard advisor's expectation, Hard's look-ahead over
the rest of the play), the biggest misses first, in the review frame both games share (`..review_frame`:
the analysis polled, the list and its keys, the chart of the scores, the export). A decision opened
shows the cards held, what was chosen and the best side by side, and the other choices weighed.

The analysis is `cribtiles.table.cribbage.review`'s, run by its `CribbageReviewWorker` in a process of its
own; this module only says what a decision is and draws it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame

from cribtiles.cribbage.cards import DECK, Card, format_cards
from cribtiles.table.cribbage.review import CribbageReview, Decision, DiscardReview, PlayReview, ReviewRefused
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.table.misses import misses_first

from .. import art
from ..geometry import Rect, contains
from ..paint import CREAM, DIM, GOLD, RED, button, rounded_panel, wrap, write
from ..review_chart import Series
from ..review_frame import BEST, ReviewFrame, ReviewHost, Worker, turn_layout
from ..screens import backdrop, card, fit, heading
from . import cards

#: Points lost from which a miss is shown in red (about a fifteen).
BIG_MISS = 2.0
FIELD = (34, 22, 14, 170)  # the recessed field the cards sit in
#: The other choices listed under a decision opened.
OTHERS = 6


def start_worker(table: CribbageTable) -> Worker[CribbageReview]:
    """The cribbage review runner of the table layer, started on `table` (ReviewRefused in words)."""
    from cribtiles.table.cribbage.review_worker import CribbageReviewWorker

    worker = CribbageReviewWorker()
    try:
        worker.start(table)
    except Exception:
        worker.close()
        raise
    return worker


class Refused:
    """A review that will not be made (a variant it does not take): its reason said as a failure."""

    def __init__(self, why: str) -> None:
        self.why = why

    def progress(self) -> tuple[int, int]:
        return 0, 0

    def result(self) -> CribbageReview | None:
        raise ReviewRefused(self.why)

    def cancel(self) -> None:
        """Nothing runs."""

    def close(self) -> None:
        """Nothing runs."""


# --- what a decision says, in words ---


def when_words(d: Decision) -> str:
    """'Deal 3 · discard', 'Deal 3 · card laid'."""
    return f"Deal {d.deal} · {'discard' if isinstance(d, DiscardReview) else 'card laid'}"


def figures(d: Decision) -> str:
    """The chosen's figure against the best's: expected totals of a discard, values of a card laid."""
    if isinstance(d, DiscardReview):
        return f"{d.chosen.total:.1f} / {d.best.total:.1f}"
    return f"{d.chosen.value:+.1f} / {d.best.value:+.1f}"


def chosen_words(d: Decision) -> str:
    """What was chosen, short: 'kept 5H 5D JS QC, laid 8H 2S' or 'laid 8C on 7S 9D (16)'."""
    if isinstance(d, DiscardReview):
        return f"kept {format_cards(d.chosen.kept)}, laid {format_cards(d.chosen.thrown)}"
    on = f" on {format_cards(d.pile)} ({d.count})" if d.pile else " to lead"
    return f"laid {d.played}{on}"


def best_words(d: Decision) -> str:
    """The best found, short: 'best: laid QC 2S', 'best: 9D'."""
    if isinstance(d, DiscardReview):
        return f"best: laid {format_cards(d.best.thrown)}"
    return f"best: {d.best.card}"


def crib_words(d: DiscardReview) -> str:
    return "their own crib" if d.own_crib else "the opponent's crib"


def possessive(name: str) -> str:
    """'Your', 'Medium bot's', 'Ann's'."""
    return "Your" if name == "You" else f"{name}'s"


def method_words(d: Decision) -> str:
    """How the decision was weighed, in words."""
    if isinstance(d, DiscardReview):
        thrown = "the card laid away is" if len(d.advice[0].thrown) == 1 else "the two cards are"
        return (
            f"Weighed by the discard advisor: each hand's exact average show over the {len(DECK) - len(d.dealt)} "
            f"starters, and what {thrown} worth in {crib_words(d)} (Hard's crib table)."
        )
    if d.samples == 0:
        return "Only one card could be laid here: there was nothing to weigh."
    return (
        f"Weighed by Hard's look-ahead: the rest of the play played out over {d.samples} guesses at the "
        "opponent's cards, drawn from what this player had seen; a card's value is the points it and the "
        "cards after it win, less those they give away."
    )


class CribbageReviewScene(ReviewFrame[CribbageReview]):
    """The review of `table`'s game of cribbage; `on_close()` when the player is done. `worker` runs the
    analysis (None: the table layer's `CribbageReviewWorker`, started here)."""

    unit = "decision"
    heads = ("Decision", "Player", "Chosen / best", "", "Lost")
    running_words = "Each discard is weighed by the advisor, each card laid by Hard's look-ahead."
    hint_list = "Up/Down choose · Enter or a click opens one · O orders · Tab one player · E saves the chart · Esc back"
    hint_turn = "Left/Right: the decision before or after in the list · Esc: back to the list"

    def __init__(
        self,
        host: ReviewHost,
        table: CribbageTable,
        on_close: Callable[[], None],
        worker: Worker[CribbageReview] | None = None,
    ) -> None:
        self.table = table
        if worker is None:
            try:
                worker = start_worker(table)
            except ReviewRefused as e:
                worker = Refused(str(e))
        super().__init__(host, on_close, worker)

    # --- what the review says ---

    def count(self, review: CribbageReview) -> int:
        return len(review.decisions)

    def misses_first(self, review: CribbageReview) -> list[int]:
        return misses_first(review.decisions, review.biggest_misses(len(review.decisions)))

    def player_of(self, review: CribbageReview, index: int) -> int:
        return review.decisions[index].player

    def names_of(self, review: CribbageReview) -> tuple[str, ...]:
        return review.names

    def series(self, review: CribbageReview) -> Series:
        """The scores after each decision, and the final scores last: what was pegged after the last card
        laid (the go, the show) ends the lines where the legend ends."""
        after = review.scores
        if not after or tuple(after[-1]) != tuple(review.finals):
            after = (*after, review.finals)
        return Series.of(review.names, after, finals=review.finals, unit="decisions")

    def chart_title(self, review: CribbageReview) -> str:
        finals = " · ".join(f"{n} {s}" for n, s in zip(review.names, review.finals, strict=True))
        return f"Crib Tiles — cribbage scores decision by decision (final scores: {finals})"

    @property
    def decision(self) -> Decision | None:
        """The decision chosen in the list (and shown when one is opened)."""
        i = self.index
        return None if i is None or self.review is None else self.review.decisions[i]

    # --- drawing ---

    def draw_row(self, surface: pygame.Surface, index: int, rect: Rect, columns: tuple[int, ...], s: int) -> None:
        review = self.review
        assert review is not None
        d = review.decisions[index]
        x, y, w, _h = rect
        big, small = s - 3, max(14, s - 7)
        y1 = y + 3
        y2 = y1 + round(big * 1.2)
        write(surface, when_words(d), big, DIM, (columns[0], y1), "topleft")
        colour = art.PLAYER_COLOURS[d.player % len(art.PLAYER_COLOURS)]
        pygame.draw.circle(surface, colour, (columns[1] + 6, y1 + big // 3), 6)
        said = figures(d)
        room = columns[2] - columns[1] - 24 - art.font(big).size(said)[0]
        write(surface, fit(review.names[d.player], big, room), big, CREAM, (columns[1] + 18, y1), "topleft")
        write(surface, said, big, CREAM, (columns[2], y1), "topright")
        if d.is_best:
            write(surface, "the best", big, BEST, (columns[4], y1), "topright")
        else:
            lost = RED if d.value_lost >= BIG_MISS else GOLD
            write(surface, f"{d.value_lost:.1f}", big, lost, (columns[4], y1), "topright")
        half = (w - 24) // 2
        write(surface, fit(chosen_words(d), small, half + half // 3), small, DIM, (columns[0], y2), "topleft")
        if not d.is_best:
            at = x + w - 8
            write(surface, fit(best_words(d), small, half - half // 3 - 8), small, BEST, (at, y2), "topright")

    def draw_summary(self, surface: pygame.Surface, box: Rect, s: int) -> None:
        """Each player over the game: the best discards and cards, the points lost in each."""
        review = self.review
        assert review is not None
        x, y, w, h = box
        size = max(14, s - 5)
        small = max(13, size - 2)
        lh = round(size * 1.3)
        for row in review.totals():
            if y + lh > box[1] + h:
                break
            colour = art.PLAYER_COLOURS[row.player % len(art.PLAYER_COLOURS)]
            pygame.draw.circle(surface, colour, (x + 6, y + size // 3), 6)
            name = f"{review.names[row.player]} over the game: the best found on {row.accuracy:.0%} of the decisions"
            write(surface, fit(name, size, w - 20), size, CREAM, (x + 18, y), "topleft")
            y += lh
            for line in (
                f"discards: the best {row.best_discards} of {row.discards}, "
                f"{row.discard_lost:.1f} expected points lost",
                f"the play: the best card {row.best_plays} of {row.plays}, {row.play_lost:.1f} points lost",
            ):
                if y + lh > box[1] + h:
                    break
                write(surface, fit(line, small, w - 18), small, DIM, (x + 18, y), "topleft")
                y += round(small * 1.25)
            y += 4

    def draw_turn(self, surface: pygame.Surface) -> None:
        d = self.decision
        review = self.review
        assert d is not None and review is not None
        lay = turn_layout(surface.get_size())
        s = lay.text
        backdrop(surface)
        card(surface, lay.card)
        name = review.names[d.player]
        kind = "discard" if isinstance(d, DiscardReview) else "card laid"
        heading(surface, f"Deal {d.deal} · {possessive(name)} {kind}", lay.card, s, self.hint_turn)
        x, _, w, _ = lay.card
        colour = BEST if d.is_best else CREAM
        top = lay.headline
        said = wrap(d.words(name), s - 3, w - 3 * s)[:2]
        for k, line in enumerate(said):
            write(surface, line, s - 3, colour, (x + w // 2, top + k * round(s * 1.2)), "midtop")
        top += len(said) * round(s * 1.2) + round(s * 0.2)
        for k, line in enumerate(wrap(method_words(d), s - 7, w - 3 * s)[:2]):
            write(surface, line, s - 7, DIM, (x + w // 2, top + k * round((s - 7) * 1.2)), "midtop")
        chosen, best = lay.panels
        if isinstance(d, DiscardReview):
            _discard_side(surface, chosen, s, "Chosen", d, d.chosen_at, GOLD)
            _discard_side(surface, best, s, "Best found", d, 0, BEST)
        else:
            _play_side(surface, chosen, s, "Chosen", d, True, GOLD)
            _play_side(surface, best, s, "Best found", d, False, BEST)
        labels = {"previous": "Previous", "list": "Back to list", "next": "Next"}
        for bname, rect in lay.buttons.items():
            enabled = bname == "list" or (self.chosen > 0 if bname == "previous" else self.chosen < len(self.shown) - 1)
            button(surface, rect, labels[bname], enabled, contains(rect, self.mouse), strong=bname == "list")


def _card_row(
    surface: pygame.Surface,
    row: Sequence[Card],
    at: tuple[int, int],
    width: int,
    lit: set[Card],
    frame: tuple[int, int, int] = GOLD,
) -> int:
    """Cards left to right from `at`, `width` pixels each, those in `lit` framed in `frame`; the row's height."""
    x, y = at
    height = round(width * 1.4)
    for c in row:
        face = cards.face(c, width)
        surface.blit(face, (x, y))
        height = face.get_height()
        if c in lit:
            pygame.draw.rect(surface, frame, (x - 2, y - 2, width + 4, height + 4), 3, border_radius=6)
        x += width + max(4, width // 8)
    return height


def _panel(surface: pygame.Surface, rect: Rect, s: int, title: str, figure: str, colour: tuple[int, int, int]) -> int:
    """The side's ground, title and figure; the y under them."""
    x, y, w, _ = rect
    rounded_panel(surface, rect, FIELD, 8)
    pad = max(6, s // 2)
    write(surface, title, s, colour, (x + pad, y + pad), "topleft")
    write(surface, figure, s, colour, (x + w - pad, y + pad), "topright")
    return y + pad + round(s * 1.6)


def _card_width(rect: Rect, s: int, n: int, share: float = 0.18) -> int:
    """Cards `n` to a row across the panel, none taller than about `share` of it."""
    _, _, w, h = rect
    return max(24, min((w - s * 2) // (n + 1), round(h * share)))


def _discard_side(
    surface: pygame.Surface, rect: Rect, s: int, title: str, d: DiscardReview, at: int, colour: tuple[int, int, int]
) -> None:
    """One way to discard: the six dealt (the two laid away framed), its expectation, and the advisor's list."""
    x, _, w, h = rect
    pad = max(6, s // 2)
    advice = d.advice[at]
    y = _panel(surface, rect, s, title, f"{advice.total:.1f}", colour)
    width = _card_width(rect, s, len(d.dealt))
    y += _card_row(surface, d.dealt, (x + pad, y), width, set(advice.thrown), colour) + pad
    small = max(13, s - 6)
    lines = [
        f"Kept {format_cards(advice.kept)}: the hand {advice.hand:.2f} on average",
        f"Laid {format_cards(advice.thrown)} in {crib_words(d)}: {advice.crib:+.2f}",
        f"Expected {advice.total:.2f} in all: the advisor's {_ordinal(at + 1)} of {len(d.advice)}",
    ]
    for line in lines:
        write(surface, fit(line, small, w - 2 * pad), small, CREAM, (x + pad, y), "topleft")
        y += round(small * 1.3)
    if at != 0:
        return
    y += pad // 2
    write(surface, "The advisor's best discards:", small, DIM, (x + pad, y), "topleft")
    y += round(small * 1.3)
    tiny = max(12, small - 2)
    for k, a in enumerate(d.advice[:OTHERS]):
        if y + tiny > rect[1] + h - pad:
            break
        mark = "» " if k == d.chosen_at else ""
        said = f"{mark}laid {format_cards(a.thrown)}: hand {a.hand:.2f}, crib {a.crib:+.2f}, {a.total:.2f}"
        write(surface, fit(said, tiny, w - 2 * pad), tiny, GOLD if k == d.chosen_at else DIM, (x + pad, y), "topleft")
        y += round(tiny * 1.25)


def _play_side(
    surface: pygame.Surface,
    rect: Rect,
    s: int,
    title: str,
    d: PlayReview,
    chosen: bool,
    colour: tuple[int, int, int],
) -> None:
    """The card laid (`chosen`) or the best: the hand held (the card framed), the count, its value; on
    the best's side every card weighed."""
    x, _, w, h = rect
    pad = max(6, s // 2)
    shown = d.chosen if chosen else d.best
    card_laid = d.played if chosen else shown.card
    y = _panel(surface, rect, s, title, f"{shown.value:+.1f}", colour)
    small = max(13, s - 6)
    width = _card_width(rect, s, 6, 0.14)
    if d.pile:
        write(surface, f"On the table, the count {d.count}:", small, DIM, (x + pad, y), "topleft")
        y += round(small * 1.3)
        y += _card_row(surface, d.pile[-6:], (x + pad, y), round(width * 0.75), set()) + pad
    write(surface, "Held:" if d.pile else "Held, to lead:", small, DIM, (x + pad, y), "topleft")
    y += round(small * 1.3)
    y += _card_row(surface, d.hand, (x + pad, y), width, {card_laid}, colour) + pad
    on = f"On {format_cards(d.pile)} (count {d.count})" if d.pile else "To lead (count 0)"
    lines = [
        f"{on}: {card_laid}, making {d.count + card_laid.value}",
        f"{shown.points} points now; {shown.value:+.2f} over the rest of the play",
    ]
    for line in lines:
        write(surface, fit(line, small, w - 2 * pad), small, CREAM, (x + pad, y), "topleft")
        y += round(small * 1.3)
    if chosen:
        return
    y += pad // 2
    write(surface, "Every card that fitted:", small, DIM, (x + pad, y), "topleft")
    y += round(small * 1.3)
    tiny = max(12, small - 2)
    for w8 in d.weighed:
        if y + tiny > rect[1] + h - pad:
            break
        mine = w8.card.rank == d.played.rank
        said = f"{'» ' if mine else ''}{w8.card}: {w8.points} now, {w8.value:+.2f} over the play"
        write(surface, fit(said, tiny, w - 2 * pad), tiny, GOLD if mine else DIM, (x + pad, y), "topleft")
        y += round(tiny * 1.25)


def _ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th.

    >>> [_ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 15)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '15th']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"

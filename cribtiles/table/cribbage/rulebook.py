"""The rule book of classic cribbage as pages a player steps through, beside the tile game's
(`cribtiles.table.tiles.rulebook`): each page a title, a few paragraphs and examples drawn with cards.

Every example is real cards in the engine's notation, scored (or refused) by the engine itself: a show by
`score_show`, a count in the play by `peg_items`, a whole play (go, 31, the last card) and the starter by
the game state. Tests hold each stated figure to the engine's, and `cribbage_markdown()` is the section of
docs/rules.md made from these pages.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from cribtiles.cribbage.cards import DECK, Card, CardError, format_cards, parse_card, parse_cards
from cribtiles.cribbage.events import DOUBLE_SKUNK_MARGIN, SKUNK_MARGIN, EventKind
from cribtiles.cribbage.game import CribbageState, new_game
from cribtiles.cribbage.moves import CribbageError, Discard, Go, PlayCard
from cribtiles.cribbage.muggins import WRONG_CALL, Claim, ClaimKind, call_points
from cribtiles.cribbage.options import Phase
from cribtiles.cribbage.peg import item_words, peg_items
from cribtiles.cribbage.show import ShowScore, score_show
from cribtiles.cribbage.show import item_words as show_words

NON_DEALER, DEALER = 1, 0  # the seats of the examples' games: seat 0 deals
WHO = {NON_DEALER: "non-dealer", DEALER: "dealer"}


class CardKind(StrEnum):
    """What an example shows, and which part of the engine scores it."""

    SHOW = "show"  # four cards (a hand or the crib) with the starter: score_show
    PEG = "peg"  # the cards of a count in the order laid: what the last one scores, peg_items
    PLAY = "play"  # both hands laid in the order given to the end of the play: the game's go, 31 and last card
    STARTER = "starter"  # the starter turned up after the discard: his heels or nothing, by the game
    DEAL = "deal"  # six cards dealt and the two laid away to the crib: no figure, only the picture
    MUGGINS = "muggins"  # a hand said aloud and called: what the call moves, to the caller or the counter
    NOTATION = "notation"  # cards as written on the command line: read, or refused in the engine's words


@dataclass(frozen=True)
class CardExample:
    """One illustrated example. `cards` in notation: the four cards of a show, the count's cards in the order
    laid, the non-dealer's four cards of a play, the six dealt, or the text of a notation example. `other`:
    a play's dealer's four cards, or the two of a deal laid in the crib. `order`: a play's cards in the order
    laid (the go said by the game where it is due). `stated` is the figure the page gives: the points (a
    play's, both players' together; muggins: the points missed), None for a refused example (its `why`
    comes from `outcome`) or a deal."""

    caption: str
    kind: CardKind
    cards: str
    stated: int | None
    starter: str = ""
    crib: bool = False
    other: str = ""
    order: str = ""
    declared: int = 0  # MUGGINS: what the owner counted

    @property
    def legal(self) -> bool:
        return self.stated is not None or self.kind is CardKind.DEAL

    @property
    def hand(self) -> tuple[Card, ...]:
        """The cards drawn first: the hand of a show, the count of a peg, the non-dealer's of a play, the deal."""
        return () if self.kind is CardKind.NOTATION else parse_cards(self.cards)

    def outcome(self) -> CardOutcome:
        return _outcome(self)


@dataclass(frozen=True)
class CardOutcome:
    """What the engine makes of an example: its points, one line per scoring (who scores it, for a play),
    or the refusal in the engine's words."""

    total: int | None
    lines: tuple[str, ...]
    refusal: str = ""
    laid: tuple[tuple[int, Card, int], ...] = ()  # a play's cards: (who laid it, the card, the count after it)


@cache
def _outcome(ex: CardExample) -> CardOutcome:
    if ex.kind is CardKind.SHOW:
        return _show(ex)
    if ex.kind is CardKind.PEG:
        try:
            items = peg_items(parse_cards(ex.cards))
        except CardError as e:
            return CardOutcome(None, (), str(e))
        return CardOutcome(sum(i.points for i in items), tuple(f"{item_words(i)}: {i.points}" for i in items))
    if ex.kind is CardKind.PLAY:
        return _play(ex)
    if ex.kind is CardKind.STARTER:
        return _starter(ex)
    if ex.kind is CardKind.MUGGINS:
        claim = Claim(0, ex.declared, ClaimKind.SHOW, parse_cards(ex.cards), parse_card(ex.starter), ex.crib)
        to_caller, to_counter = call_points(claim)
        whom = "to the caller" if to_caller else "to the counter"
        return CardOutcome(to_caller or to_counter, (f"the cards make {claim.worth}", f"said {ex.declared}", whom))
    if ex.kind is CardKind.DEAL:
        return CardOutcome(None, ())
    try:
        cards = parse_cards(ex.cards)
    except CardError as e:
        return CardOutcome(None, (), str(e))
    return CardOutcome(len(cards), (format_cards(cards),))


def _show(ex: CardExample) -> CardOutcome:
    score = score_show(parse_cards(ex.cards), parse_card(ex.starter), ex.crib)
    return CardOutcome(score.total, show_lines(score))


def show_lines(score: ShowScore) -> tuple[str, ...]:
    """The show's items counted by kind, as a player sums them up: '4 fifteens: 8', 'a pair: 2',
    '2 runs of three: 6', 'a flush of five: 5', 'his nobs: 1' (the items one by one are describe_show's)."""
    groups: dict[str, list[int]] = {}
    for item in score.items:
        groups.setdefault(show_words(item), []).append(item.points)
    lines = []
    for words, points in groups.items():
        n = len(points)
        named = words if words == "his nobs" else f"a {words}" if n == 1 else f"{n} {_plural(words)}"
        lines.append(f"{named}: {sum(points)}")
    return tuple(lines)


def _plural(words: str) -> str:
    """'fifteen' -> 'fifteens', 'run of three' -> 'runs of three'."""
    head, _, tail = words.partition(" ")
    return f"{head}s {tail}".rstrip()


def _table(pone: tuple[Card, ...], dealer: tuple[Card, ...], starter: Card) -> CribbageState:
    """The game just before the play, seat 0 dealing: the hands given, the crib and the starter from the
    rest of the deck."""
    hands = {NON_DEALER: pone, DEALER: dealer}
    rest = [c for c in DECK if c not in {*pone, *dealer, starter}]
    pair = (hands[0], hands[1])
    return dataclasses.replace(
        new_game(0),
        dealer=DEALER,
        phase=Phase.PLAY,
        hands=pair,
        shown=pair,
        discarded=(True, True),
        crib=tuple(rest[:4]),
        starter=starter,
        turn=NON_DEALER,
        stock=(),
    )


def _play(ex: CardExample) -> CardOutcome:
    """Lay the cards in `order` through the game (a go said whenever it is the only move), to the show."""
    pone, dealer = parse_cards(ex.cards), parse_cards(ex.other)
    state = _table(pone, dealer, next(c for c in DECK if c not in {*pone, *dealer}))
    lines: list[str] = []
    laid: list[tuple[int, Card, int]] = []
    points = 0
    try:
        for card in parse_cards(ex.order):
            while state.legal_actions() == (Go(),):
                lines.append(f"{WHO[state.turn]}: go")
                state = state.apply(Go())
                lines.extend(f"{WHO[e.player]}: {e.words}" for e in state.events)
                points += sum(e.points for e in state.events)
            player = state.current_player
            assert player is not None
            count = state.count + card.value  # before a go or a 31 starts the count again
            state = state.apply(PlayCard(card))
            laid.append((player, card, count))
            lines.extend(f"{WHO[e.player]}: {e.words}" for e in state.events)
            points += sum(e.points for e in state.events)
    except CribbageError as e:
        return CardOutcome(None, (), str(e))
    if state.phase is not Phase.SHOW:
        return CardOutcome(None, (), "the play is not over: every card must be laid")
    return CardOutcome(points, tuple(lines), laid=tuple(laid))


def _starter(ex: CardExample) -> CardOutcome:
    """Both discard (the first two of their six): the starter turned is the game's, and so is his heels."""
    pone, dealer = parse_cards(ex.cards), parse_cards(ex.other)
    state = dataclasses.replace(
        new_game(0), dealer=DEALER, hands=(dealer, pone), stock=(parse_card(ex.starter),), phase=Phase.DISCARD
    )
    state = state.apply(Discard((pone[0], pone[1])))
    state = state.apply(Discard((dealer[0], dealer[1])))
    heels = [e for e in state.events if e.kind is EventKind.HEELS]
    return CardOutcome(sum(e.points for e in heels), tuple(f"{WHO[e.player]}: {e.words}" for e in heels))


@dataclass(frozen=True)
class CardPage:
    title: str
    paragraphs: tuple[str, ...]
    examples: tuple[CardExample, ...] = ()


SHOW, PEG, PLAY, STARTER, DEAL, MUGGINS, NOTATION = (
    CardKind.SHOW,
    CardKind.PEG,
    CardKind.PLAY,
    CardKind.STARTER,
    CardKind.DEAL,
    CardKind.MUGGINS,
    CardKind.NOTATION,
)

#: Two hands for the examples of the starter: six each, the first two of each laid in the crib.
SIX_PONE, SIX_DEALER = "2C 9D 4H 5S 6C TD", "KC 3S 7H 8D 8S QH"
TARGET = 121

PAGES: tuple[CardPage, ...] = (
    CardPage(
        "Contents",
        (
            "Classic cribbage is the card game Kings Cribbage grew from: two players, a deck of 52 cards, "
            "and the first to 121 wins; or three, or four in partnerships, or five-card cribbage to 61 (the "
            "pages after the game's own). Choose a page, or step through them with the arrows.",
        ),
    ),
    CardPage(
        "The deal and the crib",
        (
            "Each player cuts the deck; the lower card deals (the ace is low; on a tie both cut again). "
            "After that the deal passes to and fro.",
            "The dealer deals six cards each. Each player lays two of them away, face down, to the crib: "
            "the crib is the dealer's, a third hand counted for the dealer at the end of the deal. So the "
            "dealer keeps cards for the hand and the crib, the non-dealer for the hand and against the crib.",
        ),
        (
            CardExample(
                "six cards dealt: keep four, lay two away to the crib", DEAL, "5H 5D JC QS 2C 9D", None, other="2C 9D"
            ),
        ),
    ),
    CardPage(
        "The starter and his heels",
        (
            "Once both have laid their two away, the non-dealer cuts the deck and the dealer turns up the "
            "top card of the lower part: the starter. It is not played, but it counts with every hand and "
            "with the crib in the show.",
            "A jack turned up as the starter gives the dealer 2 at once, for his heels.",
        ),
        (
            CardExample(
                "a jack turned up: 2 for his heels, to the dealer", STARTER, SIX_PONE, 2, "JH", other=SIX_DEALER
            ),
            CardExample("any other card: no points for the cut (0)", STARTER, SIX_PONE, 0, "5D", other=SIX_DEALER),
        ),
    ),
    CardPage(
        "The play: the count, fifteen and 31",
        (
            "The non-dealer lays a card face up and says its value; then the dealer; and so on, each adding "
            "to the count. A counts 1, 2 to 10 their face, J Q K count 10. The count never passes 31.",
            "A card that makes the count 15 scores 2; one that makes it exactly 31 scores 2.",
        ),
        (
            CardExample("7 then 8: fifteen, 2", PEG, "7H 8D", 2),
            CardExample("K Q 5 6 make 31: 2", PEG, "KH QD 5S 6C", 2),
            CardExample("K Q J 2 would make 32: not allowed", PEG, "KH QD JS 2C", None),
        ),
    ),
    CardPage(
        "Pairs and runs in the play",
        (
            "A card of the same rank as the card before it scores 2 for the pair; a third scores 6 (a pair "
            "royal), a fourth 12 (a double pair royal).",
            "A card that makes a run of three or more with the cards just before it, in any order, scores a "
            "point a card. A card of another rank in between breaks the pair; a repeated rank breaks the run.",
        ),
        (
            CardExample("4 4: a pair, 2", PEG, "4H 4D", 2),
            CardExample("4 4 4: a pair royal, 6", PEG, "4H 4D 4S", 6),
            CardExample("4 4 4 4: a double pair royal, 12", PEG, "4H 4D 4S 4C", 12),
            CardExample("3 5 4: a run of three in any order, 3", PEG, "3H 5D 4S", 3),
            CardExample("3 5 4 6: a run of four, 4", PEG, "3H 5D 4S 6C", 4),
            CardExample("4 4 5 6: the run 4 5 6 is 3 and the count 19 nothing", PEG, "4H 4D 5S 6C", 3),
        ),
    ),
    CardPage(
        "Go and the last card",
        (
            "A player who cannot lay a card without passing 31 says go. The other lays every card they can; "
            "whoever laid the last card then pegs 1 for the go (2 for exactly 31, which scored already), "
            "and the count starts again from 0 with the other player.",
            "The last card of the whole play scores 1, unless it made 31. Then each hand is counted.",
        ),
        (
            CardExample(
                "K Q 9, go, A makes 30 and nobody can lay: go 1; the last card 1: 2 in all",
                PLAY,
                "KH 9S AC 4D",
                2,
                other="QD 7H 8C 6S",
                order="KH QD 9S AC 7H 4D 8C 6S",
            ),
            CardExample(
                "K Q 9, go, 2 makes 31: 2; 7 8 fifteen 2, 8 a pair 2, the last card 1: 7",
                PLAY,
                "KH 9S 2C 8D",
                7,
                other="QD 7H 8C 6S",
                order="KH QD 9S 2C 7H 8D 8C 6S",
            ),
        ),
    ),
    CardPage(
        "The show",
        (
            "After the play each hand is counted with the starter, in turn: first the non-dealer's hand, then "
            "the dealer's hand, then the dealer's crib. The non-dealer counts first, which matters at the end "
            "of a game.",
            "Every different group of cards adding up to 15 scores 2, every pair 2, and every run of three or "
            "more a point a card, as in Kings Cribbage; a double run (a rank of the run twice) counts twice.",
        ),
        (
            CardExample("4 5 6 J with a 5: fifteens 8 + a pair 2 + two runs 6 = 16", SHOW, "4H 5D 6S JC", 16, "5H"),
            CardExample("3 4 4 5 with a 9: a double run 6 + a pair 2 = 8", SHOW, "3H 4D 4S 5C", 8, "9H"),
            CardExample("7 8 8 9 with a 7: fifteens 8 + pairs 4 + four runs 12 = 24", SHOW, "7C 8C 8D 9S", 24, "7D"),
            CardExample("A 6 9 Q with a K: one fifteen, 2", SHOW, "AD 6C 9H QS", 2, "KC"),
        ),
    ),
    CardPage(
        "Flush and his nobs",
        (
            "Four cards of one suit in the hand score 4 for a flush, 5 when the starter is of the suit too. "
            "The crib scores a flush only with all five.",
            "The jack of the starter's suit in a hand or the crib scores 1: his nobs.",
            "The most a hand can score is 29: three 5s and the jack of the fourth 5's suit, the fourth 5 "
            "turned up. No hand scores 19, 25, 26 or 27.",
        ),
        (
            CardExample(
                "four hearts, the starter a spade: a flush of four 4 + a fifteen 2 = 6", SHOW, "2H 4H 7H 9H", 6, "KS"
            ),
            CardExample("the same four in the crib: no flush, 2", SHOW, "2H 4H 7H 9H", 2, "KS", crib=True),
            CardExample(
                "five hearts in the crib: a flush of five 5 + a fifteen 2 = 7", SHOW, "2H 4H 7H 9H", 7, "KH", crib=True
            ),
            CardExample(
                "the jack of spades, a spade turned: fifteens 4 + his nobs 1 = 5", SHOW, "JS 3D 8C KH", 5, "5S"
            ),
            CardExample("three 5s and the jack of clubs, the 5 of clubs turned: 29", SHOW, "5H 5D 5S JC", 29, "5C"),
        ),
    ),
    CardPage(
        "121, the lurch and the skunk",
        (
            f"The first player to reach {TARGET} wins at once, whenever it happens: in the play, or in the show "
            "before the other has counted (which is why the non-dealer counts first). The peg stops at 121. "
            "With muggins, a count said aloud that reaches it wins once it is answered.",
            f"A loser who has not reached {TARGET - SKUNK_MARGIN} is lurched (skunked): a win worth two games. Below "
            f"{TARGET - DOUBLE_SKUNK_MARGIN} it is a double lurch (a double skunk), worth three. The statistics "
            "count the games won and lost so (By the book), beside the games themselves.",
        ),
    ),
    CardPage(
        "Three players",
        (
            "Three play each for themselves. The lowest card cut deals (ties among the lowest cut again); the "
            "deal then passes to the left. The dealer deals five cards each, one at a time from the left, and one "
            "card face down to the crib from the pack (our choice: with the hands, not after the discards). Each "
            "lays one card away to the crib, so it has four.",
            "The player on the dealer's left leads the play and counts first in the show; the play and the show "
            "go round to the left, the dealer last, then the crib. Every hand is four cards, as with two.",
            "Go with three: a player who cannot lay says go and the others go on while any of them can. When "
            "nobody can, the last to lay pegs 1 (2 for 31), and the next player after them who still holds "
            "cards leads the new count from 0 (after a 31 too). The last card of the play scores 1.",
            "With muggins, a count said aloud is answered by the next player round (our choice: one caller, so "
            "that the same points are not called twice).",
            "The first to the target wins; it is a lurch only when both losers are short of the line (our "
            "choice: the margin is the best loser's).",
        ),
    ),
    CardPage(
        "Four: partnerships",
        (
            "Four play as two sides of two; partners sit across from each other (you and North against West "
            "and East) and peg together on one track. The lowest card cut deals (ties cut again).",
            "The dealer deals five cards each, one at a time from the left; each lays one away to the crib, "
            "which has four and is the dealer's side's. No card comes from the pack.",
            "The play and the show go round to the left from the dealer's left, the dealer's hand last, then the "
            "crib; the go is as with three. A side wins when its score reaches the target, whoever pegs it.",
            "With muggins, a count is answered by the next player round of the other side (our choice).",
        ),
    ),
    CardPage(
        "Five-card cribbage",
        (
            "The older game, for two, usually played to 61. The dealer deals five cards each; each lays two "
            "away to the crib, so a hand is three cards (and the starter) and the crib four.",
            "At the start of the game the non-dealer pegs 3, for last: the dealer's crib is worth more.",
            "The play goes once: to 31 or until neither can lay (a go), and then it ends; cards not laid stay "
            "in the hand, and are counted in the show.",
            "A flush in the hand is its three cards of one suit (3), four with the starter (4); the crib scores "
            "a flush only with all five, as ever.",
        ),
        (
            CardExample("three hearts, a spade turned: fifteen 2 + a flush of three 3 = 5", SHOW, "2H 4H 9H", 5, "KS"),
            CardExample("the same with a heart turned: fifteen 2 + a flush of four 4 = 6", SHOW, "2H 4H 9H", 6, "KH"),
        ),
    ),
    CardPage(
        "A game to 61",
        (
            "Any of the games may be played to 61 instead of 121, once round a long board: five-card cribbage "
            "is, by custom. The first to 61 wins at once.",
            "A loser under 31 is lurched (skunked), 30 short of the target as at 121; a double lurch would be "
            "under 1, so a game to 61 has none.",
        ),
    ),
    CardPage(
        "Counting by hand (optional)",
        (
            "Counting by hand, without muggins: you say what your own hand and crib make, as players do at a "
            "board. The table checks every count: a wrong one is corrected and shown, the right count and what "
            "makes it, and the cards' worth is pegged, never what was said; nothing is lost, and nothing goes to "
            "the opponent. It is for learning to count. The bots count exactly. With muggins chosen, muggins "
            "rules the count instead.",
        ),
    ),
    CardPage(
        "Muggins (optional)",
        (
            "With muggins, each player counts their own hand and crib aloud and pegs what they said, but never "
            "more than the cards make: a count said over pegs what the cards make.",
            "Calls go both ways: the bot calls your wrong counts (Easy and Medium overlook some), and you call "
            "its own (Easy and Medium now and then count short; M calls). "
            "Whatever was said, the opponent answers before the game goes on: muggins!, or let it stand. A call "
            "takes the points missed, or (our choice) the points said over; a call on a right count costs the "
            f"caller {WRONG_CALL}, pegged by the counter (our choice: free calls would be made on every count). A "
            f"count said to reach {TARGET} is answered too, so that the end tells nothing of the cards: then "
            f"whoever has reached {TARGET} wins, the counter first (our choice). A game saved before this rule "
            "ends as it did then: at the count.",
            "Muggins in the play, a second option: each card laid is said aloud with what it scores, and may be "
            "called the same way; laying your next card lets the other's stand. The go and the last card are "
            "pegged for you. The bots slip by level: Easy most, Medium now and then, Hard never. Both are off "
            "unless chosen.",
        ),
        (
            CardExample(
                "4 5 6 J with a 5 said 12: 4 missed, to the caller", MUGGINS, "4H 5D 6S JC", 4, "5H", declared=12
            ),
            CardExample(
                "7 8 8 9 with a 7 said 26: it pegs 24; 2 said over, to the caller",
                MUGGINS,
                "7C 8C 8D 9S",
                2,
                "7D",
                declared=26,
            ),
            CardExample(
                f"4 5 6 J with a 5 said 16 and called: right, {WRONG_CALL} to the counter",
                MUGGINS,
                "4H 5D 6S JC",
                WRONG_CALL,
                "5H",
                declared=16,
            ),
        ),
    ),
    CardPage(
        "Writing cards down",
        (
            "For the command line (cribtiles cribbage score and peg). A card is a rank A 2 3 4 5 6 7 8 9 T J Q K "
            "(10 for T is fine) and a suit S H D C: 5H, TD, AS. Cards are separated by spaces or commas.",
            'cribtiles cribbage score "5H 5D 5S JC" --starter 5C counts a hand (--crib for a crib); '
            'cribtiles cribbage peg "4H 7D 4S" says what the last card of a count scores.',
        ),
        (
            CardExample("written right, 10 or T alike: 4 cards", NOTATION, "5H 10D TS AC", 4),
            CardExample("X is not a suit", NOTATION, "5X", None),
            CardExample("an ace is written A, not 1", NOTATION, "1H", None),
            CardExample("a card named twice", NOTATION, "5H 5H", None),
        ),
    ),
)

CONTENTS = 0


def contents() -> tuple[str, ...]:
    """The titles of the pages after the contents page, in order."""
    return tuple(p.title for p in PAGES[CONTENTS + 1 :])


def all_examples() -> tuple[tuple[CardPage, CardExample], ...]:
    return tuple((page, ex) for page in PAGES for ex in page.examples)


def describe(ex: CardExample) -> str:
    """One example in words, as docs/rules.md lists it: the cards, and what the engine makes of them."""
    out = ex.outcome()
    crib = " (the crib)" if ex.crib else ""
    if ex.kind is CardKind.SHOW:
        what = f"`{ex.cards}` with `{ex.starter}`{crib}"
    elif ex.kind is CardKind.PEG:
        what = f"laid `{ex.cards}`"
    elif ex.kind is CardKind.PLAY:
        what = f"non-dealer `{ex.cards}`, dealer `{ex.other}`, laid `{ex.order}`"
    elif ex.kind is CardKind.STARTER:
        what = f"starter `{ex.starter}`"
    elif ex.kind is CardKind.DEAL:
        return f"- {ex.caption} — dealt `{ex.cards}`, to the crib `{ex.other}`"
    elif ex.kind is CardKind.MUGGINS:
        what = f"`{ex.cards}` with `{ex.starter}` said {ex.declared}"
    else:
        what = f"`{ex.cards}`"
    if out.refusal:
        return f"- {ex.caption} — {what} → refused: {out.refusal}"
    detail = f" ({'; '.join(out.lines)})" if out.lines and ex.kind is not CardKind.NOTATION else ""
    return f"- {ex.caption} — {what} → **{out.total}**{detail}"


BEGIN = "<!-- classic cribbage: begin (made by cribtiles.table.cribbage.rulebook.cribbage_markdown) -->"
END = "<!-- classic cribbage: end -->"


def cribbage_markdown() -> str:
    """The pages (but the contents) as the section of docs/rules.md between BEGIN and END: each page's
    words, then its examples as the engine scores them."""
    lines = [BEGIN, ""]
    for page in PAGES[CONTENTS + 1 :]:
        lines += [f"### {page.title}", ""]
        for para in page.paragraphs:
            lines += [para, ""]
        if page.examples:
            lines += [describe(ex) for ex in page.examples]
            lines.append("")
    lines.append(END)
    return "\n".join(lines)


def with_cribbage(markdown: str) -> str:
    """`markdown` (docs/rules.md) with its classic cribbage section made again from the pages."""
    head, begin, rest = markdown.partition(BEGIN)
    if not begin:
        raise ValueError("docs/rules.md has no classic cribbage section")
    _, end, tail = rest.partition(END)
    if not end:
        raise ValueError("docs/rules.md's classic cribbage section has no end")
    return head + cribbage_markdown() + tail

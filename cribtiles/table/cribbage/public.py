"""What both players may see of a cribbage game while it is played (`CribbagePublic`): no hand of either
seat before it is shown, no crib before it is counted, no deck order, no seed; a seat's own hand is its
`view`. Both go over a wire as JSON (`public_json`, `public_from_json`; `view_json`, `view_from_json`:
the cards a seat has not seen are worked out at the far end, for their list names the other hand's too)
(issue 30). While a score said aloud waits for its answer, neither tells what it makes (`open_call`):
its event's points are None, the scores as before it (issue 43)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, NamedTuple

from cribtiles.cribbage.cards import DECK, Card, parse_card
from cribtiles.cribbage.events import EventKind, MarginKind, Outcome, ScoreEvent
from cribtiles.cribbage.game import describe_cut, new_game
from cribtiles.cribbage.moves import Count, Discard, Go, Muggins, PlayCard, parse_move
from cribtiles.cribbage.muggins import Claim, ClaimKind
from cribtiles.cribbage.options import CribbageOptions, Phase, Variant, named_end_on_answer, unnamed_end_on_answer
from cribtiles.cribbage.peg import PegKind
from cribtiles.cribbage.show import ShowKind, ShowScore, score_show
from cribtiles.cribbage.view import CribbageView, ShownHand

from .open_call import SAID, told_scores
from .table import COMPASS_NAMES, CribbageTable, Happening
from .table import CribbageSummary as CribbageSummary

PUBLIC_FORMAT = "cribtiles cribbage public"
VIEW_FORMAT = "cribtiles cribbage view"


class Act(StrEnum):
    """What kind of move a told move was (a discard's cards are not public: only that two were laid)."""

    DISCARD = "discard"
    PLAY = "play"
    GO = "go"
    COUNT = "count"
    CALL = "muggins"
    LET_STAND = "let stand"


@dataclass(frozen=True)
class PublicCounted:
    """A hand (or the crib) counted in the show, as `CountedHand` but for all to see: it is face up."""

    owner: int
    cards: tuple[Card, ...]
    starter: Card
    crib: bool
    declared: int
    called: bool | None = None

    @property
    def score(self) -> ShowScore:
        return score_show(self.cards, self.starter, self.crib)


class PublicEvent(NamedTuple):
    """One scoring as the table is told it (a `ScoreEvent`'s fields): `points` is None for the event of a
    score said aloud while it waits for its answer, for what it pegged would tell what the cards make."""

    player: int
    points: int | None
    kind: PegKind | ShowKind | EventKind
    cards: tuple[Card, ...]
    words: str


@dataclass(frozen=True)
class PublicMove:
    """A move told at the table: who, what kind, the card laid (None for any other), its words and points.
    A move that said a score aloud (muggins) holds that score's event always ("counts 24"), its points
    None until the answer, then what it pegged (0 too)."""

    player: int
    act: Act
    card: Card | None
    deal: int
    phase: Phase
    events: tuple[PublicEvent, ...]
    count: int
    words: str
    # online: why the server's stand-in made it for its player ("timer": their time ran out; "away": they
    # were away longer than the table allows); None when the player made it
    stand_in: str | None = None


@dataclass(frozen=True)
class CribbagePublic:
    """A cribbage game as the whole table sees it: a name, a hand's size and a seat's kind a player (two,
    three or four), a score and a back peg a side (partners share one)."""

    names: tuple[str, ...]  # one a player
    person: int | None  # the seat a person plays (the window's), None for bots only
    level: str
    options: CribbageOptions
    scores: tuple[int, ...]  # one a side (partners share one)
    previous: tuple[int, ...]  # the back pegs, one a side
    dealer: int
    deal_number: int
    phase: Phase
    show_step: int
    ply: int
    to_move: int | None
    starter: Card | None
    pile: tuple[Card, ...]
    count: int
    sequences: tuple[tuple[tuple[int, Card], ...], ...]  # the play's counts so far, each card in order
    hand_sizes: tuple[int, ...]
    crib_size: int
    counted: tuple[PublicCounted, ...]
    claim: Claim | None
    story: tuple[PublicMove, ...]  # this deal's moves (the last deal's last one until this deal has one)
    cut_words: tuple[str, ...]
    summary: CribbageSummary | None
    bots: tuple[bool, ...]  # which seats a bot plays (online, the other seat may be a person's)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def bot(self) -> int:
        """The other seat with two players (a bot's at one window; online, a bot's or another person's);
        with more, the next player round from the person's left."""
        return ((self.person or 0) + 1) % len(self.names)

    @property
    def others(self) -> tuple[int, ...]:
        """The other seats, clockwise from the person's left (as they sit round the felt, left to right)."""
        me = self.person or 0
        return tuple((me + i) % len(self.names) for i in range(1, len(self.names)))

    def side_of(self, player: int) -> int:
        """`player`'s scoring side (partners 0 and 2, 1 and 3 share one; else a player's own)."""
        return self.options.variant.side_of(player)

    def side_names(self, you: str = "You") -> tuple[str, ...]:
        """Each side's name, the person as `you`: "You", "Medium bot"; partners "You & North".

        >>> from cribtiles.table.cribbage.table import CribbageTable
        >>> from cribtiles.cribbage.options import CribbageOptions, Variant
        >>> public_of(CribbageTable.new(7, "easy", CribbageOptions(variant=Variant.PARTNERSHIP))).side_names()
        ('You & North', 'West & East')
        """
        named = [you if p == self.person else n for p, n in enumerate(self.names)]
        sides: list[list[str]] = [[] for _ in self.scores]
        for p, name in enumerate(named):
            sides[self.side_of(p)].append(name)
        return tuple(" & ".join(sorted(side, key=lambda n: n != you)) for side in sides)

    def partner(self, player: int) -> int | None:
        """The player across the table in partnerships; else None."""
        return (player + 2) % 4 if len(self.scores) < len(self.names) else None

    def name(self, player: int) -> str:
        return self.names[player]

    def called(self, player: int) -> str:
        """`player` in a sentence: a bot by its level with an article ("the Medium bot"), a person by
        name alone ("Ben").

        >>> from dataclasses import replace
        >>> from cribtiles.table.cribbage.table import CribbageTable
        >>> p = public_of(CribbageTable.new(7, "medium"))
        >>> p.called(1), replace(p, names=("You", "Ben"), bots=(False, False)).called(1)
        ('the Medium bot', 'Ben')
        """
        name = self.names[player]
        return f"the {name}" if self.bots[player] and name not in COMPASS_NAMES else name

    def its(self, player: int) -> str:
        """The word for what `player` owns: "its" for a bot, "their" for a person."""
        return "its" if self.bots[player] else "their"

    def answered(self, move: PublicMove) -> tuple[PublicEvent, ...]:
        """The events of the score said aloud that `move` answered (a call, or letting it stand), with the
        points the story tells now that it is answered; () when `move` answered none or is not in the story."""
        if move.act not in (Act.CALL, Act.LET_STAND):
            return ()
        at = next((i for i in range(len(self.story) - 1, 0, -1) if self.story[i] == move), None)
        return () if at is None else tuple(e for e in self.story[at - 1].events if e.kind in SAID)


def _act(h: Happening) -> tuple[Act, Card | None]:
    move = h.move
    if isinstance(move, PlayCard):
        return Act.PLAY, move.card
    if isinstance(move, Discard):
        return Act.DISCARD, None
    if isinstance(move, Go):
        return Act.GO, None
    if isinstance(move, Count):
        return Act.COUNT, None
    assert isinstance(move, Muggins)
    return (Act.CALL if move.claim else Act.LET_STAND), None


def _opening(table: CribbageTable) -> list[str]:
    """What was pegged before the first move (five-card cribbage's three for last), in words."""
    state = table.state
    if state.variant is not Variant.FIVE_CARD:
        return []
    start = new_game(state.seed, state.names, state.options) if table.ply else state
    return [_capital(f"{table.called(e.player)} pegged {e.words}.") for e in start.events]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def public_move(h: Happening, open_claim: Claim | None, stand_in: str | None = None) -> PublicMove:
    """`h` as the table is told it while `open_claim` (the state's; None: none) waits for its answer: the
    score `h` said aloud, while it is that one, without its points; `stand_in`: why a stand-in made it."""
    act, card = _act(h)
    events = _told_events(h, open_claim)
    return PublicMove(h.player, act, card, h.deal, h.phase, events, h.count, h.words, stand_in)


def _told_events(h: Happening, open_claim: Claim | None) -> tuple[PublicEvent, ...]:
    events = tuple(PublicEvent(*e) for e in h.events)
    said = h.said
    if said is None:
        return events
    if said == open_claim:  # still open to a call: its event told without points (it pegs nothing else)
        return (PublicEvent(*said.event)._replace(points=None), *(e for e in events if e.kind not in SAID))
    if any(e.kind in SAID for e in events):
        return events
    return (PublicEvent(*said.event), *events)  # answered, it pegged nothing: told so, as it was told untold


def told_move(table: CribbageTable, h: Happening) -> PublicMove:
    """`h`, a move of `table`, as the table is told it now."""
    return public_move(h, table.state.claim)


def _told_story(table: CribbageTable) -> list[Happening]:
    """The story of this deal only (the last move while it has none, for a show kept in sight, with the count
    it answered: a score said aloud is told its points then): what was laid in a deal gone by says nothing
    of the hands now, and a long game's story need not cross a wire."""
    deal = table.state.deal_number
    this_deal = [h for h in table.story if h.deal == deal]
    if this_deal or not table.story:
        return this_deal
    last = table.story[-1]
    return table.story[-2:] if isinstance(last.move, Muggins) else [last]


def public_of(table: CribbageTable) -> CribbagePublic:
    """What everyone sees of `table` now (`person`: the table's person, the summary told to them)."""
    return _public(table, table.person, table.summary())


def public_for(table: CribbageTable, seat: int | None, stand_ins: Mapping[int, str] | None = None) -> CribbagePublic:
    """What everyone sees of `table` now, as `seat` is sent it online: `person` is that seat (None: a
    spectator's), the summary told to it; `stand_ins`: the moves (by number) the server's stand-in made."""
    return _public(table, seat, table.summary(seat), stand_ins or {})


def seat_view(table: CribbageTable, seat: int) -> CribbageView:
    """What `seat` sees: its own hand, never the other's before the show nor the crib before it is
    counted (`CribbageState.view`, less the other's cards waiting to be counted), nor what a score said
    aloud makes while it waits for its answer (`CribbageTable.view`)."""
    view = table.view(seat)
    if view.to_count and view.current_player != seat:
        # the other's hand (or crib) waiting to be counted: face up only once its owner counts it
        return replace(view, to_count=())
    return view


def _public(
    table: CribbageTable,
    person: int | None,
    summary: CribbageSummary | None,
    stand_ins: Mapping[int, str] | None = None,
) -> CribbagePublic:
    made = stand_ins or {}
    state = table.state
    view = table.view(table.person if table.person is not None else 0)
    return CribbagePublic(
        names=state.names,
        person=person,
        level=table.level,
        options=table.options,
        scores=told_scores(state.scores, state.claim, state.side_of),
        previous=tuple(table.previous),
        dealer=state.dealer,
        deal_number=state.deal_number,
        phase=state.phase,
        show_step=state.show_step,
        ply=table.ply,
        to_move=table.to_move,
        starter=state.starter,
        pile=view.pile,
        count=view.count,
        sequences=tuple(tuple(s) for s in table.sequences),
        hand_sizes=view.cards_left,  # less the crib cards laid ahead (`laid_ahead`)
        crib_size=view.crib_size,
        counted=tuple(
            PublicCounted(c.owner, c.cards, c.score.starter, c.crib, c.declared, c.called) for c in table.counted
        ),
        claim=state.claim,
        story=tuple(public_move(h, state.claim, made.get(h.ply)) for h in _told_story(table)),
        cut_words=tuple(describe_cut(state) + _opening(table)) if state.deal_number == 1 else (),
        summary=summary,
        bots=tuple(s.is_bot for s in table.seats),
    )


# --- JSON ---

_KINDS: dict[str, type[StrEnum]] = {"peg": PegKind, "show": ShowKind, "event": EventKind}


def _cards(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def _read_cards(data: Sequence[str]) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in data)


def _card(card: Card | None) -> str | None:
    return None if card is None else str(card)


def _read_card(text: str | None) -> Card | None:
    return None if text is None else parse_card(text)


def _event(e: PublicEvent | ScoreEvent) -> dict[str, Any]:
    family = next(name for name, kind in _KINDS.items() if isinstance(e.kind, kind))
    return {
        "player": e.player,
        "points": e.points,
        "family": family,
        "kind": str(e.kind),
        "cards": _cards(e.cards),
        "words": e.words,
    }


def _read_event(d: Mapping[str, Any]) -> PublicEvent:
    kind = _KINDS[d["family"]](d["kind"])
    return PublicEvent(d["player"], d["points"], kind, _read_cards(d["cards"]), d["words"])  # type: ignore[arg-type]


def _read_score_event(d: Mapping[str, Any]) -> ScoreEvent:
    """An event of a seat's view: its points always told (a view holds no event of a score still open)."""
    e = _read_event(d)
    if not isinstance(e.points, int):
        raise ValueError("an event of a view without its points")
    return ScoreEvent(e.player, e.points, e.kind, e.cards, e.words)


def _claim(c: Claim | None) -> dict[str, Any] | None:
    if c is None:
        return None
    return {
        "counter": c.counter,
        "declared": c.declared,
        "kind": str(c.kind),
        "cards": _cards(c.cards),
        "starter": _card(c.starter),
        "crib": c.crib,
    }


def _read_claim(d: Mapping[str, Any] | None) -> Claim | None:
    if d is None:
        return None
    kind = ClaimKind(d["kind"])
    return Claim(d["counter"], d["declared"], kind, _read_cards(d["cards"]), _read_card(d["starter"]), d["crib"])


def _summary(s: CribbageSummary | None) -> dict[str, Any] | None:
    if s is None:
        return None
    return {
        "winner": s.winner,
        "names": list(s.names),
        "scores": list(s.scores),
        "margin": str(s.margin),
        "deals": s.deals,
        "person_won": s.person_won,
        "words": s.words,
        "margin_words": s.margin_words,
    }


def _read_summary(d: Mapping[str, Any] | None) -> CribbageSummary | None:
    if d is None:
        return None
    n, s = d["names"], d["scores"]
    return CribbageSummary(
        d["winner"],
        tuple(str(name) for name in n),
        tuple(int(score) for score in s),
        MarginKind(d["margin"]),
        d["deals"],
        d["person_won"],
        d["words"],
        d["margin_words"],
    )


def told_data(m: PublicMove) -> dict[str, Any]:
    """A move told, as plain JSON data."""
    return {
        "player": m.player,
        "act": str(m.act),
        "card": _card(m.card),
        "deal": m.deal,
        "phase": str(m.phase),
        "events": [_event(e) for e in m.events],
        "count": m.count,
        "words": m.words,
        "stand_in": m.stand_in,
    }


def told_from_data(m: Mapping[str, Any]) -> PublicMove:
    return PublicMove(
        m["player"],
        Act(m["act"]),
        _read_card(m["card"]),
        m["deal"],
        Phase(m["phase"]),
        tuple(_read_event(e) for e in m["events"]),
        m["count"],
        m["words"],
        m.get("stand_in"),
    )


def public_data(p: CribbagePublic) -> dict[str, Any]:
    """`p` as plain JSON data."""
    return {
        "format": PUBLIC_FORMAT,
        "names": list(p.names),
        "person": p.person,
        "level": p.level,
        "options": _options(p.options),
        "scores": list(p.scores),
        "previous": list(p.previous),
        "dealer": p.dealer,
        "deal_number": p.deal_number,
        "phase": str(p.phase),
        "show_step": p.show_step,
        "ply": p.ply,
        "to_move": p.to_move,
        "starter": _card(p.starter),
        "pile": _cards(p.pile),
        "count": p.count,
        "sequences": [[[player, str(card)] for player, card in s] for s in p.sequences],
        "hand_sizes": list(p.hand_sizes),
        "crib_size": p.crib_size,
        "counted": [
            {
                "owner": c.owner,
                "cards": _cards(c.cards),
                "starter": str(c.starter),
                "crib": c.crib,
                "declared": c.declared,
                "called": c.called,
            }
            for c in p.counted
        ],
        "claim": _claim(p.claim),
        "story": [told_data(m) for m in p.story],
        "cut_words": list(p.cut_words),
        "summary": _summary(p.summary),
        "bots": list(p.bots),
    }


def public_json(p: CribbagePublic) -> str:
    return json.dumps(public_data(p))


def public_from_json(text: str) -> CribbagePublic:
    """The value `public_json` wrote; ValueError (KeyError, ...) for anything else."""
    return public_from_data(json.loads(text))


def public_from_data(d: object) -> CribbagePublic:
    """The value `public_data` made; ValueError (KeyError, ...) for anything else."""
    if not isinstance(d, dict) or d.get("format") != PUBLIC_FORMAT:
        raise ValueError("it is not a public cribbage value")
    names, scores, previous, sizes = d["names"], d["scores"], d["previous"], d["hand_sizes"]
    bots = d.get("bots") or [p != d["person"] for p in range(len(names))]  # a value from before seats were told
    return CribbagePublic(
        names=tuple(str(n) for n in names),
        person=d["person"],
        level=d["level"],
        options=_read_options(d["options"]),
        scores=tuple(int(n) for n in scores),
        previous=tuple(int(n) for n in previous),
        dealer=d["dealer"],
        deal_number=d["deal_number"],
        phase=Phase(d["phase"]),
        show_step=d["show_step"],
        ply=d["ply"],
        to_move=d["to_move"],
        starter=_read_card(d["starter"]),
        pile=_read_cards(d["pile"]),
        count=d["count"],
        sequences=tuple(tuple((int(player), parse_card(card)) for player, card in s) for s in d["sequences"]),
        hand_sizes=tuple(int(n) for n in sizes),
        crib_size=d["crib_size"],
        counted=tuple(
            PublicCounted(
                c["owner"], _read_cards(c["cards"]), parse_card(c["starter"]), c["crib"], c["declared"], c["called"]
            )
            for c in d["counted"]
        ),
        claim=_read_claim(d["claim"]),
        story=tuple(told_from_data(m) for m in d["story"]),
        cut_words=tuple(d["cut_words"]),
        summary=_read_summary(d["summary"]),
        bots=tuple(bool(b) for b in bots),
    )


def _options(o: CribbageOptions) -> dict[str, Any]:
    out: dict[str, Any] = {"muggins": o.muggins, "target": o.target, "play_muggins": o.play_muggins}
    if o.manual_count:  # said only when on: a view from before it reads the same
        out["manual_count"] = True
    if o.variant is not Variant.SIX_CARD:  # said only when not the standard game, likewise
        out["variant"] = str(o.variant)
    out.update(named_end_on_answer(o))  # said as a record says it: a view from before it reads the same
    return out


def _read_options(o: Mapping[str, Any]) -> CribbageOptions:
    manual = bool(o.get("manual_count", False))
    variant = Variant(o.get("variant", Variant.SIX_CARD))
    ends = bool(o.get("end_on_answer", unnamed_end_on_answer(bool(o["muggins"]), bool(o["play_muggins"]))))
    return CribbageOptions(
        muggins=o["muggins"],
        target=o["target"],
        play_muggins=o["play_muggins"],
        manual_count=manual,
        variant=variant,
        end_on_answer=ends,
    )


def view_json(v: CribbageView) -> str:
    """A seat's own view as JSON, less `unseen` (which `view_from_json` works out)."""
    return json.dumps(view_data(v))


def view_data(v: CribbageView) -> dict[str, Any]:
    """A seat's own view as plain JSON data, less `unseen`."""
    outcome = v.outcome
    return {
        "format": VIEW_FORMAT,
        "player": v.player,
        "names": list(v.names),
        "options": _options(v.options),
        "scores": list(v.scores),
        "dealer": v.dealer,
        "deal_number": v.deal_number,
        "phase": str(v.phase),
        "hand": _cards(v.hand),
        "kept": _cards(v.kept),
        "discards": _cards(v.discards),
        "crib_size": v.crib_size,
        "starter": _card(v.starter),
        "pile": _cards(v.pile),
        "count": v.count,
        "played": [[p, str(c)] for p, c in v.played],
        "opponent_cards_left": v.opponent_cards_left,  # what views before the variants had
        "opponent_discarded": v.opponent_discarded,
        "cards_left": list(v.cards_left),
        "discarded_by": list(v.discarded_by),
        "shown_hands": [[h.owner, _cards(h.cards), h.crib] for h in v.shown_hands],
        "show_step": v.show_step,
        "claim": _claim(v.claim),
        "to_count": _cards(v.to_count),
        "current_player": v.current_player,
        "legal": [str(m) for m in v.legal],
        "events": [_event(e) for e in v.events],
        "outcome": None
        if outcome is None
        else [
            outcome.winner,
            list(outcome.scores),
            str(outcome.margin_kind),
            list(outcome.side_of_player),
            outcome.resigned,
        ],
        "cut_for_deal": [[str(c) for c in cards] for cards in v.cut_for_deal],
    }


def view_from_json(text: str) -> CribbageView:
    """The view `view_json` wrote, its unseen cards those it names nowhere (as `CribbageState.view` has them)."""
    return view_from_data(json.loads(text))


def view_from_data(d: object) -> CribbageView:
    """The view `view_data` made; ValueError (KeyError, ...) for anything else."""
    if not isinstance(d, dict) or d.get("format") != VIEW_FORMAT:
        raise ValueError("it is not a cribbage view")
    names, scores = d["names"], d["scores"]
    outcome = d["outcome"]
    shown = tuple(ShownHand(owner, _read_cards(cards), crib) for owner, cards, crib in d["shown_hands"])
    played = tuple((int(p), parse_card(c)) for p, c in d["played"])
    hand, kept, discards, starter = (
        _read_cards(d["hand"]),
        _read_cards(d["kept"]),
        _read_cards(d["discards"]),
        _read_card(d["starter"]),
    )
    seen = {*hand, *kept, *discards, *(c for _, c in played), *(c for h in shown for c in h.cards)}
    if starter is not None:
        seen.add(starter)
    return CribbageView(
        player=d["player"],
        names=tuple(str(n) for n in names),
        options=_read_options(d["options"]),
        scores=tuple(int(n) for n in scores),
        dealer=d["dealer"],
        deal_number=d["deal_number"],
        phase=Phase(d["phase"]),
        hand=hand,
        kept=kept,
        discards=discards,
        crib_size=d["crib_size"],
        starter=starter,
        pile=_read_cards(d["pile"]),
        count=d["count"],
        played=played,
        cards_left=_cards_left(d),
        discarded_by=_discarded_by(d),
        shown_hands=shown,
        show_step=d["show_step"],
        claim=_read_claim(d["claim"]),
        to_count=_read_cards(d["to_count"]),
        current_player=d["current_player"],
        legal=tuple(parse_move(m) for m in d["legal"]),
        events=tuple(_read_score_event(e) for e in d["events"]),
        outcome=None
        if outcome is None
        else Outcome(
            outcome[0],
            tuple(int(n) for n in outcome[1]),
            MarginKind(outcome[2]),
            tuple(int(n) for n in outcome[3]) if len(outcome) > 3 else (0, 1),
            outcome[4] if len(outcome) > 4 else None,  # who resigned: since the server's resignations
        ),
        cut_for_deal=tuple(tuple(parse_card(c) for c in cards) for cards in d["cut_for_deal"]),
        unseen=tuple(sorted(c for c in DECK if c not in seen)),
    )


def _cards_left(d: Mapping[str, Any]) -> tuple[int, ...]:
    """Each player's cards left; a view written before the variants names only the opponent's (two players)."""
    if "cards_left" in d:
        return tuple(int(n) for n in d["cards_left"])
    mine, theirs = len(d["hand"]), int(d["opponent_cards_left"])
    return (mine, theirs) if d["player"] == 0 else (theirs, mine)


def _discarded_by(d: Mapping[str, Any]) -> tuple[bool, ...]:
    if "discarded_by" in d:
        return tuple(bool(b) for b in d["discarded_by"])
    mine, theirs = bool(d["discards"]), bool(d["opponent_discarded"])
    return (mine, theirs) if d["player"] == 0 else (theirs, mine)

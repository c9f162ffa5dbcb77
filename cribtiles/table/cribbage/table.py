"""A game of classic cribbage at the table: over what every game's table shares (`core.GameTable`: the
seats of people and bots, the turn loop, the bots' requests and seeded decisions, the save's envelope),
what each move scored (for the window to animate and explain), muggins calls and the summary of a
finished game. Pure code: the window, the arena, the tests and any other driver play through
`CribbageTable`.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeAlias

from cribtiles.bot.cribbage.bots import choose_reporting
from cribtiles.bot.cribbage.levels import LEVELS, cribbage_level, make_cribbage_bot
from cribtiles.cribbage.cards import DECK, Card
from cribtiles.cribbage.events import DOUBLE_SKUNK_MARGIN, SKUNK_MARGIN, MarginKind, ScoreEvent
from cribtiles.cribbage.game import CribbageState, check_discard, new_game
from cribtiles.cribbage.moves import Count, CribbageError, Discard, Go, Move, Muggins, PlayCard, parse_move
from cribtiles.cribbage.muggins import Claim, ClaimKind, call_points
from cribtiles.cribbage.options import CribbageOptions, Phase
from cribtiles.cribbage.peg import peg_points
from cribtiles.cribbage.record import replay
from cribtiles.cribbage.show import ShowScore, score_show
from cribtiles.cribbage.view import CribbageView
from cribtiles.quoting import quoted

from .. import core
from ..core import GameTable, SaveRefused, is_envelope, read_envelope
from ..seats import Seat
from .lay_away import laid_ahead
from .open_call import foreseen, told_scores, told_view

log = logging.getLogger("cribtiles.table")

#: The save of a cribbage table before the one format (`core.SAVE_FORMAT`), which still loads.
SAVE_FORMAT = "cribtiles cribbage table"
SAVE_VERSION = 1
PERSON_NAME = "You"
DEFAULT_LEVEL = "medium"
#: The most moves a saved game may hold: a game to 121 takes about 150; a record far past this is damaged.
MOST_MOVES = 5000


class CribbageSaveError(SaveRefused):
    """A saved cribbage game that cannot be used; the message says why in plain words ("it is not ...")."""

    whose = "the saved game of cribbage cannot be used: "


def bot_name(level: str) -> str:
    """The bot's name at the table: 'Medium bot'."""
    return f"{level.capitalize()} bot"


def decision_rng(seed: int, ply: int) -> random.Random:
    """The generator for the decision made after `ply` moves of the game of `seed`: the same seed and the
    same moves give the bot the same choices, whoever drives the game."""
    return core.decision_rng("cribtiles-cribbage", seed, ply)


#: A cribbage bot's move to be chosen (the one `core.BotRequest`, of cribbage's views); its seed is the
#: game's, and `turn` (also `ply`) the moves made before it: the decision's generator comes of both.
BotRequest: TypeAlias = core.BotRequest[CribbageView]


def choose(request: BotRequest) -> Move:
    """The bot's move for `request` (a pure function of it: safe to call in another thread). A bot that
    fails or proposes an illegal move is logged and replaced by the first legal move."""
    bot = make_cribbage_bot(request.level)
    move, failure = choose_reporting(bot, request.view, decision_rng(request.seed, request.ply))
    if failure:
        log.error("%s", failure)
    return move


@dataclass(frozen=True)
class CountedHand:
    """A hand (or the crib) counted in the show: whose, its cards, the starter, what the cards make and
    what its owner declared (under muggins, right or wrong), and how a call on it went (`called`: the
    answer, None while the count is open to a call or was never open to one)."""

    owner: int
    cards: tuple[Card, ...]
    crib: bool
    score: ShowScore
    declared: int
    called: bool | None = None


@dataclass(frozen=True)
class Happening:
    """One move at the table and what it scored: for the window to tell, animate and peg."""

    player: int
    move: Move
    deal: int
    events: tuple[ScoreEvent, ...]
    count: int  # the count after a card or a go (0 once reset)
    words: str  # what happened, in a line: "Medium bot played 7C: 22"
    phase: Phase = Phase.PLAY  # the phase the move was made in (a call on a card is the play's)
    said: Claim | None = None  # the score this move said aloud (muggins), open to a call after it
    ply: int = 0  # the moves of the game made before it


@dataclass(frozen=True)
class CribbageSummary:
    """A finished game: the winner, both scores, the margin (lurch / skunk), in words too."""

    winner: int  # the winning side (partners share one)
    names: tuple[str, ...]
    scores: tuple[int, ...]  # one a side
    margin: MarginKind
    deals: int
    person_won: bool
    words: str  # "Hard bot wins by a lurch (skunk), 121 to 84."
    margin_words: str  # "A skunk (a lurch): you did not reach 91."

    @property
    def skunk(self) -> bool:
        return self.margin is not MarginKind.WIN


def cribbage_seats(names: Sequence[str], person: int | None, level: str) -> tuple[Seat, ...]:
    """The seats of a game of a person (at `person`) against bots of `level` (`person` None: bots all
    of that level), named as the game names them."""
    if (person is not None and person not in range(len(names))) or isinstance(person, bool):
        raise ValueError(f"the person sits at seat 0 to {len(names) - 1}, not {quoted(person)}")
    level = cribbage_level(level).name
    return tuple(Seat(name) if p == person else Seat(name, level) for p, name in enumerate(names))


#: The bots' names with three or four players, clockwise from the person's left (the person sits South).
COMPASS = {3: ("West", "East"), 4: ("West", "North", "East")}
COMPASS_NAMES = frozenset(("West", "North", "East"))


def table_names(players: int, person: int, level: str) -> tuple[str, ...]:
    """The players' names of a new game: "You" and "Medium bot" with two; with more, "You" and the bots
    by where they sit, clockwise from your left (West, North, East: North is your partner with four).

    >>> table_names(2, 1, "hard"), table_names(4, 0, "easy")
    (('Hard bot', 'You'), ('You', 'West', 'North', 'East'))
    """
    if players == 2:
        name = bot_name(cribbage_level(level).name)
        return (PERSON_NAME, name) if person == 0 else (name, PERSON_NAME)
    others = COMPASS[players]
    return tuple(PERSON_NAME if p == person else others[(p - person - 1) % players] for p in range(players))


class CribbageTable(GameTable[CribbageView, Move, Happening | None]):
    """The one model of a cribbage game at the table; its state changes only through its methods.

    Made as before from the person's seat and the bot's level, or from `seats` (people and bots of any
    cribbage level: two bots in the arena, two people online); `person` is then the first person's seat
    (None: none) and `level` the first bot's. Its words call the one person at the table "you"; a table
    of two people (or `by_name`: one whose every word reaches every seat, as online) names everyone."""

    game = "cribbage"
    not_bots_turn = "it is not the bot's turn"

    def __init__(
        self,
        state: CribbageState,
        person: int | None = 0,
        level: str = DEFAULT_LEVEL,
        *,
        seats: Sequence[Seat] | None = None,
        by_name: bool = False,
    ) -> None:
        seats = cribbage_seats(state.names, person, level) if seats is None else tuple(seats)
        if len(seats) != len(state.names) or any(s.name != n for s, n in zip(seats, state.names, strict=True)):
            raise ValueError("the seats are not the game's players")
        for s in seats:
            if s.level is not None:
                cribbage_level(s.level)  # a ValueError in words for a level cribbage has not
        super().__init__(seats)
        self.person = next((p for p, s in enumerate(seats) if s.is_person), None)
        self.level = next((s.level for s in seats if s.level is not None), DEFAULT_LEVEL)
        people = [p for p, s in enumerate(seats) if s.is_person]
        # the seat the words call "you": none when they reach more than one person (by name, then)
        self.you: int | None = people[0] if len(people) == 1 and not by_name else None
        self.state = state
        # the public story of the deal in play (rebuilt by replaying a saved game's moves)
        self.sequences: list[list[tuple[int, Card]]] = []  # each count's cards, in order
        self.counted: list[CountedHand] = []  # the show's counts so far, of the deal last shown
        # each side's score before the last move that scored for it (the back peg)
        self.previous: list[int] = [0] * len(state.scores)
        self.story: list[Happening] = []  # the moves of the deal in play (or of the show just ended)
        self.pending: list[Happening] = []  # told and pegged by the window, then taken
        # people's crib cards laid before the engine came to them, made when it does (`lays_ahead`);
        # replaced, never changed in place, so that a view worked out from it knows it is stale
        self.ahead: Mapping[int, Discard] = {}
        self._made: list[tuple[int, CribbageState]] = []  # who made each move, from which state (taking back)
        self._view: tuple[CribbageState, Mapping[int, Discard], CribbageView] | None = None

    @classmethod
    def new(
        cls, seed: int, level: str = DEFAULT_LEVEL, options: CribbageOptions | None = None, person: int = 0
    ) -> CribbageTable:
        """A new game: the person at `person`, bots of `level` at the other seats (as many as the options'
        variant seats)."""
        options = options or CribbageOptions()
        names = table_names(options.variant.players, person, level)
        return cls(new_game(seed, names, options), person, level)

    # --- the questions ---

    @property
    def bot(self) -> int:
        """The (first) bot's seat."""
        return next(p for p, s in enumerate(self.seats) if s.is_bot)

    @property
    def options(self) -> CribbageOptions:
        return self.state.options

    @property
    def to_move(self) -> int | None:
        return self.state.current_player

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def ply(self) -> int:
        return len(self.state.log)

    @property
    def turn(self) -> int:
        return self.ply

    def view(self, seat: int | None = None) -> CribbageView:
        """What `seat` (None: the person) may see, a score said aloud told as `told_view` tells it (the
        bots decide from this too), and a person's the crib cards laid ahead (`laid_ahead`); the person's
        worked out once per change (the window asks many times a frame). A bot's is the engine's alone:
        what it decides never hangs on how quickly a person laid away."""
        if seat is not None and seat != self.person:
            told = told_view(self.state.view(seat))
            return self._seen_ahead(told) if self.seats[seat].is_person else told
        if self.person is None:
            raise CribbageError("no person sits at this table")
        cached = self._view
        if cached is None or cached[0] is not self.state or cached[1] is not self.ahead:
            cached = self._view = (self.state, self.ahead, self._seen_ahead(told_view(self.state.view(self.person))))
        return cached[2]

    def _seen_ahead(self, view: CribbageView) -> CribbageView:
        return laid_ahead(view, self.ahead, self.lays_ahead(view.player))

    def lays_ahead(self, seat: int | None) -> bool:
        """Whether the person at `seat` may lay away now, before the engine comes to them: in the discard
        everyone lays away at once, as at a real table (the bots when the engine asks them)."""
        state = self.state
        return (
            seat is not None
            and state.phase is Phase.DISCARD
            and seat != state.current_player
            and self.seats[seat].is_person
            and not state.discarded[seat]
            and seat not in self.ahead
        )

    def name(self, player: int) -> str:
        return self.state.names[player]

    def _request_seed(self) -> int:
        return self.state.seed

    def _refusal(self, words: str) -> Exception:
        return CribbageError(words)

    def named(self, player: int) -> str:
        """A player by name, as a sentence names them: "the Medium bot", "Ann"."""
        name = self.name(player)
        return f"the {name}" if self.seats[player].is_bot and name not in COMPASS_NAMES else name

    def called(self, player: int) -> str:
        """A player as the table's words name them: "you", "the Medium bot", "Ann"."""
        return "you" if player == self.you else self.named(player)

    def whose(self, player: int) -> str:
        """Whose, as the table's words say it: "your", "the Medium bot's", "Ann's"."""
        return "your" if player == self.you else f"{self.called(player)}'s"

    def call_open_to(self, seat: int | None) -> Claim | None:
        """The other's score said aloud that the person at `seat` may call muggins on now (None: none):
        only the one who answers it may (with three or four, the next player round from its owner)."""
        claim = self.state.claim
        if claim is None or seat is None or claim.counter == seat or not self.seats[seat].is_person:
            return None
        return claim if self.state.answerer(claim.counter) == seat else None

    @property
    def call_open_to_person(self) -> Claim | None:
        """A bot's score said aloud that the person may call muggins on now (None when there is none)."""
        return self.call_open_to(self.person)

    def legal_after_answer(self, seat: int) -> tuple[Move, ...]:
        """`seat`'s moves once the other's score waiting for its answer stands (its moves now, when
        none waits): what it may lay while it still may call. They are the game's `foreseen`, as if letting
        it stand ended nothing: whether it ends the game says what the cards make (then the move made on
        it is not: the game ended with the answer, `play`)."""
        state = self.state
        if self.call_open_to(seat) is not None:
            state = foreseen(state)
        return state.legal_actions() if state.current_player == seat else ()

    def _lets_stand(self, move: Move, seat: int | None) -> bool:
        """`seat`'s move is of the play or the show while the other's score waits for their answer: making
        it lets the score stand (a card laid, a go, a count: as at a real table, the call is then too late)."""
        return self.call_open_to(seat) is not None and not isinstance(move, Muggins)

    def why_not(self, move: Move, seat: int | None = None) -> str:
        """Why the person at `seat` (None: the person) may not make `move` now, in words ("" when they may)."""
        seat = self.person if seat is None else seat
        if isinstance(move, Discard) and seat is not None and self.lays_ahead(seat):
            try:
                check_discard(move, self.state.hands[seat], self.state.variant)
            except CribbageError as e:
                return _sentence(str(e))
            return ""
        if seat is None or self.to_move != seat or not self.seats[seat].is_person:
            return "It is not your turn." if not self.is_over else "The game is over."
        try:
            lets_stand = self._lets_stand(move, seat)
            state = foreseen(self.state) if lets_stand else self.state  # judged as the seat may foresee it
            if lets_stand and state.current_player != seat:
                assert state.current_player is not None
                return _sentence(f"wait: {self.called(state.current_player)} is to play")
            state.apply(move)
        except CribbageError as e:
            return _sentence(str(e))
        return ""

    # --- the moves ---

    def play(self, move: Move, seat: int | None = None) -> Happening | None:
        """The move of the person at `seat` (None: the person); a CribbageError in words when the rules do
        not allow it. A card, a go or a count made while the other's score waits for their answer lets
        that score stand first; when that ends the game (it reached the target), the move is not made:
        the answer was the last move of the game. Crib cards laid before the engine comes to `seat`
        (`lays_ahead`) are kept aside, made when it does: None then, nothing is made yet."""
        seat = self.person if seat is None else seat
        why = self.why_not(move, seat)
        if why:
            raise CribbageError(why[0].lower() + why[1:].rstrip("."))
        if isinstance(move, Discard) and self.lays_ahead(seat):
            assert seat is not None
            self.ahead = {**self.ahead, seat: move}
            return None
        if self._lets_stand(move, seat):
            stood = self._apply(Muggins(False))
            if self.is_over:
                return stood
        return self._caught_up(self._apply(move))

    def _caught_up(self, happening: Happening) -> Happening:
        """After a move: the crib cards laid ahead whose turn has come, made in the engine's order (the
        record is as if each had waited for its turn); `happening` again."""
        while self.state.phase is Phase.DISCARD and self.state.current_player in self.ahead:
            seat = self.state.current_player
            assert seat is not None
            move = self.ahead[seat]
            self.ahead = {s: m for s, m in self.ahead.items() if s != seat}
            self._apply(move)
        return happening

    def play_bot(self, move: Move, request: BotRequest | int | None = None) -> Happening | None:
        """The bot's move chosen for `request` (or the request made after that many moves); None
        (nothing done) when the game has moved on since (a stale answer) or it is no bot's turn."""
        ply = request.turn if isinstance(request, core.BotRequest) else request
        if not self.bot_to_move or (ply is not None and ply != self.ply):
            return None
        return self._caught_up(self._apply(move))

    def _play_bot(self, seat: int, move: Move) -> Happening | None:
        return self._caught_up(self._apply(move))

    def bot_move(self) -> Happening:
        """Ask the bot here and now, and make its move (the text mode, the tests)."""
        request = self.bot_request()
        happening = self.play_bot(choose(request), request.ply)
        assert happening is not None
        return happening

    def replay_move(self, move: Move) -> Happening:
        """`move` made by whoever is to move, as a record made it (a replay, the text of a game): the
        rules check it, nothing else (a score open to a call is answered by the record's next move)."""
        return self._apply(move)

    def _apply(self, move: Move) -> Happening:
        before = self.state
        player = before.current_player
        assert player is not None
        after = before.apply(move)  # raises CribbageError before anything changes
        self.state = after
        if len(self._made) == len(before.log):
            self._made.append((player, before))
        if isinstance(move, PlayCard):
            if not before.pile or not self.sequences:
                self.sequences.append([])
            self.sequences[-1].append((player, move.card))
        if isinstance(move, Count):
            cards, crib = before.show_cards(before.show_step)
            assert before.starter is not None
            if before.show_step == 0:
                self.counted = []
            score = score_show(cards, before.starter, crib)
            declared = score.total if move.declared is None else move.declared
            self.counted.append(CountedHand(player, cards, crib, score, declared))
        if isinstance(move, Muggins) and before.claim is not None and before.claim.kind is ClaimKind.SHOW:
            self.counted[-1] = replace(self.counted[-1], called=move.claim)
        self._move_back_pegs(before, after)
        if after.deal_number != before.deal_number:
            self.sequences = []
        words = self._words(player, move, before)
        deal, phase = before.deal_number, before.phase
        happening = Happening(player, move, deal, after.events, after.count, words, phase, after.claim, len(before.log))
        if self.story and self.story[-1].deal != happening.deal:
            self.story = []
        self.story.append(happening)
        self.pending.append(happening)
        return happening

    def _move_back_pegs(self, before: CribbageState, after: CribbageState) -> None:
        """The back peg of each side that scored by a move: its score before the move, as the window pegs it.
        A score said aloud is pegged in sight only once answered (its points are not told before): its
        side's back peg moves at the answer, from the score before the count."""
        if after.claim is not None:
            return  # said aloud: all the move pegged is the claim's, told with the answer
        shown = told_scores(before.scores, before.claim, before.side_of)
        sides = {before.side_of(event.player) for event in after.events if event.points}
        if before.claim is not None and before.claim.pegged:
            sides.add(before.side_of(before.claim.counter))
        for side in sides:
            self.previous[side] = shown[side]

    def _words(self, player: int, move: Move, before: CribbageState) -> str:
        who = self.name(player)
        if isinstance(move, Discard):
            laid = " and ".join(str(c) for c in move.cards)
            cards = "two cards" if len(move.cards) == 2 else "a card"
            if player == self.you:
                whose = "your" if before.dealer == self.you else self.whose(before.dealer)
                if before.players == 2 and before.dealer != self.you:
                    whose = "its"
                return f"You laid {laid} in {whose} crib."
            if self.you is None or before.players > 2:  # every seat reads it: the cards laid away stay unnamed
                whose = "their own" if before.dealer == player else self.whose(before.dealer)
                return f"{who} laid {cards} in {whose} crib."
            return f"{who} laid {cards} in {'its' if before.dealer == player else 'your'} crib."
        if isinstance(move, PlayCard):
            total = before.count + move.card.value
            said = f", saying {move_claim(move, before)}" if before.options.play_muggins else ""
            return f"{who} played {move.card}: the count is {total}{said}."
        if isinstance(move, Go):
            return f"{who} said go at {before.count}."
        if isinstance(move, Count):
            counted = self.counted[-1]
            what = "the crib" if counted.crib else "the hand"
            if before.options.muggins:  # said aloud: what the cards make is told once the call is answered
                return f"{who} counted {what}: {counted.declared}."
            if counted.declared != counted.score.total:  # counted by hand, wrong: corrected, nothing lost
                return (
                    f"{who} counted {what}: {counted.declared}, but it makes {counted.score.total} "
                    f"({correction_words(counted.score)}): {counted.score.total} pegged."
                )
            return f"{who} counted {what}: {counted.score.total}."
        assert isinstance(move, Muggins) and before.claim is not None
        return self._call_words(player, move.claim, before.claim)

    def _call_words(self, caller: int, called: bool, claim: Claim) -> str:
        """A call announced: who called, on whose count, how many points to whom; or the count let stand."""
        who = self.name(caller)
        what = f"{self.whose(claim.counter)} {claim.what}"
        if not called:
            return f"{who} let {what} stand ({claim.declared})."
        to_caller, to_counter = call_points(claim)
        gainer = "you" if caller == self.you else "it" if self.seats[caller].is_bot else who
        if to_caller:
            how = "missed" if claim.declared < claim.worth else "said over"
            return (
                f"{who} called muggins on {what}: {claim.declared} said, it makes {claim.worth}: "
                f"{to_caller} {how}, {to_caller} to {gainer}."
            )
        counter = self.called(claim.counter)
        return f"{who} called muggins on {what}, but {claim.declared} was right: {to_counter} to {counter}."

    def resign(self, seat: int) -> None:
        """The person at `seat` gives the game up: it ends, the other side wins (`CribbageState.resign`);
        a CribbageError in words when it is over already or `seat` is no person's."""
        if not 0 <= seat < len(self.seats) or not self.seats[seat].is_person:
            raise CribbageError("only a person at the table resigns")
        self.state = self.state.resign(seat)

    def take_pending(self) -> list[Happening]:
        """What happened since last asked, oldest first (then forgotten here)."""
        taken, self.pending = self.pending, []
        return taken

    # --- taking back ---

    def _movers(self) -> list[tuple[int, CribbageState]]:
        """Who made each move of the game so far, with the state they made it from (kept as the moves are
        made; replayed from the seed for a table made of a game already under way)."""
        if len(self._made) == len(self.state.log):
            return self._made
        state = new_game(self.state.seed, self.state.names, self.options)
        made: list[tuple[int, CribbageState]] = []
        for text in self.state.log:
            player = state.current_player
            assert player is not None
            made.append((player, state))
            state = state.apply(parse_move(text))
        return made

    def undo_moves(self, seat: int) -> tuple[str, ...]:
        """The moves `undo(seat)` would take back, oldest first (their notation): `seat`'s last decision
        (a move made where it had a choice: a discard, a card laid, a count said, a muggins call; a go
        or a count it had to make goes back with it) and every move after it. A CribbageError in words
        when none may be taken back."""
        if not 0 <= seat < len(self.seats):
            raise CribbageError(f"there is no seat {seat + 1} at this table")
        if not self.seats[seat].is_person:
            raise CribbageError("only a person takes back a move; a bot's moves stand")
        if self.is_over:
            raise CribbageError("the game is over: it is kept as it was played, and a finished game is not taken back")
        if seat in self.ahead:  # laid ahead, not made yet: only that goes back
            return (str(self.ahead[seat]),)
        made = self._movers()
        mine = next(
            (i for i in range(len(made) - 1, -1, -1) if made[i][0] == seat and len(made[i][1].legal_actions()) > 1),
            None,
        )
        who = "you have" if seat == self.you else f"{self.name(seat)} has"
        if mine is None:
            raise CribbageError(f"{who} made no move to take back yet")
        if mine and made[mine - 1][0] == seat and self.state.log[mine - 1] == str(Muggins(False)):
            mine -= 1  # the score let stand by laying on (`play`) goes back with the card: as it was seen
        for player, _ in made[mine + 1 :]:
            if player != seat and self.seats[player].is_person:
                raise CribbageError(
                    f"{self.name(player)} has moved since: a move is taken back only before another person moves"
                )
        return self.state.log[mine:]

    def came_to_light(self, seat: int, moves: int) -> str:
        """What `seat` has learnt since the last `moves` moves were made that it did not know when it made
        the first of them, in words ("" for nothing): a new deal, the starter cut, a card of another's
        laid, a hand or the crib shown, or a count said aloud answered (called or let stand: what it makes
        is told). A table online takes back only a move after which nothing came to light, so that no one
        decides it again knowing more (issue 44)."""
        made = self._movers()
        if not 0 < moves <= len(made):
            return ""
        first = len(made) - moves
        before, now = made[first][1], self.state
        if any(isinstance(parse_move(text), Muggins) for text in now.log[first:]):
            return "a count said aloud has been answered since"
        if now.deal_number != before.deal_number:
            return "the next deal has been dealt since"
        if before.starter is None and now.starter is not None:
            return "the starter has been cut since"
        laid = {c for _, c in now.played} - {c for _, c in before.played}
        others = [p for p, c in now.played if c in laid and p != seat]
        if others:
            return f"{self.name(others[0])} has laid a card since"
        if _cards_seen(now, seat) - _cards_seen(before, seat):
            return "a hand has been shown since"
        return ""

    def can_undo(self, seat: int) -> bool:
        """Whether `seat` may take back its last decision now (see `undo`)."""
        try:
            self.undo_moves(seat)
        except CribbageError:
            return False
        return True

    def undo(self, seat: int) -> int:
        """Take back `seat`'s last decision and every move after it (the bot's replies); the number of
        moves taken back. The game goes back to the very state `seat` decided from, which it saw then:
        the game is replayed from its seed to there, so the deal, the hands and the starter are as they
        were, and the bot given the same position again makes the same move. Refused (CribbageError)
        for a bot, for a seat with nothing to take back, once another person has moved, and once the
        game is over (it went into the history as it was played)."""
        taken = self.undo_moves(seat)
        if seat in self.ahead:
            self.ahead = {s: m for s, m in self.ahead.items() if s != seat}
        else:
            self._rebuild(self.state.log[: len(self.state.log) - len(taken)])
        self.undos += 1
        return len(taken)

    def _rebuild(self, moves: Sequence[str]) -> None:
        """The game from its seed with `moves` (legal: made before) made again, and its story with them."""
        self.state = new_game(self.state.seed, self.state.names, self.options)
        self.sequences, self.counted, self.story, self._made = [], [], [], []
        self.previous = [0] * len(self.state.scores)
        self.ahead = {}
        for text in moves:
            self._apply(parse_move(text))
        self.pending = []

    def at_ply(self, ply: int) -> CribbageTable:
        """A table of the same seats with the game as it stood after its first `ply` moves (0: as dealt)."""
        table = CribbageTable(
            new_game(self.state.seed, self.state.names, self.options), seats=self.seats, by_name=self.you is None
        )
        table.undos, table.hints = self.undos, self.hints
        table._rebuild(self.state.log[: max(0, min(ply, len(self.state.log)))])
        return table

    # --- the end ---

    def summary(self, seat: int | None = None) -> CribbageSummary | None:
        """The finished game in brief, told to the person at `seat` (None: as the table's words tell
        it); None while it is being played."""
        outcome = self.state.outcome
        if outcome is None:
            return None
        names = self.state.names
        reader = self.you if seat is None else seat
        losers = [p for p in range(len(names)) if self.state.side_of(p) != outcome.winner]
        if len(losers) == 1:
            who = "you" if losers[0] == reader else self.named(losers[0])
        else:  # the margin is the best loser's: "nobody" or "no loser" reads as all of them
            named = ["you" if p == reader else self.named(p) for p in losers]
            who = " and ".join(named) if len(named) == 2 else ", ".join(named[:-1]) + " and " + named[-1]
        target = self.options.target
        margin_words = {
            MarginKind.WIN: f"No skunk: {who} passed {target - SKUNK_MARGIN - 1}.",
            MarginKind.SKUNK: f"A skunk (a lurch): {who} did not reach {target - SKUNK_MARGIN}.",
            MarginKind.DOUBLE_SKUNK: f"A double skunk: {who} did not reach {target - DOUBLE_SKUNK_MARGIN}.",
        }[outcome.margin_kind]
        if outcome.resigned is not None:
            gave_up = "you" if outcome.resigned == reader else self.named(outcome.resigned)
            margin_words = f"{_capital(gave_up)} resigned: no skunk is counted."
        return CribbageSummary(
            winner=outcome.winner,
            names=names,
            scores=outcome.scores,
            margin=outcome.margin_kind,
            deals=self.state.deal_number,
            person_won=self._side_won(outcome.winner, self.person if seat is None else seat),
            words=outcome.words(names),
            margin_words=margin_words,
        )

    def _side_won(self, side: int, seat: int | None) -> bool:
        return seat is not None and self.state.side_of(seat) == side

    # --- the autosave ---

    def save_body(self) -> dict[str, Any]:
        """The engine's record (seed, names, options, moves): the seats are the envelope's; and the crib
        cards laid ahead, when some wait for their turn (`ahead`: seat number as text, discard)."""
        body: dict[str, Any] = {"record": self.state.record()}
        if self.ahead:
            body["ahead"] = {str(seat): str(move) for seat, move in sorted(self.ahead.items())}
        return body

    @classmethod
    def from_json(cls, text: str, by_name: bool = False) -> CribbageTable:
        """The table a saved game's JSON leads to, every move replayed and checked (its words `by_name`
        when asked); a CribbageSaveError in words when it is not one or cannot be replayed."""
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as e:
            raise CribbageSaveError(f"it is not valid JSON ({e})") from None
        return cls.from_data(data, by_name)

    @classmethod
    def from_data(cls, data: object, by_name: bool = False) -> CribbageTable:
        """The table of a save in the one format (`core`), or in the cribbage table's own of before."""
        if is_envelope(data):
            assert isinstance(data, Mapping)
            return cls._from_envelope(data, by_name)
        if not isinstance(data, Mapping) or data.get("format") != SAVE_FORMAT:
            raise CribbageSaveError("it is not a saved cribbage game")
        if data.get("version") != SAVE_VERSION:
            raise CribbageSaveError(f"it is of version {quoted(data.get('version'))}, not {SAVE_VERSION}")
        person, level = data.get("person"), data.get("level")
        if person not in (0, 1) or isinstance(person, bool):
            raise CribbageSaveError("it does not say which seat is yours")
        if not isinstance(level, str) or level not in LEVELS:
            raise CribbageSaveError(f"it names no bot level of {', '.join(LEVELS)}")
        return cls._replayed(data.get("record"), lambda start: cls(start, int(person), level))

    @classmethod
    def from_record(cls, record: object, seats: Sequence[Seat] | None = None) -> CribbageTable:
        """The table of an engine's record (`CribbageState.record()`, as the history keeps it), every move
        checked: its `seats` (None: a player named as a bot level's bot, "Medium bot", is that bot, anyone
        else a person); a CribbageSaveError in words when it cannot be replayed."""

        def seated(start: CribbageState) -> CribbageTable:
            chosen = seats if seats is not None else tuple(_seat_named(name) for name in start.names)
            try:
                return cls(start, seats=chosen)
            except ValueError as e:
                raise CribbageSaveError(f"its seats are not its players ({e})") from None

        return cls._replayed(record, seated)

    @classmethod
    def _from_envelope(cls, data: Mapping[str, Any], by_name: bool) -> CribbageTable:
        try:
            envelope = read_envelope(data)
        except ValueError as e:
            raise CribbageSaveError(str(e)) from None
        if envelope.game != cls.game:
            raise CribbageSaveError(f"it is a saved game of {quoted(envelope.game)}, not of cribbage")

        def seated(start: CribbageState) -> CribbageTable:
            try:
                table = cls(start, seats=envelope.seats, by_name=by_name)
            except ValueError as e:
                raise CribbageSaveError(f"its seats are not its players ({e})") from None
            table.undos, table.hints = envelope.marks
            return table

        table = cls._replayed(data.get("record"), seated)
        table._lay_ahead(data.get("ahead", {}))
        return table

    def _lay_ahead(self, ahead: object) -> None:
        """The crib cards laid ahead a save keeps (seat number as text: discard), each judged again."""
        if not isinstance(ahead, Mapping):
            raise CribbageSaveError("its crib cards laid ahead are not a table of discards")
        for seat, text in ahead.items():
            if not (isinstance(seat, str) and seat.isdigit() and int(seat) < len(self.seats) and isinstance(text, str)):
                raise CribbageSaveError("its crib cards laid ahead name no seat of the table")
            try:
                move = parse_move(text[:100])
            except ValueError as e:
                raise CribbageSaveError(f"its crib cards laid ahead cannot be read: {e}") from None
            why = self.why_not(move, int(seat)) if isinstance(move, Discard) else "it is not a discard"
            if why or not self.lays_ahead(int(seat)):
                raise CribbageSaveError(f"its crib cards laid ahead cannot be laid: {why or 'not now'}")
            self.play(move, int(seat))

    @classmethod
    def _replayed(cls, record: object, seated: Callable[[CribbageState], CribbageTable]) -> CribbageTable:
        """The table `seated` makes of the game's start, with every move of `record` replayed on it."""
        if not isinstance(record, Mapping):
            raise CribbageSaveError("it has no record of its moves")
        moves = record.get("moves")
        if not isinstance(moves, list) or len(moves) > MOST_MOVES:
            raise CribbageSaveError("its moves are missing or far too many")
        try:
            start = replay({**record, "moves": [], "resigned": None})
        except CribbageError as e:
            raise CribbageSaveError(f"it cannot be replayed: {e}") from None
        table = seated(start)
        try:
            final = replay(record)  # every move checked by the engine, with its words for a bad one
        except CribbageError as e:
            raise CribbageSaveError(f"it cannot be replayed: {e}") from None
        for text in final.log[len(start.log) :]:  # replayed already: each parses and is legal
            table._apply(parse_move(text))
        if final.outcome is not None and final.outcome.resigned is not None:
            table.resign(final.outcome.resigned)
        table.pending = []
        return table


def _seat_named(name: str) -> Seat:
    """A player of a record without seats: "Medium bot" is the Medium bot, anyone else a person."""
    level = name.lower().removesuffix(" bot")
    return Seat(name, level) if name.endswith(" bot") and level in LEVELS else Seat(name)


def correction_words(score: ShowScore) -> str:
    """What a hand or crib makes, kind by kind, for a count corrected: 'fifteens 8, pairs 2, runs 6, nobs 1'.

    >>> from cribtiles.cribbage.cards import parse_card, parse_cards
    >>> correction_words(score_show(parse_cards("4H 5H 6H JD"), parse_card("5D")))
    'fifteens 8, pairs 2, runs 6, nobs 1'
    """
    kinds = (("fifteens", score.fifteens), ("pairs", score.pairs), ("runs", score.runs), ("flush", score.flush))
    parts = [f"{name} {points}" for name, points in (*kinds, ("nobs", score.nobs)) if points]
    return ", ".join(parts) or "nothing"


def move_claim(move: PlayCard, before: CribbageState) -> int:
    """What a card laid under muggins in the play was said to score (None said: what it scores)."""
    return peg_points((*before.pile, move.card)) if move.claim is None else move.claim


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _cards_seen(state: CribbageState, seat: int) -> frozenset[Card]:
    """Every card `seat` sees in `state`: its own, those laid and shown, the starter, and the hand (or
    crib) turned up for it to count."""
    view = state.view(seat)
    turned_up = view.to_count if view.current_player == seat else ()
    return frozenset(DECK).difference(view.unseen).union(turned_up)

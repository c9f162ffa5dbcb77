"""Classic cribbage at an online table, from a client's seat: `RemoteCribbageSession`, the cribbage
scene's driver over a `Link` (the other seats' moves are said to be ready, then landed one at a time, as
bots' are at one window), and `bot_move`, a bot's move from what its seat is sent (issue 31). Two, three
or four seats, and crib cards laid before the others' (issue 44)."""

from __future__ import annotations

import contextlib
import logging
import random
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from cribtiles.bot.cribbage.bots import choose_reporting
from cribtiles.bot.cribbage.levels import make_cribbage_bot
from cribtiles.cribbage.cards import Card
from cribtiles.cribbage.game import CribbageState, check_discard
from cribtiles.cribbage.moves import CribbageError, Discard, Move, Muggins, parse_move
from cribtiles.cribbage.muggins import Claim
from cribtiles.cribbage.view import CribbageView
from cribtiles.rules.errors import IllegalMove
from cribtiles.table.again import AgainAsked, NextTable
from cribtiles.table.chat import chat_text, heard_words
from cribtiles.table.cribbage.public import CribbagePublic, PublicMove, public_from_data, view_from_data
from cribtiles.table.cribbage.table import CribbageTable

from .client import ConnectionWatch, Link, NotConnected, Refused
from .ending import TableEnding

#: How long a new session waits for its table's state before it asks the server again.
FIRST_STATE_WAIT = 5.0
#: How often crib cards are sent again when another seat's move came first: they are this seat's own, so
#: nothing another did changes them (each try is answered: the server is never waited for in vain).
DISCARD_TRIES = 8
log = logging.getLogger("cribtiles.online")


class Records(Protocol):
    """Where a finished game goes: this player's history (the window's keeper)."""

    def record_cribbage(
        self, state: CribbageState, person: int, level: str | None, marks: tuple[int, int] = (0, 0)
    ) -> None: ...


def bot_move(state: dict[str, Any], level: str, rng: random.Random) -> str:
    """The move a cribbage bot of `level` makes from what its seat was sent (its own view only)."""
    view = view_from_data(state["view"])
    move, _failure = choose_reporting(make_cribbage_bot(level), view, rng)  # a failing bot makes a legal move
    return str(move)


def stand_in_state(view: CribbageView) -> CribbageState:
    """A game that agrees with all `view` shows, the cards its player cannot see dealt out in their sorted
    order (each other player's hand, then what they laid away, then the three-player crib's card from the
    deck): enough to judge that player's own move in the engine's words, never to play on."""
    me, variant = view.player, view.options.variant
    pool = list(view.unseen)

    def take(n: int) -> tuple[Card, ...]:
        taken = tuple(pool[:n])
        del pool[:n]
        return taken

    held = [view.hand if p == me else take(view.cards_left[p]) for p in range(view.players)]
    laid = [
        view.discards if p == me else take(variant.to_crib) if view.discarded_by[p] else () for p in range(view.players)
    ]
    crib = (*(c for cards in laid for c in cards), *take(variant.from_deck))
    if view.to_count and view.show_step == view.players:  # your crib, face up for you to count
        crib = view.to_count
    return CribbageState(
        seed=0,
        names=view.names,
        options=view.options,
        cut_for_deal=view.cut_for_deal,
        scores=view.scores,
        dealer=view.dealer,
        deal_number=view.deal_number,
        phase=view.phase,
        hands=tuple(held),
        discards=tuple(laid),
        discarded=view.discarded_by,
        shown=tuple(view.kept if p == me else held[p] for p in range(view.players)),
        crib=crib,
        starter=view.starter,
        turn=me if view.current_player is None else view.current_player,
        pile=view.pile,
        count=view.count,
        gone=(False,) * view.players,
        played=view.played,
        show_step=view.show_step,
        claim=view.claim,
        stock=tuple(pool),
    )


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


class Seen:
    """One state the server sent this seat, read once: the public game, the seat's view, its calls."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state
        self.ply: int = state["ply"]  # the table's (every change), by which an act is judged
        self.public: CribbagePublic | None = None
        self.view: CribbageView | None = None
        self.may_call = bool(state.get("may_call"))
        self.after: tuple[Move, ...] = ()
        if "public" in state:
            self.public = public_from_data(state["public"])
        if "view" in state:
            self.view = view_from_data(state["view"])
            after = state.get("after_answer")
            self.after = self.view.legal if after is None else tuple(parse_move(m) for m in after)

    @property
    def moves(self) -> int:
        """The game's moves so far (-1 before it has begun)."""
        return -1 if self.public is None else self.public.ply


class RemoteCribbageSession:
    """A `CribbageDriver` over `link` for `seat` at the table `code`: the scene sees only what the server
    sent this seat. The seat's moves are sent with the table's ply; the other seats' arrive as states,
    held until the scene lands them one at a time (`ready`, `land`). Its crib cards may be laid before
    the others' (the server keeps them until the game comes to this seat). `keeper` takes the finished
    game into this player's history, with its record to replay it from."""

    def __init__(
        self,
        link: Link,
        code: str,
        seat: int,
        state: dict[str, Any] | None = None,
        keeper: Records | None = None,
        forget: Callable[[], None] | None = None,
    ) -> None:
        """`forget` drops the table from this player's list when it is left (`leave`)."""
        self.link = link
        self.code = code
        self.seat = seat
        self.keeper = keeper
        self._end = TableEnding(link, code, seat, forget)
        self._finished = False
        self._chat_at = 0.0  # the time of the last line told (a link coming back sends the last lines again)
        self._watch = ConnectionWatch(link)
        self._held: list[Seen] = []  # the other's moves, not landed yet
        self._pending: list[PublicMove] = []
        self._asked: int | None = None  # the move at which the other's was first asked for
        self._troubles: list[str] = []
        self._hints_at_least = 0  # a hint counted by the server, before a state says so
        self._now = Seen(state) if state is not None else self._first_state()
        self._end.heard(self._now.state)  # how the table stands: none of it is news
        if self._now.public is None:
            raise IllegalMove(_not_begun(self._now.state))
        self._seats: list[Any] = list(self._now.state.get("seats") or [])  # who is here, as last told
        self._seats_at = time.monotonic()
        self._drain()
        self._troubles.clear()  # what was said before this window sat down is not news

    def _first_state(self) -> Seen:
        """The table's state as it stands: the newest the link holds of a game begun, else one asked for
        (a `resume`: a table opened again, its last state read by an older session) and waited for."""
        found = self._newest(self.link.messages())
        if found is None or found.public is None:
            token = self.link.seats.get(self.code)
            if token is not None:
                try:
                    self.link.request("resume", code=self.code, token=token)
                except (NotConnected, Refused) as e:
                    raise NotConnected(str(e)) from None
            end = time.monotonic() + FIRST_STATE_WAIT
            while (found is None or found.public is None) and time.monotonic() < end:
                message = self.link.next_message(timeout=max(0.0, end - time.monotonic()))
                if message is None:
                    break
                found = self._newest([message]) or found
        if found is None:
            raise NotConnected("the server sent no state of the table")
        if found.public is None:
            raise IllegalMove(_not_begun(found.state))
        return found

    def _newest(self, messages: list[dict[str, Any]]) -> Seen | None:
        """The newest of the states of this table among `messages`; the others are passed on."""
        newest = None
        for message in messages:
            if message["type"] == "state" and message["code"] == self.code:
                newest = Seen(message["state"])
            else:
                self._other(message)
        return newest

    def _other(self, message: dict[str, Any]) -> None:
        if self._end.heard_message(message):
            return
        if message["type"] == "said" and message.get("code") == self.code:
            if float(message.get("at") or 0.0) > self._chat_at:
                self._chat_at = float(message.get("at") or 0.0)
                self._troubles.append(heard_words(message))
        elif message.get("code") != self.code:
            self.link.inbox.put(message)  # another table's: left for whoever reads it

    # --- what the server sent ---

    def _last(self) -> Seen:
        return self._held[-1] if self._held else self._now

    def _drain(self) -> None:
        """Take what the server sent: a state of the other's move is held for `land`; any other is the
        table now (your move made for you, who is here, the end). The connection lost or back, a line
        said, the other gone or back are told (`incidents`)."""
        self._connection_news()
        others = []
        for message in self.link.messages():
            if message["type"] == "state" and message["code"] == self.code:
                self._receive(Seen(message["state"]))
            else:
                others.append(message)
        for message in others:
            self._other(message)

    def _connection_news(self) -> None:
        news = self._watch.news()
        if news is not None:
            self._troubles.append(news)

    def _seats_news(self, seats: object) -> None:
        """The other person going away or coming back, told in words; who is here, kept for `away`."""
        if not isinstance(seats, list):
            return
        before, self._seats, self._seats_at = self._seats, list(seats), time.monotonic()
        if len(before) != len(seats):
            return
        for seat, (old, new) in enumerate(zip(before, seats, strict=True)):
            if seat == self.seat or not isinstance(old, dict) or not isinstance(new, dict):
                continue
            if new.get("kind") != "person" or old.get("present") == new.get("present"):
                continue
            if new.get("present") and old.get("away") is None:  # taking a seat is no coming back
                continue
            name = chat_text(str(new.get("name") or f"Seat {seat + 1}"))
            self._troubles.append(f"{name} is back at the table." if new.get("present") else f"{name} has gone away.")

    def _receive(self, seen: Seen) -> None:
        if seen.ply >= self._last().ply:
            self._seats_news(seen.state.get("seats"))
            self._end.heard(seen.state)
            self._troubles.extend(self._end.take_words())
        last = self._last()
        if seen.ply < last.ply or seen.public is None:
            return  # older than what this seat holds
        if seen.moves <= last.moves:  # no move: who is here, a chat; the same game
            if self._held:
                self._held[-1] = seen
            else:
                self._now = seen
            return
        assert last.public is not None
        if self._others(last.public.to_move):
            self._held.append(seen)
        else:
            self._adopt(seen)

    def _others(self, seat: int | None) -> bool:
        """`seat` is another's (not this one's, and the game not over)."""
        return seat is not None and seat != self.seat

    def _adopt(self, seen: Seen) -> list[PublicMove]:
        """`seen` is the table now: the moves made since, as its story tells them, are to be told (the
        others' held before it among them: this seat's crib cards laid early came after them)."""
        before, self._now = self._now, seen
        self._held = [h for h in self._held if h.ply > seen.ply]
        assert seen.public is not None
        made = max(0, seen.moves - before.moves)
        told = list(seen.public.story[-made:]) if made else []
        self._pending.extend(told)
        return told

    # --- the questions ---

    @property
    def mine(self) -> tuple[int, ...]:
        return (self.seat,)

    def public(self) -> CribbagePublic:
        """The game as both seats see it (the other's move shown once landed)."""
        self._drain()
        assert self._now.public is not None
        return self._now.public

    @property
    def to_move(self) -> int | None:
        return self.public().to_move

    @property
    def is_over(self) -> bool:
        return self.public().is_over

    @property
    def thinking(self) -> bool:
        return self._others(self.public().to_move) and self._asked == self._now.moves

    def _check_mine(self, seat: int) -> None:
        if seat != self.seat:
            raise IllegalMove(f"seat {seat + 1} is not played here")

    def view(self, seat: int) -> CribbageView:
        self._check_mine(seat)
        assert self._now.view is not None
        return self._now.view

    def call_open(self, seat: int) -> Claim | None:
        """The other's score said aloud that `seat` may call now (the server says whether it may)."""
        if seat != self.seat or not self._now.may_call:
            return None
        return self.public().claim

    def legal_after_answer(self, seat: int) -> tuple[Move, ...]:
        self._check_mine(seat)
        return self._now.after

    def why_not(self, seat: int, move: Move) -> str:
        """Why `seat` may not make `move` now, in words ("" when it may; the server judges it again)."""
        if seat != self.seat:
            return f"Seat {seat + 1} is not played here."
        public = self.public()
        if public.is_over:
            return "The game is over."
        early = self._early(move)
        if early is not None:
            return early
        if public.to_move != seat or self._held:
            return "It is not your turn."
        view = self.view(seat)
        if move in view.legal:
            return ""
        lets_stand = self._now.may_call and not isinstance(move, Muggins)
        if lets_stand and not self._now.after:
            assert public.claim is not None
            return _sentence(f"wait: {self._named(public.claim.counter)} is to play")
        if lets_stand and move in self._now.after:
            return ""
        state = stand_in_state(view)
        if lets_stand:
            state = replace(state, claim=None, turn=seat)
        try:
            state.apply(move)
        except CribbageError as e:
            return _sentence(str(e))
        return "That move is not yours to make now."

    @property
    def hints(self) -> int:
        """The hints counted at this table for this game (the server keeps them with it)."""
        return max(int(self._now.state.get("hints") or 0), self._hints_at_least)

    @property
    def coach_allowed(self) -> bool:
        """Its creator allowed the coach at this table (the server refuses a hint otherwise)."""
        settings = self._now.state.get("settings")
        return isinstance(settings, dict) and bool(settings.get("coach"))

    def count_hint(self) -> int:
        """The hint counted by the server (IllegalMove in words when it refuses or cannot be reached)."""
        try:
            self.link.request("hint", code=self.code)
        except Refused as e:
            raise IllegalMove(_sentence(str(e))) from None
        except NotConnected as e:
            raise IllegalMove(f"the hint was not counted: {e}") from None
        self._hints_at_least = self.hints + 1
        return self.hints

    def _named(self, player: int) -> str:
        return self.public().called(player)

    def _early(self, move: Move) -> str | None:
        """Crib cards this seat may lay now, whoever the game waits for (the newest state sent says, the
        others' moves not landed yet among them): "" when they may go, else why not, in the engine's
        words; None for any other move, or once this seat has laid away."""
        view = self._last().view
        may_lay = view is not None and any(isinstance(m, Discard) for m in view.legal)
        if not isinstance(move, Discard) or view is None or not may_lay:
            return None
        try:
            check_discard(move, view.hand, view.options.variant)
        except CribbageError as e:
            return _sentence(str(e))
        return ""

    # --- the acts ---

    def act(self, seat: int, action: Move) -> PublicMove | None:
        """`seat`'s move, sent and judged by the server, told; None for crib cards laid before the game
        comes to this seat (kept by the server until it does). CribbageError in words when it is refused."""
        self._check_mine(seat)
        self._drain()
        why = self.why_not(seat, action)
        if why:
            raise CribbageError(why[0].lower() + why[1:].rstrip("."))
        if self._early(action) is not None:
            # the crib cards, sent on the newest state: the others' discards not landed yet are told with them
            told = self._adopt(Seen(self._sent(action, early=True)))
            return next((m for m in reversed(told) if m.player == seat), None)
        seen = Seen(self._sent(action, early=False))
        told = self._adopt(seen) if seen.moves > self._now.moves else []
        if not told:
            raise CribbageError("the server took the move but told no move made")
        return told[-1]

    def _sent(self, action: Move, early: bool) -> dict[str, Any]:
        """`action` sent with the ply of the table as this seat knows it; the state the server answers.
        Crib cards laid `early` are sent again on the newest ply when another's move came first: they are
        this seat's own, so nothing another did changes them."""
        for _ in range(DISCARD_TRIES if early else 1):
            ply = (self._last() if early else self._now).ply
            try:
                answer: dict[str, Any] = self.link.request("act", code=self.code, ply=ply, move=str(action))
                return dict(answer["state"])
            except Refused as e:
                self._drain()  # the move that came first is here by now: it was sent before the refusal
                refusal = str(e)
                if not early or self._early(action) != "" or self._last().ply == ply:
                    raise CribbageError(refusal) from None
            except NotConnected as e:
                self._troubles.append(f"Your move was not sent: {e}.")
                raise CribbageError(f"your move was not sent: {e}") from None
        raise CribbageError(refusal)

    def can_undo(self, seat: int) -> bool:
        return False

    def undo(self, seat: int) -> tuple[Move, ...]:
        """Refused: a move of cribbage is not taken back at an online table (the server refuses it too)."""
        raise IllegalMove("taking back a move is not available in online cribbage")

    def ready(self) -> bool:
        """Another seat's move has come (what it is stays behind the session until it lands)."""
        self._drain()
        if self._now.public is not None and self._others(self._now.public.to_move):
            self._asked = self._now.moves
        return bool(self._held)

    def land(self) -> PublicMove:
        """Another seat's move, the next that came, made here."""
        self._drain()
        if not self._held:
            raise IllegalMove("no move is on its way")
        told = self._adopt(self._held.pop(0))
        while self._held and not told:
            told = self._adopt(self._held.pop(0))
        if not told:
            raise IllegalMove("the move that came told nothing")
        return told[-1]

    def take_pending(self) -> list[PublicMove]:
        """Every move made since last asked (yours and the other's landed), to be told and pegged."""
        self._drain()
        taken, self._pending = self._pending, []
        return taken

    def record(self) -> str | None:
        """The whole game as its save (every hand, the seed), once it is over: None before."""
        record = self._now.state.get("record")
        return record if isinstance(record, str) else None

    def save(self) -> None:
        """Nothing to keep here: the server keeps every move before it answers."""

    def finished_table(self) -> CribbageTable | None:
        """The game from the record the server sent with its end (None before it came, or when it
        cannot be replayed here: that is logged when the game is recorded)."""
        text = self.record()
        if text is None:
            return None
        try:
            return CribbageTable.from_json(text, by_name=True)
        except ValueError:
            return None

    def finish(self) -> None:
        """The game is over: it goes into this player's history from the record the server sent with its
        end, this seat as the person, the others' level when bots of one level sat at every other seat
        (None: a person sat at one). Once here; a session made again for the same table (a reconnection,
        the game opened again from the list of online games) records the same game, which the history
        knows by its key."""
        if self._finished or self.keeper is None or not self.is_over:
            return
        text = self.record()
        if text is None:
            return  # the record comes with the end's state: asked again at the next frame
        self._finished = True
        try:
            table = CribbageTable.from_json(text, by_name=True)
        except ValueError as e:  # the server's record not replayed here: a bug of one side
            log.error("the record of the cribbage game at %s could not be read: %s", self.code, e)
            self._troubles.append(f"This game could not be added to your history ({e}).")
            return
        levels = {seat.level for p, seat in enumerate(table.seats) if p != self.seat}
        level = next(iter(levels)) if len(levels) == 1 else None
        self.keeper.record_cribbage(table.state, self.seat, level, (table.undos, table.hints))

    def incidents(self) -> tuple[str, ...]:
        """What happened since last asked, in words: the connection lost and back, another gone away or
        back, a move not sent, a line said ("Name: text", the table's own among them)."""
        self._drain()
        told, self._troubles = tuple(self._troubles), []
        return told

    def away(self, seat: int) -> float | None:
        """Seconds the person at `seat` has been away (None: here, or a bot's seat), from the last state."""
        if not 0 <= seat < len(self._seats) or not isinstance(self._seats[seat], dict):
            return None
        told = self._seats[seat]
        if told.get("present") or told.get("away") is None:
            return None
        return float(told["away"]) + max(0.0, time.monotonic() - self._seats_at)

    @property
    def chat_allowed(self) -> bool:
        return True

    def say(self, text: str) -> None:
        """A line to the table (no control character, cut to the server's limit); it comes back among the
        incidents, as the other's do. IllegalMove in words when it was not sent."""
        line = chat_text(text).strip()
        if not line:
            raise IllegalMove("there is nothing to send: type a line first")
        try:
            self.link.request("chat", code=self.code, text=line)
        except Refused as e:
            raise IllegalMove(str(e).strip().rstrip(".")) from None
        except NotConnected as e:
            raise IllegalMove(f"that was not sent: {e}; the game reconnects by itself, try again then") from None

    def close(self) -> None:
        """Let go of the moves not landed (the link is its owner's to close)."""
        self._held.clear()
        self._pending.clear()

    # --- the table's end besides the rules ---

    def _took(self, answer: dict[str, Any]) -> None:
        if answer.get("type") == "state":
            self._receive(Seen(answer["state"]))

    def resign(self, seat: int) -> None:
        self._drain()
        self._took(self._end.resign(seat))

    @property
    def pending_again(self) -> AgainAsked | None:
        self._drain()
        return self._end.pending

    def ask_again(self, seat: int) -> None:
        self._took(self._end.ask(seat))

    def answer_again(self, seat: int, yes: bool) -> None:
        self._drain()
        self._took(self._end.answer(seat, yes))

    @property
    def next_table(self) -> NextTable | None:
        self._drain()
        return self._end.next_table

    @property
    def aborted(self) -> bool:
        self._drain()
        return self._end.aborted

    def leave(self) -> None:
        """Let the table go: off this player's list of online games (and no more of its states here)."""
        self.close()
        self.link.seats.pop(self.code, None)
        with contextlib.suppress(NotConnected):  # gone already: the server counts the seat away
            self.link.send("leave", code=self.code)
        self._end.leave()


def _not_begun(state: dict[str, Any]) -> str:
    """Why a table's state holds no game, in words."""
    if state.get("aborted"):
        return "the table was aborted before its first move: there is no game to play at it"
    return "the game has not begun: a seat is still open"

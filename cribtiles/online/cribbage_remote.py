"""Classic cribbage at an online table, from a client's seat or a spectator's: `RemoteCribbageSession`, the
cribbage scene's driver over a `Link` (the other seats' moves are said to be ready, then landed one at a
time, as bots' are at one window; a spectator sees each move as it comes) (issue 31). Two, three or four
seats, and crib cards laid before the others' (issue 44). What both games' sessions do alike is
`RemoteCore`'s, the states waiting to be shown among it; this is cribbage's decoder: how its states are
read and shown, its moves announced and told, its acts sent (issue 45). Its seat bot lives in
`cribbage_seat`; the stand-in game that judges a move here and the felt a spectator sees, in the table
layer (`table/cribbage/stand_in.py`)."""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from cribtiles.cribbage.cards import Card
from cribtiles.cribbage.game import check_discard
from cribtiles.cribbage.moves import Count, CribbageError, Discard, Go, Move, Muggins, PlayCard, parse_move
from cribtiles.cribbage.muggins import Claim
from cribtiles.cribbage.view import CribbageView
from cribtiles.rules.errors import IllegalMove
from cribtiles.table.cribbage.public import Act, CribbagePublic, PublicMove, public_from_data, view_from_data
from cribtiles.table.cribbage.session import CribbageKeeps, FinishedCribbage
from cribtiles.table.cribbage.stand_in import stand_in_state, watcher_view
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.table.session import UndoAsked

from .client import ARRIVAL, Link, NotConnected, Refused
from .remote_core import FIRST_STATE_WAIT, MOVE, QUIET, WATCHING_WORDS, RemoteCore
from .taking_back import ONE_AT_A_TIME, asked, why_not_asked

#: How often crib cards are sent again when another seat's move came first: they are this seat's own, so
#: nothing another did changes them (each try is answered: the server is never waited for in vain).
DISCARD_TRIES = 8
log = logging.getLogger("cribtiles.online")


#: Why a take-back is not asked of the table now, when nothing else says why.
NOT_NOW_WORDS = (
    "nothing of yours may be taken back now: online a move goes back only before another person moves or "
    "anything new comes to light"
)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


class Seen:
    """One state the server sent this seat, read once: the public game, the seat's view, its calls."""

    def __init__(self, data: dict[str, Any], order: int = 0) -> None:
        state = self.data = data
        self.ply: int = state["ply"]  # the table's (every change), by which an act is judged
        self.order = order  # its place among the messages the link read (`ARRIVAL`)
        self.public: CribbagePublic | None = None
        self.view: CribbageView | None = None
        self.may_call = bool(state.get("may_call"))
        self.undos = int(state.get("undos") or 0)  # the moves taken back at the table so far
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


class RemoteCribbageSession(RemoteCore[Seen, Move, PublicMove]):
    """A `CribbageDriver` over `link` for `seat` at the table `code` (None: a spectator, who sees every
    move as it comes and makes none): the scene sees only what the server sent this seat. The seat's
    moves are sent with the table's ply; the other seats' arrive as states, held until the scene lands
    them one at a time (`poll`, `land`). Its crib cards may be laid before the others' (the server
    keeps them until the game comes to this seat). `keeper` takes the finished game into this player's
    history, with its record to replay it from."""

    def __init__(
        self,
        link: Link,
        code: str,
        seat: int | None,
        state: dict[str, Any] | None = None,
        keeper: CribbageKeeps | None = None,
        forget: Callable[[], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """`forget` drops the table from this player's list when it is left (`leave`)."""
        super().__init__(link, code, seat, forget, clock)
        self.keeper = keeper
        self._pending: list[PublicMove] = []
        self._quiet = False  # a state came with no move (a resignation, who is here): the scene asks again
        self._asked: int | None = None  # the move at which the other's was first asked for
        try:
            self._shown = Seen(state) if state is not None else self._first_state()
            self._end.heard(self._shown.data)  # how the table stands: none of it is news
            if self._shown.public is None:
                raise IllegalMove(_not_begun(self._shown.data))
        except (IllegalMove, NotConnected):
            link.unlisten(code, self._box)
            raise
        self._seats_told = list(self._shown.data.get("seats") or [])  # who is here, as last told
        self._presence.heard(self._seats_told)
        self._seats_at = self.clock()
        self._pump()
        self._told.clear()  # what was said before this window sat down is not news
        self._hold()

    def _first_state(self) -> Seen:
        """The table's state as it stands, asked for (a `resume`, or a `watch`) and waited for: never a
        state an earlier look at the table left behind."""
        try:
            self._ask_table(FIRST_STATE_WAIT)
        except (NotConnected, Refused) as e:
            raise NotConnected(str(e)) from None
        heard: list[Seen] = []

        def enough(message: dict[str, Any]) -> bool:
            if message["type"] == "state":
                heard.append(Seen(message["state"], int(message.get(ARRIVAL, 0))))
            return bool(heard) and heard[-1].public is not None

        self._wait_for(FIRST_STATE_WAIT, enough)
        found = heard[-1] if heard else None
        if found is None:
            raise NotConnected("the server sent no state of the table")
        if found.public is None:
            raise IllegalMove(_not_begun(found.data))
        return found

    # --- what the server sent ---

    def _heard_state(self, data: dict[str, Any], order: int) -> None:
        """A state of the other's move waits for `land`; any other is the table now (your move made for
        you, who is here, the end)."""
        self._receive(Seen(data, order))

    def _let_go(self) -> None:
        super()._let_go()
        self._pending.clear()

    def _receive(self, seen: Seen) -> None:
        if seen.ply >= self._last().ply:
            self._seats_news(seen.data.get("seats"))
            self._heard_end(seen.data)
            self._undo_news(self._last().data, seen.data, seen.public.names if seen.public is not None else ())
        last = self._last()
        if seen.ply < last.ply or seen.order < last.order or seen.public is None:
            return  # older than what this seat holds (pushed before an answer already taken)
        if seen.undos > last.undos:  # moves taken back: the table as it stands again, nothing on its way
            self._queue.clear()
            self._pending, self._asked, self._shown = [], None, seen
            self._quiet = True
            return
        if seen.moves <= last.moves:  # no move: who is here, a chat, a resignation; the same game
            if self._queue:
                self._queue[-1] = seen
            else:
                self._shown, self._quiet = seen, True
            return
        assert last.public is not None
        if self._others(last.public.to_move):
            self._queue.append(seen)
        else:
            self._adopt(seen)

    def _others(self, seat: int | None) -> bool:
        """`seat` is another's (not this one's, and the game not over), at a table played from a seat (a
        spectator's moves are none: each is shown as it comes)."""
        return self.seat is not None and seat is not None and seat != self.seat

    def _adopt(self, seen: Seen) -> list[PublicMove]:
        """`seen` is the table now: the moves made since, as its story tells them, are to be told (the
        others' held before it among them: this seat's crib cards laid early came after them)."""
        before, self._shown = self._shown, seen
        self._queue = deque(h for h in self._queue if h.ply > seen.ply)
        assert seen.public is not None
        made = max(0, seen.moves - before.moves)
        told = list(seen.public.story[-made:]) if made else []
        self._pending.extend(told)
        return told

    # --- the questions ---

    def public(self) -> CribbagePublic:
        """The game as both seats see it (the other's move shown once landed)."""
        self._pump()
        assert self._shown.public is not None
        return self._shown.public

    @property
    def to_move(self) -> int | None:
        return self.public().to_move

    @property
    def is_over(self) -> bool:
        return self.public().is_over

    @property
    def thinking(self) -> bool:
        return self._others(self.public().to_move) and self._asked == self._shown.moves

    def view(self, seat: int) -> CribbageView:
        if self.seat is None:  # a spectator: the felt from the first seat's side, no hand
            return watcher_view(self.public())
        self._check_mine(seat)
        assert self._shown.view is not None
        return self._shown.view

    def call_open(self, seat: int) -> Claim | None:
        """The other's score said aloud that `seat` may call now (the server says whether it may)."""
        if seat != self.seat or not self._shown.may_call:
            return None
        return self.public().claim

    def legal_after_answer(self, seat: int) -> tuple[Move, ...]:
        if self.seat is None:
            return ()
        self._check_mine(seat)
        return self._shown.after

    def why_not(self, seat: int, move: Move) -> str:
        """Why `seat` may not make `move` now, in words ("" when it may; the server judges it again)."""
        if self.seat is None:
            return _sentence(WATCHING_WORDS)
        if seat != self.seat:
            return f"Seat {seat + 1} is not played here."
        public = self.public()
        if public.is_over:
            return "The game is over."
        early = self._early(move)
        if early is not None:
            return early
        if public.to_move != seat or self._queue:
            return "It is not your turn."
        view = self.view(seat)
        if move in view.legal:
            return ""
        lets_stand = self._shown.may_call and not isinstance(move, Muggins)
        if lets_stand and not self._shown.after:
            assert public.claim is not None
            return _sentence(f"wait: {self._named(public.claim.counter)} is to play")
        if lets_stand and move in self._shown.after:
            return ""
        state = stand_in_state(view)
        if lets_stand:
            state = replace(state, claim=None, turn=seat)
        try:
            state.apply(move)
        except CribbageError as e:
            return _sentence(str(e))
        return "That move is not yours to make now."

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
        self._pump()
        why = self.why_not(seat, action)
        if why:
            raise CribbageError(why[0].lower() + why[1:].rstrip("."))
        if self._early(action) is not None:
            # the crib cards, sent on the newest state: the others' discards not landed yet are told with them
            told = self._adopt(self._sent(action, early=True))
            return next((m for m in reversed(told) if m.player == seat), None)
        seen = self._sent(action, early=False)
        told = self._adopt(seen) if seen.moves > self._shown.moves else []
        if not told:
            raise CribbageError("the server took the move but told no move made")
        return told[-1]

    def _sent(self, action: Move, early: bool) -> Seen:
        """`action` sent with the ply of the table as this seat knows it; the state the server answers.
        Crib cards laid `early` are sent again on the newest ply when another's move came first: they are
        this seat's own, so nothing another did changes them."""
        for _ in range(DISCARD_TRIES if early else 1):
            ply = (self._last() if early else self._shown).ply
            try:
                answer: dict[str, Any] = self.link.request("act", code=self.code, ply=ply, move=str(action))
                return Seen(dict(answer["state"]), int(answer.get(ARRIVAL, 0)))
            except Refused as e:
                self._pump()  # the move that came first is here by now: it was sent before the refusal
                refusal = str(e)
                if not early or self._early(action) != "" or self._last().ply == ply:
                    raise CribbageError(refusal) from None
            except NotConnected as e:
                self._told.append(f"Your move was not sent: {e}.")
                raise CribbageError(f"your move was not sent: {e}") from None
        raise CribbageError(refusal)

    # --- taking back, by agreement ---

    @property
    def undos(self) -> int:
        """The moves taken back at the table so far (the server counts them): one more, and the scene goes
        back with the table."""
        self._pump()
        return self._shown.undos

    def can_undo(self, seat: int) -> bool:
        """`seat` may ask to take back its last decision now, as the newest state heard says (the others'
        moves on their way to the screen among them: a reply that showed a card makes it too late)."""
        return seat == self.seat and bool(self._last().data.get("can_undo"))

    @property
    def pending_undo(self) -> UndoAsked | None:
        """The request to take back a move that waits for answers, as the newest state tells it; another's
        once the moves it would take back are on the screen (a card on its way is seen before it is asked
        back)."""
        self._pump()
        newest = asked(self._last().data)
        if newest is None or newest.asker == self.seat:
            return newest
        return asked(self._shown.data)

    def undo(self, seat: int) -> tuple[Move, ...]:
        """Ask the table to take back `seat`'s last decision (of the table as it stands: the others' moves
        on their way with it). The moves taken back, oldest first, when nobody else need agree (another's
        crib cards as a discard of no cards: they are not this seat's to know); () when the others are asked
        (`pending_undo` waits for them). IllegalMove in words when it may not."""
        self._check_mine(seat)
        self._pump()
        before = self._last()
        why = ONE_AT_A_TIME if self.pending_undo is not None else why_not_asked(before.data, seat, NOT_NOW_WORDS)
        if why:
            raise IllegalMove(why)
        try:
            answer = self._send("undo", ply=before.ply)
        except IllegalMove:
            self._pump()  # what came first is shown by now
            raise
        self._took(answer)
        if self._shown.undos <= before.undos:
            return ()
        return self._taken(before, self._shown)

    def _taken(self, before: Seen, after: Seen) -> tuple[Move, ...]:
        """The moves taken back between `before` and `after`, as this seat knew them."""
        assert before.public is not None and before.view is not None
        made = before.moves - after.moves
        if made <= 0:  # crib cards laid ahead, not made yet
            return (Discard(before.view.discards),)
        story = before.public.story[-made:]
        return tuple(_as_move(m, before.view.discards if m.player == self.seat else ()) for m in story)

    def poll(self) -> Move | None:
        """Another seat's move once it has come, as the table tells it (another's crib cards are a discard
        of no cards: they are not this seat's to know); `land` makes it. Asked while another is to move,
        the session is `thinking` until the game moves on."""
        self._pump()
        if self._shown.public is not None and self._others(self._shown.public.to_move):
            self._asked = self._shown.moves
        return super().poll()

    def _kind(self, seen: Seen) -> str:
        """Only the others' moves wait (`_receive` takes any other state as it comes): `MOVE` while one
        brings more moves than the game shown, else `QUIET`."""
        return MOVE if seen.moves > self._shown.moves else QUIET

    def _show(self, seen: Seen) -> None:
        self._adopt(seen)

    def _announced(self, seen: Seen) -> Move:
        assert seen.public is not None
        return _as_move(seen.public.story[-1], ())

    def _made(self, before: Seen, seen: Seen) -> PublicMove:
        assert seen.public is not None
        return seen.public.story[-1]

    def take_pending(self) -> list[PublicMove]:
        """Every move made since last asked (yours and the other's landed), to be told and pegged."""
        self._pump()
        taken, self._pending = self._pending, []
        return taken

    def changed(self) -> bool:
        self._pump()
        quiet, self._quiet = self._quiet, False
        return quiet

    def record(self) -> str | None:
        """The whole game as its save (every hand, the seed), once it is over: None before."""
        record = self._shown.data.get("record")
        return record if isinstance(record, str) else None

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
        if self._finished or self.keeper is None or not self.is_over or self.seat is None:
            return  # (a game watched is not this player's)
        text = self.record()
        if text is None:
            return  # the record comes with the end's state: asked again at the next frame
        self._finished = True
        try:
            table = CribbageTable.from_json(text, by_name=True)
        except ValueError as e:  # the server's record not replayed here: a bug of one side
            log.error("the record of the cribbage game at %s could not be read: %s", self.code, e)
            self._told.append(f"This game could not be added to your history ({e}).")
            return
        levels = {seat.level for p, seat in enumerate(table.seats) if p != self.seat}
        level = next(iter(levels)) if len(levels) == 1 else None
        self.keeper.record(FinishedCribbage(table.state, self.seat, level, (table.undos, table.hints)))

    # --- the table's end besides the rules ---

    def _took(self, answer: dict[str, Any]) -> None:
        if answer.get("type") == "state":
            self._receive(Seen(answer["state"], int(answer.get(ARRIVAL, 0))))


def _as_move(told: PublicMove, discards: tuple[Card, ...]) -> Move:
    """A move as the table told it (a discard's cards, `discards`, are its player's alone)."""
    if told.act is Act.DISCARD:
        return Discard(discards)
    if told.act is Act.PLAY and told.card is not None:
        return PlayCard(told.card)
    if told.act in (Act.CALL, Act.LET_STAND):
        return Muggins(told.act is Act.CALL)
    return Count() if told.act is Act.COUNT else Go()


def _not_begun(state: dict[str, Any]) -> str:
    """Why a table's state holds no game, in words."""
    if state.get("aborted"):
        return "the table was aborted before its first move: there is no game to play at it"
    return "the game has not begun: a seat is still open"

"""What a connection asks of one table (`TableRequests`): to sit (a seat taken, or come back to with its
token), to watch, its status, and once there to move, chat, ask for a hint, leave, resign, abort before
the first move, or play a finished table again. A wrong code or token counts against the address."""

from __future__ import annotations

import copy
import logging
import secrets
from collections.abc import Callable
from typing import Any

from cribtiles.online.protocol import write
from cribtiles.rules.errors import IllegalMove

from .clients import Client
from .limits import Addresses
from .rematch import RematchEnd
from .rooms import Room, new_code, new_token, normal_code, token_hash
from .store import StoreError
from .tables import TABLE_SPEAKER, Tables

log = logging.getLogger("cribtiles.server")

#: The messages that name a table the connection need not be at yet.
ARRIVALS = ("join", "resume", "watch", "status", "seat_bot", "abort")
NOT_HOST = "only the table's host may do that: the host token is not this table's"


class TableRequests:
    """The answers to what a connection asks of a table of `tables`."""

    def __init__(self, tables: Tables, addresses: Addresses, clock: Callable[[], float]) -> None:
        self.tables = tables
        self.addresses = addresses
        self.clock = clock

    def answer(self, client: Client, message: dict[str, Any]) -> None:
        """Answer a message for the table its `code` names (IllegalMove: refused, in words)."""
        kind, re = message["type"], message.get("id")
        tables = self.tables
        if kind in ARRIVALS:
            token = message.get("token") if kind == "resume" else None
            room = self.room(client, message["code"], token, claim=kind != "status")
            getattr(self, kind)(client, room, message)
            return
        room = self.room(client, message["code"])
        seat = client.seats.get(room.code)
        if room.code not in client.seats:
            raise IllegalMove("join the table (or come back to your seat) first")
        if kind == "leave":
            self.leave(client, room)
            tables.let_go_if_idle(room.code)
            tables.post(client, write("ok", re=re))
        elif kind == "chat":
            self.chat(client, room, seat, message["text"])
            tables.post(client, write("ok", re=re))
        elif seat is None:
            raise IllegalMove("a spectator watches; only the players move")
        elif kind == "hint":
            room.count_hint()
            tables.keep(room)
            tables.post(client, write("ok", re=re))
        elif kind == "resign":
            self.resign(client, room, seat, re)
        elif kind in ("rematch", "rematch_answer"):
            self.rematch(client, room, seat, message)
        else:
            self.act(client, room, seat, message)

    def room(self, client: Client, code: str, token: str | None = None, claim: bool = True) -> Room:
        """The table of `code` (`claim`: to serve it, else only to show it). An address that has tried too
        many wrong codes is refused even a right one for a while (else a guesser would still learn each
        code it hits), but not at a table its connection is at, nor with a seat's token there (a player
        coming back)."""
        code = normal_code(code)
        room = self.tables.rooms.get(code) or self.tables.recall(code, claim)
        if room is not None and (room.code in client.seats or (token and room.seat_of(token) is not None)):
            return room
        self.addresses.tried(client.address, "no table has that code", right=room is not None)
        assert room is not None
        return room

    # --- coming to a table ---

    def attach(self, client: Client, room: Room, seat: int | None) -> None:
        """`client` is at `room` now, at `seat` (None: watching): sent its recent lines, and everyone the
        table as it stands."""
        tables = self.tables
        old = client.seats.get(room.code, -1)
        if old == seat:
            tables.post(client, tables.state(room, seat))
            return
        if old != -1 and old is not None:
            room.depart(old, self.clock())
        client.seats[room.code] = seat
        tables.clients.setdefault(room.code, set()).add(client)
        if seat is not None and room.arrive(seat):  # the host's bot leaves their seat to them: kept so
            try:
                tables.keep(room)
            except StoreError as e:  # kept with the table's next change
                log.error("%s", e)
        for line in room.chat[-20:]:
            tables.post(client, write("said", code=room.code, **line))
        tables.tell_all(room)

    def join(self, client: Client, room: Room, message: dict[str, Any]) -> None:
        seat, token = room.take(message["name"], self.clock(), message.get("seat"))
        self.tables.keep(room)
        self.tables.post(client, write("joined", re=message.get("id"), code=room.code, seat=seat, token=token))
        self.attach(client, room, seat)
        self.tables.kick(room)

    def resume(self, client: Client, room: Room, message: dict[str, Any]) -> None:
        seat = room.seat_of(message["token"])
        if seat is None:
            self.addresses.tried(client.address, "that seat token opens no seat at this table")
        assert seat is not None
        joined = write("joined", re=message.get("id"), code=room.code, seat=seat, token=message["token"])
        self.tables.post(client, joined)
        self.attach(client, room, seat)
        self._seated_again_late(client, room, seat)

    def _seated_again_late(self, client: Client, room: Room, seat: int) -> None:
        """A person back at a finished table that was played again meanwhile, who missed their seat's token
        there (their connection dropped as it was sent): a new token for that seat, sent to this connection
        alone; the one sent before stops opening it (the old table's token proves whose seat it is)."""
        told = room.rematch
        made = told.table if told is not None and told.ended is RematchEnd.MADE else None
        again = None if made is None else self.tables.rooms.get(made) or self.tables.recall(made)
        if again is None or seat >= len(again.places) or again.places[seat].kind != "person":
            return
        token = new_token()
        again.places[seat].token_hash = token_hash(token)
        self.tables.keep(again)
        self.tables.post(client, write("rematched", code=room.code, table=again.code, seat=seat, token=token))
        log.info("table %s: seat %d sent its place at %s again", room.code, seat + 1, again.code)

    def watch(self, client: Client, room: Room, message: dict[str, Any]) -> None:
        self.tables.post(client, write("watching", re=message.get("id"), code=room.code))
        self.attach(client, room, None)

    def status(self, client: Client, room: Room, message: dict[str, Any]) -> None:
        summary = room.summary(self.clock())
        self.tables.post(client, write("table", re=message.get("id"), code=room.code, table=summary))

    def seat_bot(self, client: Client, room: Room, message: dict[str, Any]) -> None:
        if not room.is_host(message["host"]):
            self.addresses.tried(
                client.address, "only the table's host may do that: the host token is not this table's"
            )
        now = self.clock()
        words = room.seat_bot(message["seat"], message["level"], now)
        line = room.say(None, TABLE_SPEAKER, words, now)
        self.tables.keep(room)
        self.tables.post(client, write("ok", re=message.get("id")))
        log.info("table %s: %s", room.code, words)
        self.tables.say_all(room, line)
        self.tables.tell_all(room)
        self.tables.kick(room)

    # --- at the table ---

    def leave(self, client: Client, room: Room) -> None:
        seat = client.seats.pop(room.code)
        self.tables.clients.get(room.code, set()).discard(client)
        if seat is not None:
            room.depart(seat, self.clock())
            self.tables.tell_all(room)

    def chat(self, client: Client, room: Room, seat: int | None, text: str) -> None:
        name = room.places[seat].name if seat is not None else "a spectator"
        line = room.say(seat, name or "?", text, self.clock())
        self.tables.keep(room)
        self.tables.say_all(room, line)

    def act(self, client: Client, room: Room, seat: int, message: dict[str, Any]) -> None:
        tables = self.tables
        made = room.act(seat, message, self.clock())
        # a resend of a move made but never kept (the store failed) keeps it now: it is acknowledged
        fresh = made or room.code in tables.unkept
        if fresh:
            tables.keep(room)
        tables.post(client, tables.state(room, seat, message.get("id")))
        if fresh:
            tables.tell_all(room, but=client)
            tables.kick(room)

    # --- the end of a table: resigning, aborting, playing again ---

    def resign(self, client: Client, room: Room, seat: int, re: int | None) -> None:
        """`seat` gives the game up: the table is told so in a line of its own, and every seat its state."""
        if room.places[seat].kind != "person":
            raise IllegalMove("only a person at the table resigns")
        now = self.clock()
        words = room.resign(seat, now)
        line = room.say(None, TABLE_SPEAKER, words, now) if words else None
        self.tables.keep(room)
        self.tables.post(client, self.tables.state(room, seat, re))
        if line is not None:
            log.info("table %s: %s", room.code, words)
            self.tables.say_all(room, line)
            self.tables.tell_all(room, but=client)

    def abort(self, client: Client, room: Room, message: dict[str, Any]) -> None:
        """The host (its token) or a person seated here ends the table before its first move."""
        host = message.get("host")
        if host is not None and not room.is_host(host):
            self.addresses.tried(
                client.address, "only the table's host may do that: the host token is not this table's"
            )
        seated = client.seats.get(room.code) is not None
        if host is None and not seated:
            raise IllegalMove("only a player seated at the table, or its host, may abort it")
        if room.abort(self.clock()):
            self.tables.keep(room)
            log.info("table %s was aborted before its first move", room.code)
            self.tables.tell_all(room, but=client)
        self.tables.post(client, write("ok", re=message.get("id")))
        if seated:
            self.tables.post(client, self.tables.state(room, client.seats[room.code]))

    def rematch(self, client: Client, room: Room, seat: int, message: dict[str, Any]) -> None:
        """`seat` asks to play the finished table again, or answers the request; once every person has
        agreed, the new table is made and each person's new token sent to their own connections."""
        tables = self.tables
        asking = message["type"] == "rematch"
        before = copy.deepcopy(room.rematch)
        changed = room.ask_rematch(seat) if asking else room.answer_rematch(seat, message["yes"])
        if changed and room.rematch_ready and len(tables.rooms) >= tables.limits.tables:
            room.rematch = before  # the request waits as it was: this answer may be given again later
            raise IllegalMove("the server is full: try again later")
        made = self._play_again(room) if changed and room.rematch_ready else None
        if changed:
            tables.keep(room)
        tables.post(client, tables.state(room, seat, message.get("id")))
        if changed:
            tables.tell_all(room, but=client)
        if made is not None:
            self._seated_again(room, *made)

    def _play_again(self, room: Room) -> tuple[Room, dict[int, str]]:
        """The new table of `room`'s rematch, kept before anyone is told of it."""
        tables = self.tables
        if len(tables.rooms) >= tables.limits.tables:
            raise IllegalMove("the server is full: try again later")
        code = new_code(tables.taken)
        again, tokens = room.play_again(code, secrets.randbits(63), self.clock())
        tables.rooms[code] = again
        tables.keep(again)
        log.info("table %s is played again at %s", room.code, code)
        return again, tokens

    def _seated_again(self, room: Room, again: Room, tokens: dict[int, str]) -> None:
        """Each person of `room` is sent their seat at the new table `again`: to their own connections
        only (a spectator, or another seat, is told the new code by the state, never a token)."""
        for client in list(self.tables.clients.get(room.code, ())):
            seat = client.seats.get(room.code)
            if seat in tokens:
                told = write("rematched", code=room.code, table=again.code, seat=seat, token=tokens[seat])
                self.tables.post(client, told)
        self.tables.kick(again)

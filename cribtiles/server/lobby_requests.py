"""What a connection asks of the server rather than of a table it is at (`LobbyRequests`): a new table,
checked before it is made (its seats, settings and seed; the tables its address has not finished), and
the list of the open tables anyone may join, read from the store when several processes share it."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from cribtiles.online.protocol import write
from cribtiles.quoting import quoted
from cribtiles.rules.errors import IllegalMove

from .clients import Client
from .limits import Addresses
from .rooms import Room, Settings, new_code, read_places
from .table_requests import TableRequests
from .tables import Tables

log = logging.getLogger("cribtiles.server")

#: a client's seed, when a table takes one: the range of the seeds the server draws itself (63 bits)
SEEDS = 2**63


class LobbyRequests:
    """The answers to `create` and `open_tables`. `any_seed`: a client's seed is taken at any table, not
    only at one with no other person (tests): its creator would know every bag of a game against others."""

    def __init__(self, tables: Tables, addresses: Addresses, seats: TableRequests, any_seed: bool) -> None:
        self.tables = tables
        self.addresses = addresses
        self.seats = seats
        self.any_seed = any_seed

    def create(self, client: Client, message: dict[str, Any]) -> None:
        tables = self.tables
        open_tables = self.addresses.made(client.address, tables.rooms)
        if len(tables.rooms) >= tables.limits.tables:
            raise IllegalMove("the server is full: try again later")
        game = message["game"]
        try:
            places = read_places(game, message["seats"])
            settings = Settings(
                rules=message.get("rules", "")[:400],
                coach=message.get("coach", False),
                turn_timer=message.get("turn_timer"),
                on_timeout=message.get("on_timeout", "bot"),
                absent_bot=message.get("absent_bot"),
                public=message.get("public", False),
            )
            seed = self._seed(message.get("seed"), settings, sum(p.kind == "person" for p in places))
            now = tables.clock()
            code = new_code(tables.taken)  # a table let go of keeps its code
            room, host = Room.new(code, game, places, settings, seed, now)
        except ValueError as e:
            raise IllegalMove(str(e)) from None
        sit = message.get("sit")
        seat: int | None = None
        token: str | None = None
        if sit is not None:
            if not 0 <= sit < len(places) or places[sit].kind != "person" or places[sit].name is None:
                raise IllegalMove("the creator sits at a seat named for a person")
            seat, token = room.take(places[sit].name or "", now)
        tables.rooms[code] = room
        tables.keep(room)
        open_tables.add(code)
        if settings.public:
            tables.listed[code] = None
        tables.post(client, write("created", re=message.get("id"), code=code, host=host, seat=seat, token=token))
        if seat is not None:
            self.seats.attach(client, room, seat)
        tables.kick(room)

    def _seed(self, seed: int | None, settings: Settings, people: int) -> int:
        """The table's seed: the client's, where a table takes one, else one the server draws."""
        if seed is not None and settings.public:
            raise IllegalMove(
                "a table anyone may join takes no seed: its creator would know every bag of the game of "
                "whoever joins. Leave the seed out and the server draws one"
            )
        if seed is not None and not 0 <= seed < SEEDS:
            raise IllegalMove(
                f"the seed {quoted(seed, 24)} is out of range: a seed is a whole number from 0 to 2^63 - 1"
            )
        if seed is not None and not self.any_seed and people > 1:
            raise IllegalMove(
                "a seed is taken only at a table with one person's seat, the rest bots: "
                "with it the table's creator would know every bag of the other players' game. "
                "Leave the seed out and the server draws one"
            )
        if seed is None:
            # 63 bits: the start's draws and a seat's own rack single out a 31-bit seed in a
            # few core-hours of search, and with it every rack and bag of the game
            seed = secrets.randbits(63)
        return seed

    def open_tables(self, client: Client, message: dict[str, Any]) -> None:
        """The tables anyone may join that have a seat open, the newest first (`tables_listed` at most),
        of one game when `game` says which; an address may ask `lists_per_minute` times a minute."""
        tables = self.tables
        self.addresses.list_asked(client.address)
        now = tables.clock()
        game = message.get("game")
        if tables.store.shared:  # whichever process serves them
            tables.post(client, write("tables", re=message.get("id"), tables=self._waiting(game, now)))
            return
        found: list[dict[str, Any]] = []
        for code in reversed(list(tables.listed)):
            room = tables.rooms.get(code)
            if room is None or room.phase != "waiting":  # begun (or let go of): listed no more
                del tables.listed[code]
            elif len(found) < tables.limits.tables_listed and (game is None or room.game_name == game):
                found.append(room.listing(now))
        tables.post(client, write("tables", re=message.get("id"), tables=found))

    def _waiting(self, game: str | None, now: float) -> list[dict[str, Any]]:
        """A shared store's open tables, as `open_tables` lists them: a table this process serves as it
        is in memory (newer than kept only by its presence), any other as the store keeps it."""
        found = []
        for data in self.tables.store.waiting(game, self.tables.limits.tables_listed):
            room = self.tables.rooms.get(str(data.get("code")))
            if room is None:
                try:
                    room = Room.from_data(data, now)
                except (KeyError, TypeError, ValueError) as e:
                    log.error("a kept table could not be read and is left out: %s", str(e)[:200])
                    continue
            if room.phase == "waiting":
                found.append(room.listing(now))
        found.sort(key=lambda t: -float(t["created"]))
        return found

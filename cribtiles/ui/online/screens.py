"""The Online screens: where to play (host on this computer, a server's address, servers heard of on
the network), creating a table (the game, the seats, the rules, the table's options) and the code it is
given, and joining a table with a code. Every answer from a server comes through the lobby's jobs."""

from __future__ import annotations

import re
from typing import Any, Protocol

import pygame

from cribtiles.games import CREATE_FORM, GAMES
from cribtiles.online.client import check_url

from .. import art
from ..paint import CREAM, DIM, GOLD, write
from ..screens import Item, Menu, fit, screen_card
from . import form
from .create_rows import GameForm
from .form import GREEN, TONES, FormScene, Row
from .host_tools import HOST_BOT_LEVEL, Giveable, giveable, invitation_link, put_on_clipboard
from .lobby import Lobby, Outcome
from .lobby import code_words as code_words  # where the screens have always found it
from .open_tables import OpenTables
from .services import HeldSeat, SeatBook

#: How often the list of servers on the network is looked at again (seconds).
LAN_EVERY = 1.0
#: How often a new table's server is asked whether every seat is taken yet (seconds): the table opens
#: by itself once they are, and the friend's turn timer runs from then.
STATUS_EVERY = 1.0
MINUTE, HOUR, DAY = 60, 3600, 86_400
TIMERS: tuple[tuple[object, str], ...] = (
    (None, "none"),
    *((m * MINUTE, f"{m} minute{'s' if m > 1 else ''} a move") for m in (1, 2, 5, 10, 30)),
    *((d * DAY, f"{d} day{'s' if d > 1 else ''} a move") for d in (1, 2, 3, 7)),
)
ABSENT: tuple[tuple[object, str], ...] = (
    (None, "never"),
    (2 * MINUTE, "2 minutes"),
    (5 * MINUTE, "5 minutes"),
    (15 * MINUTE, "15 minutes"),
    (HOUR, "1 hour"),
    (DAY, "1 day"),
    (3 * DAY, "3 days"),
)


class Window(Protocol):
    """What the screens ask of the window."""

    def push(self, scene: Any) -> None: ...

    def close_top(self) -> None: ...


def held_at(book: SeatBook, url: str, code: str) -> HeldSeat | None:
    """The seat this player already holds at the table `code` (as typed: any case, spaces or dashes)
    on the server `url`, if any: joining it again goes back to that seat with its token."""
    try:
        url = check_url(url)
    except ValueError:
        return None
    wanted = re.sub(r"[\s-]", "", code).upper()
    return next((s for s in reversed(book.seats()) if s.server == url and s.code == wanted), None)


class OnlineScene(FormScene):
    """Where to play: a name, a server (hosted here, typed, or heard of on the network), then create or join."""

    title = "Play online"

    def __init__(self, window: Window, lobby: Lobby) -> None:
        self.window = window
        self.lobby = lobby
        book = lobby.services.book
        held = book.seats()
        name = held[-1].name if held else next(iter(lobby.services.names), "")
        host = lobby.services.host
        self.name = form.text("Your name", name, "The name the other players see at the table", 24)
        self.address = form.text(
            "Server address",
            held[-1].server if held else "",
            "ws://host:port, or wss:// for a server behind TLS; hosting here fills it in",
            120,
            "ws://host:8765",
        )
        self.nearby = form.choice("On this network", [(None, "looking…")], "Servers others host on your local network")
        self.nearby.changed = self._picked
        self.shared = form.choice(
            "Others on this network may join",
            [(False, "no: this computer only"), (True, "yes: listed on the network")],
            "Whether a game hosted here listens on your local network, and is listed there",
        )
        rows = [self.name, self.address, self.nearby, self.shared]
        if host is not None:
            note = "A server here: when you quit, you choose whether it keeps running; its tables wait for you"
            rows.append(form.action("Host a game on this computer", self.host, note, pygame.K_h))
        rows += [
            form.action("Create a table", self.create, "Choose the seats and the rules; you get a code", pygame.K_c),
            form.action("Join with a code", self.join, "A friend read you a code: take your seat", pygame.K_j),
            form.action(
                "Watch with a code", self.watch, "See a table as everyone sees it, no rack or hand", pygame.K_w
            ),
            form.action("Back", self.close, "Back to the title screen"),
        ]
        super().__init__(rows, self.close)
        self._hosting = False
        self._lan_wait = 0.0
        if lobby.services.lookout is None:
            self.nearby.choices = [(None, "not searched")]
            self.nearby.enabled = False
        if host is not None and host.url is not None:
            self._hosting = True
            self.shared.choose(host.shared)
        self.say(lobby.services.book.note, "bad")
        self.open_tables = OpenTables(lobby, self.join_open)

    def close(self) -> None:
        self.window.close_top()

    def shutdown(self) -> None:
        self.lobby.stop_looking()

    def _picked(self) -> None:
        url = self.nearby.value
        if isinstance(url, str):
            self.address.text = url

    # --- the buttons ---

    def host(self) -> None:
        host = self.lobby.services.host
        if host is None:
            return
        shared = bool(self.shared.value)
        self._hosting = False  # until it has been started afresh (a running one may stop first)
        self.say("Starting a server on this computer…", "busy")
        self.lobby.jobs.run(lambda: host.start(shared), self._host_started)

    def _host_started(self, outcome: Outcome[None]) -> None:
        if outcome.problem:
            self.say(outcome.problem, "bad")
        self._hosting = True

    def _ready(self) -> tuple[str, str] | None:
        """The name and the server's address, or None (and why, said) when one is missing or wrong."""
        name = self.name.text.strip()
        if not name:
            self.focus = self.rows.index(self.name)
            self.say("Type your name first: the other players see it at the table.", "bad")
            return None
        try:
            url = check_url(self.address.text) if self.address.text.strip() else ""
        except ValueError as e:
            self.focus = self.rows.index(self.address)
            self.say(str(e).capitalize() + ".", "bad")
            return None
        if not url:
            self.focus = self.rows.index(self.address)
            self.say("Host a game here, choose a server on this network, or type a server's address.", "bad")
            return None
        return name, url

    def create(self) -> None:
        ready = self._ready()
        if ready is not None:
            self.window.push(CreateScene(self.window, self.lobby, *ready))

    def join(self) -> None:
        ready = self._ready()
        if ready is not None:
            self.window.push(JoinScene(self.window, self.lobby, ready[1], ready[0]))

    def watch(self) -> None:
        """Watch with a code: a spectator needs no name, only the server's address (ready, or typed next)."""
        from .watch import WatchScene

        try:
            url = check_url(self.address.text) if self.address.text.strip() else ""
        except ValueError:
            url = ""
        self.window.push(WatchScene(self.window, self.lobby, url))

    # --- what changed out there ---

    def update(self, dt: float) -> None:
        self.lobby.update()
        self._lan_wait -= dt
        if self._lan_wait <= 0 and self.nearby.enabled:
            self._lan_wait = LAN_EVERY
            self._look()
        if self._hosting:
            self._host_said()
        self.open_tables.update(dt, self.address.text)

    # --- the open tables of the server named (issue 44) ---

    def extra_height(self, s: int) -> int:
        return self.open_tables.height(s)

    def draw_extra(self, surface: pygame.Surface, rect: tuple[int, int, int, int], s: int) -> None:
        self.open_tables.draw(surface, rect, s, self.mouse)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.open_tables.click(event.pos):
            return
        super().handle(event)

    def join_open(self, code: str) -> None:
        """Join the open table `code` of the server named, as Join with a code would (one click)."""
        ready = self._ready()
        if ready is None:
            return
        join = JoinScene(self.window, self.lobby, ready[1], ready[0])
        join.code.text = code
        self.window.push(join)
        join.join()

    def _look(self) -> None:
        lookout = self.lobby.look_out()
        if self.lobby.services.lookout is None:
            self.nearby.choices, self.nearby.index, self.nearby.enabled = [(None, "not searched")], 0, False
            return
        if lookout is None:
            return  # still starting: "looking…"
        found = lookout.found()
        was = self.nearby.value
        self.nearby.choices = [(None, "none heard of yet")] if not found else [(None, f"{len(found)} found: choose")]
        self.nearby.choices += [(f.url, f"{f.name} · {f.url.removeprefix('ws://')}") for f in found]
        self.nearby.index = 0
        self.nearby.choose(was)

    def _host_said(self) -> None:
        host = self.lobby.services.host
        if host is None:
            return
        if host.url is not None:
            if self.address.text != host.url and self.tone != "good":
                self.address.text = host.url
            others = f" (on your network: {host.lan_url})" if host.lan_url else ""
            self.say(f"Hosting at {host.url}{others}." + ("" if others else " Create a table next."), "good")
        elif host.problem:
            self._hosting = False
            self.say(host.problem[0].upper() + host.problem[1:] + ".", "bad")


class CreateScene(FormScene):
    """A new table at `url`: the game, you at the first seat, then a friend (an open seat), bots, or
    nobody; the game's rules; the table's options. Each game's rows are its own (`create_rows.GameForm`):
    classic cribbage has its variants, each with its seats (two; three for three players; four in
    partnerships), and its own rules."""

    title = "Create a table"
    height = 0.96

    def __init__(self, window: Window, lobby: Lobby, name: str, url: str) -> None:
        self.window, self.lobby, self.name, self.url = window, lobby, name, url
        # each game's own rows, by its name in the protocol (its `CREATE_FORM`), in the registry's order
        self.forms: dict[str, GameForm] = {kind.name: kind.part(CREATE_FORM)(self._relaid) for kind in GAMES.values()}
        choices: list[tuple[object, str]] = [(game, rows.words) for game, rows in self.forms.items()]
        self.game = form.choice("Game", choices, "Kings Cribbage with tiles, or classic cribbage with cards")
        self.game.changed = self._game_changed
        self.timer = form.choice("Turn timer", TIMERS, "How long a player has for each move")
        self.absent = form.choice(
            "Bot for an absent player after",
            ABSENT,
            "How long a player may be away before a bot moves for them",
        )
        self.public = form.choice(
            "Anyone may join",
            [(False, "no: those you give the code"), (True, "yes: listed on the server")],
            "Yes: the server lists it among its open tables, for anyone to join while a seat is open",
        )
        super().__init__(self._rows(), window.close_top)
        self.focus = self.rows.index(self.game_form.shown_seats()[0])  # the first game's first seat besides yours

    @property
    def game_form(self) -> GameForm:
        """The rows of the game chosen."""
        return self.forms[str(self.game.value)]

    def _rows(self) -> list[Row]:
        """The Game row, the rows of the game chosen (with the table's timer and absent bot where it has
        them), then the table's own."""
        return [
            self.game,
            *self.game_form.rows(self.timer, self.absent),
            self.public,
            form.action(
                "Create the table", self.create, f"At {self.url}, you ({self.name}) at the first seat", pygame.K_c
            ),
            form.action("Back", self.window.close_top, "Back to the Online screen"),
        ]

    def _relaid(self, focus: Row) -> None:
        """The rows laid out again for what was chosen, `focus` kept in focus."""
        self.rows = self._rows()
        self.focus = self.rows.index(focus)

    def _game_changed(self) -> None:
        self._relaid(self.game)
        self.say("")

    def rules_text(self) -> str:
        """The rules as `--rules` writes them, for the game chosen (ValueError in words)."""
        return self.game_form.rules_text()

    def others(self) -> list[dict[str, Any]]:
        told: list[dict[str, Any]] = []
        for row in self.game_form.shown_seats():
            kind = row.value
            if kind == "friend":
                told.append({"kind": "open"})
            elif kind != "none":
                told.append({"kind": "bot", "level": kind})
        return told

    def create(self) -> None:
        if self.tone == "busy":  # "Creating the table…": once is enough (the look-out's jobs are no reason to wait)
            return
        try:
            rules = self.rules_text()
        except ValueError as e:
            self.say(str(e), "bad")
            return
        game = str(self.game.value)
        settings: dict[str, Any] = {"rules": rules, "turn_timer": self.timer.value, "absent_bot": self.absent.value}
        if self.public.value:
            settings["public"] = True
        settings |= self.game_form.settings()
        others = self.others()
        self.say(f"Creating the table at {self.url}…", "busy")
        self.lobby.jobs.run(lambda: self.lobby.create(self.url, self.name, others, game, **settings), self._created)

    def _created(self, outcome: Outcome[HeldSeat]) -> None:
        held = outcome.value
        if held is None:
            self.say(outcome.problem, "bad")
            return
        self.lobby.services.book.add(held)
        self.say("")
        open_seats = sum(1 for seat in self.others() if seat["kind"] == "open")
        self.window.push(CodeScene(self.window, self.lobby, held, open_seats))

    def update(self, dt: float) -> None:
        self.lobby.update()


class CodeScene:
    """The new table's code, big enough to read out, the address to type, and the way to the table: the
    host sits at it here (the others see them at the table), and it opens by itself once every seat is
    taken (issue 44, defect 12)."""

    def __init__(self, window: Window, lobby: Lobby, held: HeldSeat, open_seats: int) -> None:
        self.window, self.lobby, self.held, self.open_seats = window, lobby, held, open_seats
        self.waiting = "Waiting for players" if open_seats else ""  # until the server says otherwise
        self.status, self.tone = "", ""
        self._wait, self._asking = 0.0, False
        self._sitting = False  # the table is being opened
        self._begun = False  # every seat is taken: the table opens by itself (from this screen, shown)
        self._offered: Giveable | None = None  # a seat the host may give to a bot now
        self.menu = Menu(
            [
                Item(
                    "Go to the table",
                    self.go,
                    key=pygame.K_g,
                    note="You sit here already: the table opens by itself once every seat is taken",
                ),
                *self._invite_items(),
                Item(
                    "Abort the table",
                    self.abort,
                    key=pygame.K_a,
                    note="Before its first move: it ends with no result, and leaves Your online games",
                ),
                Item(
                    "Back", self.back, key=pygame.K_b, note="The table waits; Your online games on the title finds it"
                ),
            ]
        )
        self.aborted = False

    def abort(self) -> None:
        """End the new table before its first move (the host token's power); refused in the server's words
        once a move is made."""
        if self.aborted or self.tone == "busy":
            return
        self.say("Aborting the table…", "busy")
        self.lobby.jobs.run(lambda: self.lobby.abort(self.held), self._aborted)

    def _aborted(self, outcome: Outcome[None]) -> None:
        if outcome.problem:
            self.say(outcome.problem, "bad")
            return
        self.aborted = True
        self.lobby.leave(self.held)
        self.say(f"{code_words(self.held.code)} is aborted: it ends with no result, and is off your list.", "good")

    def go(self) -> None:
        """To the table: at once when every seat is taken, else as soon as they are (the host is seated
        already; this screen keeps the code in sight meanwhile)."""
        if self.aborted:
            self.say("This table was aborted: create another, or go back.", "bad")
            return
        if self.waiting:
            self.say(f"You are at the table: it opens here as soon as it has its players ({self.waiting.lower()}).")
            return
        if self._sitting:
            return
        self._sitting = True
        self.say("Sitting down…", "busy")
        self.lobby.open(self.held, self._not_opened)

    def _not_opened(self, problem: str) -> None:
        self._sitting = self._begun = False  # tried again when the server next says the game is on
        self.say(problem, "bad")

    def say(self, words: str, tone: str = "") -> None:
        self.status, self.tone = words, tone

    def _ask(self) -> None:
        if self.aborted:
            return
        self._asking = True
        self.lobby.jobs.run(lambda: self.lobby.status(self.held), self._heard)

    def _heard(self, outcome: Outcome[dict[str, Any]]) -> None:
        self._asking = False
        table = outcome.value
        if table is None:
            return  # asked again soon; the link says when the server is gone
        if table.get("aborted") and not self.aborted:  # by a friend seated there
            self.aborted = True
            self.lobby.leave(self.held)
            self.say(f"{code_words(self.held.code)} was aborted before its first move: it is off your list.", "bad")
            return
        seats = table.get("seats") or []
        open_seats = sum(1 for s in seats if isinstance(s, dict) and s.get("kind") == "open")
        self.waiting = f"Waiting for {open_seats} player{'s' if open_seats != 1 else ''}" if open_seats else ""
        self._begun = not open_seats and table.get("phase") == "playing"
        self._offer_seat(table)

    # --- the host's tools (issue 44): the invitation link, a seat given to a bot ---

    def _invite_items(self) -> list[Item]:
        note = "Copies the table's link: in a browser it shows the table and opens Crib Tiles there"
        return [Item("Copy invitation", self.copy_invitation, key=pygame.K_i, note=note)]

    def copy_invitation(self) -> None:
        host = self.lobby.services.host
        shared = host.lan_url if host is not None and host.url == self.held.server else None
        link = invitation_link(self.held, shared)
        problem = put_on_clipboard(link)
        self.say(problem or f"Copied: {link}", "bad" if problem else "good")

    def _offer_seat(self, table: dict[str, Any]) -> None:
        """Offer the host "Give Ben's seat to a bot" while the server would allow it (else take it away)."""
        offer = giveable(table, self.held)
        items = [i for i in self.menu.items if i.action != self.give_seat]
        if offer is not None:
            note = f"The server's {HOST_BOT_LEVEL} bot sits there (during the game: until they come back)"
            items.insert(-1, Item(offer.words, self.give_seat, key=pygame.K_t, note=note))
        self._offered = offer
        if [i.label for i in items] != [i.label for i in self.menu.items]:
            self.menu.items = items
            self.menu.focus = min(self.menu.focus, len(items) - 1)

    def give_seat(self) -> None:
        offer = self._offered
        if offer is None or self.tone == "busy":
            return
        self.say(f"{offer.words}…", "busy")

        def work() -> None:
            self.lobby.seat_bot(self.held, offer.seat, HOST_BOT_LEVEL)

        self.lobby.jobs.run(work, self._seat_given)

    def _seat_given(self, outcome: Outcome[None]) -> None:
        if outcome.problem:
            self.say(outcome.problem, "bad")
        else:
            self.say("The server's bot has the seat.", "good")
        self._wait = 0.0  # the seats as they are now, at once

    def back(self) -> None:
        self.window.close_top()
        self.window.close_top()  # past the Create screen, to the Online one

    def shutdown(self) -> None:
        """The table is left unless its session shows it now: the code screen was its place (the seat
        stays this player's, in Your online games)."""
        self.lobby.let_go(self.held)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
            self.back()
            return
        self.menu.handle(event)

    def update(self, dt: float) -> None:
        self.lobby.update()
        if self._begun and not self._sitting and not self.aborted:
            self.go()  # every seat is taken: to the table, where the friend's turn timer may be running
        self._wait -= dt
        if self._wait <= 0 and not self._asking:
            self._wait = STATUS_EVERY
            self._ask()

    def server_words(self) -> str:
        """The address the others type: for a server hosted here, its address on the local network when
        it is shared, else the address on this computer (which only another window here can use)."""
        host = self.lobby.services.host
        if host is not None and host.url == self.held.server:
            if host.lan_url:
                return host.lan_url
            return f"{host.url} (this computer only: host for your network to let friends in)"
        return self.held.server

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        hint = "Enter takes · G goes to the table · Esc goes back"
        rect, s, top = screen_card(surface, "Your table is ready", hint, 0.6, 0.94)  # tall: five buttons
        x, y, w, h = rect
        cx = x + w // 2
        if self.open_seats:
            seats = "one friend" if self.open_seats == 1 else f"{self.open_seats} friends"
            said = f"Read this code out to {seats}:"
        else:
            said = "Every seat is taken; the game can begin. Its code:"
        write(surface, fit(said, s, w - 2 * s), s, CREAM, (cx, top + round(s * 0.4)), "midtop")
        code = art.engraved_text(code_words(self.held.code), round(s * 3.6), GOLD, light=False)
        code_top = top + round(s * 2.2)
        surface.blit(code, code.get_rect(midtop=(cx, code_top)))
        y2 = code_top + code.get_height() + round(s * 0.6)
        lines = [
            ("In Crib Tiles they choose Online, then Join with a code, at the server", CREAM),
            (self.server_words(), GOLD),
            ("Letters only; capitals or not, spaces or not, it is the same code.", DIM),
        ]
        for line, colour in lines:
            write(surface, fit(line, s - 1, w - 2 * s), s - 1, colour, (cx, y2), "midtop")
            y2 += round(s * 1.5)
        bh = max(28, round(s * 1.6))
        bw = max(200, round(w * 0.42))
        below = self.menu.lay_out(cx - bw // 2, y2 + round(s * 0.6), bw, bh, max(6, round(s * 0.4)))
        self.menu.draw(surface, s)
        said, tone = self.status, TONES.get(self.tone, CREAM)
        if not said:
            begun = ("Every seat is taken: the game has begun.", GREEN)
            said, tone = (self.waiting + "…", DIM) if self.waiting else begun
        write(surface, fit(said, s - 1, w - 3 * s), s - 1, tone, (cx, below + round(s * 0.4)), "midtop")
        note = self.menu.note()
        if note:
            write(surface, fit(note, s - 2, w - 3 * s), s - 2, DIM, (cx, y + h - round(s * 1.0)), "midbottom")
        return None


class JoinScene(FormScene):
    """Taking a seat with a code a friend read out (or going back to the seat held there already)."""

    title = "Join a table"
    height = 0.7

    def __init__(self, window: Window, lobby: Lobby, url: str, name: str) -> None:
        self.window, self.lobby = window, lobby
        self.address = form.text("Server address", url, "Where the table is: the address your friend gave", 120)
        self.code = form.text("Code", "", "Six letters; capitals or not, spaces or not", 12, "ABC DEF")
        self.code.changed = self._capitals
        self.name = form.text("Your name", name, "The name the other players see", 24)
        rows = [
            self.address,
            self.code,
            self.name,
            form.action("Join", self.join, "Take the open seat, the one kept for your name, or yours there already"),
            form.action("Back", window.close_top, "Back to the Online screen"),
        ]
        super().__init__(rows, window.close_top)
        self.focus = 1
        self.submit = self.join

    def _capitals(self) -> None:
        self.code.text = self.code.text.upper()  # read out in capitals, shown as read
        if self.tone == "bad":  # what was refused is being put right
            self.say("")

    def join(self) -> None:
        if self.tone == "busy":  # "Joining…": once is enough (the look-out's jobs are no reason to wait)
            return
        code, name, address = self.code.text.strip(), self.name.text.strip(), self.address.text.strip()
        missing = next(
            (row for row, v in ((self.address, address), (self.code, code), (self.name, name)) if not v), None
        )
        if missing is not None:
            self.focus = self.rows.index(missing)
            self.say(f"Type {'your name' if missing is self.name else 'the ' + missing.label.lower()} first.", "bad")
            return
        held = held_at(self.lobby.services.book, address, code)
        if held is not None:  # its token is kept: a second join would find the seat taken
            self.say(f"Going back to your seat at {code_words(held.code)}…", "busy")
            self.lobby.open(held, lambda problem: self.say(problem, "bad"))
            return
        self.say(f"Joining {code.upper()} at {address}…", "busy")
        self.lobby.jobs.run(lambda: self.lobby.join(address, code, name), self._joined)

    def _joined(self, outcome: Outcome[HeldSeat]) -> None:
        held = outcome.value
        if held is None:
            self.say(outcome.problem, "bad")
            return
        self.lobby.services.book.add(held)
        self.say(f"You sit at {code_words(held.code)}; the table is on its way…", "good")
        self.lobby.open(held, lambda problem: self.say(problem, "bad"))

    def update(self, dt: float) -> None:
        self.lobby.update()

"""Online play beside whichever screen the window shows: the lobby's links and jobs, presence (only the
table on screen is "here"), tables handed to this window, the tables' standings and their news told
(a turn that came, a move's time nearly out), and the title's words about them.
"""

from __future__ import annotations

import contextlib
import logging
import time
import warnings
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

import pygame

from cribtiles.games import REMOTE, game_named
from cribtiles.table.again import NextTable
from cribtiles.table.session import GameSession

from ..chat import MemoryMutes, Mutes
from ..config import Keeper
from ..home_game import HomeSession, OwnGame
from ..scene import Scene
from ..screens import Item
from ..sound import Sounds

if TYPE_CHECKING:  # online play's modules are imported once it is used
    from cribtiles.online.client import Link

    from .lobby import Lobby
    from .services import HeldSeat, OnlineServices
    from .standings import News

#: Seconds between looks for a table handed to this window by a second program (an invitation clicked).
HANDED_EVERY = 0.5
log = logging.getLogger("cribtiles.window")


def raise_window() -> None:
    """Bring the window to the front with the keyboard's focus (a table handed to it from an invitation
    clicked elsewhere); nothing where the window manager will not, or there is no window."""
    with contextlib.suppress(AttributeError, pygame.error), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        window = pygame.Window.from_display_module()
        window.restore()
        window.focus()


class Window(Protocol):
    """What online play asks of the window: its screens, its own game, and its keeper and sounds."""

    scenes: list[Scene]
    session: HomeSession
    own: OwnGame
    online: OnlineServices | None  # what online play needs, as the app gave it (None: none)
    keeper: Keeper
    sounds: Sounds
    flasher: Callable[[], None]

    def push(self, scene: Any) -> None: ...

    def close_top(self) -> None: ...

    def open_title(self, first_start: bool = False, greeting: str = "") -> None: ...

    def take_online_seat(self, session: Any, game: str = "tiles") -> None: ...


def shown_session(top: Scene | None) -> Any:
    """The session of the table `top` shows (an end card's too: the table's under it), or None."""
    session = getattr(top, "session", None)
    return session if callable(getattr(session, "here", None)) else None


class OnlineSide:
    """Online play's part of the window, once the app gave the window its services (`online`)."""

    def __init__(self, window: Window) -> None:
        self.window = window
        self._lobby: Lobby | None = None
        self._memory_mutes = MemoryMutes()
        self.here: Any = None  # the session of the online table on screen (a person is "here" only there)
        self._started = False  # the lobby made at the first frame when seats are held online
        self._handed_at = 0.0  # when the data folder was last looked at for a table handed to this window
        self._moving: set[tuple[str, int]] = set()  # the seats at tables played again, being opened

    @property
    def services(self) -> OnlineServices | None:
        """What online play needs, as the app gave it to the window (None: the title offers none)."""
        return self.window.online

    @property
    def lobby(self) -> Lobby:
        """Online play's links and jobs, made on first use (the services must have been given)."""
        if self._lobby is None:
            from .lobby import Lobby

            assert self.services is not None
            self._lobby = Lobby(self.services, self.remote_session, self.window.take_online_seat)
        return self._lobby

    @property
    def chat_mutes(self) -> Mutes:
        """Whose lines this window hides at each online table: kept in the data folder when the app gave
        a place for them, else for as long as the window runs."""
        mutes = self.services.mutes if self.services is not None else None
        return mutes if mutes is not None else self._memory_mutes

    def items(self) -> list[Item]:
        """Online play's items on the title, when the app gave the window its services."""
        if self.services is None:
            return []
        return [
            Item("Online", self.open_online, key=pygame.K_o, note="Play friends over the network: host, create, join"),
            Item(
                "Your online games",
                self.open_online_games,
                key=pygame.K_y,
                note="Every table you sit at: whose turn it is, and back to your seat",
            ),
        ]

    def open_online(self) -> None:
        from .screens import OnlineScene

        self.window.push(OnlineScene(self.window, self.lobby))

    def open_online_games(self) -> None:
        from .games_list import GamesScene

        self.window.push(GamesScene(self.window, self.lobby))

    def open_table(self, server: str, code: str, name: str | None = None) -> None:
        """Straight to the table `code` at `server`, seated: the Online screen's Join with a code, filled
        in and pressed (what goes wrong is said on that screen, which stays open)."""
        from .screens import JoinScene, OnlineScene

        online = OnlineScene(self.window, self.lobby)
        online.address.text = server
        if name:
            online.name.text = name
        self.window.push(online)
        join = JoinScene(self.window, self.lobby, server, online.name.text)
        join.code.text = code.upper()
        self.window.push(join)
        join.join()

    def remote_session(
        self, link: Link, code: str, seat: int | None, game: str = "tiles"
    ) -> GameSession[object, Any, object, object]:
        """The session of `seat` (None: a spectator's) at the table `code` of `game`, through `link`
        (which holds the seat); made in a job, as it waits for the table's state."""
        book = self.services.book if self.services is not None else None
        forget = None if book is None else (lambda: book.remove(link.url, code))
        remote = game_named(game).part(REMOTE)  # its module only once a table online is opened
        session: GameSession[object, Any, object, object] = remote(
            link, code, seat, keeper=self.window.keeper, forget=forget
        )
        return session

    def open_next(self, table: NextTable) -> None:
        """Everyone agreed to play a finished table online again: this player's seat there is kept in
        place of the old one on their list (its name, game and host token carried over) and opened; why
        it could not be, said on the title screen."""
        from .services import HeldSeat

        if (table.code, table.seat) in self._moving or self.services is None:
            return
        self._moving.add((table.code, table.seat))
        book = self.services.book
        old = next((s for s in book.seats() if s.key == (table.server, table.left)), None)
        held = HeldSeat(
            table.server,
            table.code,
            table.seat,
            table.name if old is None else old.name,
            table.game,
            table.token,
            "" if old is None else old.host_token,
        )
        book.remove(table.server, table.left)
        book.add(held)

        def not_opened(problem: str) -> None:
            self._moving.discard((table.code, table.seat))
            self.window.open_title(greeting=f"The new table {table.code} could not be opened: {problem}")

        self.lobby.open(held, not_opened)

    # --- each frame ---

    def frame(self) -> None:
        """A frame of online play beside the screen shown: presence, the jobs, the tables' standings,
        and what is news of them (a turn that came, a move's time nearly out). The title's words catch up
        once, after the top screen's update (`after_update`)."""
        if not self._started and self.services is not None:
            self._started = True
            if self.services.book.seats():  # the tables sat at are watched from the start
                _ = self.lobby
        self._take_handed()
        if self._lobby is not None:
            self._lobby.update()  # a table opened in a job is taken now: it is on screen below
        scenes = self.window.scenes
        session = shown_session(scenes[-1] if scenes else None)
        self._presence(session)
        if self._lobby is None:
            return
        held = self.held_at(session.where if session is not None else None)
        yours = held is not None and session is not None and session.to_move in session.mine
        self._lobby.standings.live(held, yours)
        for news in self._lobby.standings.news():
            self._alert(news)

    def after_update(self) -> None:
        """After the top screen's update: a table online opened from a table (played again) is taken, and
        the title's words catch up with the tables' standings, which that update may have changed (as the
        window's caption does after it: the two never disagree on a frame)."""
        if self._lobby is not None:
            self._lobby.update()
            self.refresh_title()

    def _presence(self, session: Any) -> None:
        """Only the table on screen is "here": the one the window showed before is left as the screen
        changes, and come back to when it is shown again (issue 44, defect 5)."""
        if session is self.here:
            return
        if self.here is not None:
            self.here.here(False)
        if session is not None:
            session.here(True)
        self.here = session

    def _take_handed(self) -> None:
        """Twice a second: a table handed to this window by an invitation clicked while it was open (the
        second program gives it here rather than refuse): the window comes to the front, seated there."""
        if self.services is None or self.services.handed is None:
            return
        now = time.monotonic()
        if now - self._handed_at < HANDED_EVERY:
            return
        self._handed_at = now
        table, problem = self.services.handed()
        if problem:
            log.warning("%s", problem)
            self.tell(problem)
        if table is not None:
            log.info("a table was handed to this window: %s", table[1])
            raise_window()
            self.open_table(*table)

    def held_at(self, where: tuple[str, str] | None) -> HeldSeat | None:
        """The seat this player holds at the online table `where` (None: none, or a table of this window)."""
        if where is None or self.services is None:
            return None
        return next((h for h in self.services.book.seats() if h.key == where), None)

    def _alert(self, news: News) -> None:
        """A turn that came, or a move's time nearly out, at any table: the task bar flashes, a chime (the
        sound setting allowing), and the screen shown says where."""
        from cribtiles.online.presence import clock_words

        from .screens import code_words
        from .standings import Kind

        self.window.flasher()
        self.window.sounds.chime()
        here = self.held_at(self.here.where if self.here is not None else None)
        at = "" if here is not None and here.key == news.held.key else f" at {code_words(news.held.code)}"
        if news.kind is Kind.TURN:
            listed = getattr(self.window.scenes[-1], "lists_tables", False)  # Your online games shows it already
            if at:
                self.tell(f"Your turn{at}." if listed else f"Your turn{at}: Your online games takes you there.")
        else:
            left = clock_words(news.left).removesuffix(" left")
            self.tell(f"Your move{at}: {left} left before it is made for you.")

    def tell(self, text: str) -> None:
        """A word to the player on the screen shown, whichever it is (one without a place for it: the
        caption and the chime said it)."""
        tell = getattr(self.window.scenes[-1], "tell", None)
        if callable(tell):
            tell(text)

    # --- the words about the tables ---

    def your_turns(self) -> int:
        """How many online tables wait for this player's move."""
        return self._lobby.standings.yours() if self._lobby is not None else 0

    def away_from_home(self) -> bool:
        """The window's own table is online and not on screen (its session hears nothing then)."""
        return (
            self._lobby is not None and self.window.session.where is not None and self.here is not self.window.session
        )

    def table_scores(self) -> str:
        """The scores at the table the window holds: as its server last told them when the table is not
        on screen (its session hears nothing then), else as the table shows them."""
        window = self.window
        where = window.session.where
        if where is not None and self.here is not window.session and self._lobby is not None:
            held = self.held_at(where)
            heard = self._lobby.standings.heard.get(where)
            if held is not None and heard is not None and heard.table is not None:
                from cribtiles.online.standing import table_scores

                told = table_scores(held.seat, heard.table)
                if told:
                    return told
        return window.own.scores(window.session.state)

    def refresh_title(self) -> None:
        """The title's words that go stale: the scores of the game at the table, and the tables that wait
        for this player (issue 44, defect 8)."""
        from ..title import TitleScene

        title = next((s for s in self.window.scenes if isinstance(s, TitleScene)), None)
        if title is None:
            return
        waiting = self.your_turns()
        for i, item in enumerate(title.menu.items):
            if item.label == "Continue":
                note = f"The game at the table: {self.table_scores()}"
            elif item.label.startswith("Your online games"):
                note = item.note
                label = "Your online games" + (f" ({waiting} your turn)" if waiting else "")
                if label != item.label:
                    title.menu.items[i] = replace(item, label=label)
                continue
            else:
                continue
            if note != item.note:
                title.menu.items[i] = replace(item, note=note)

    def close(self) -> None:
        """Its links, and a server hosted here, stop with the window (one an earlier window left running
        too, unless the player chose to keep it running)."""
        if self._lobby is not None:
            self._lobby.close()
        elif self.services is not None and self.services.host is not None:
            self.services.host.stop()

"""Take the screenshots of online play, headless, against real servers on the loopback address:
`python docs/screenshots/take_online.py [FOLDER]` (or `take.py online [FOLDER]`) writes
online-hosting.png and online-host.png (a server hosted by this computer: the Online screen, then a
new table's code), online-join.png (joining with a code), online-away.png (a table where the other
player is away), online-games.png (Your online games), online-chat.png (a line heard, one typed),
online-chat-history.png (a table opened again: its chat kept, a player muted), online-watch.png (a
table watched: no rack), online-open-tables.png (the Online screen listing a server's open tables),
online-invitation.png with online-invitation.txt (the code screen after Copy invitation, and what another
program read from the X clipboard then), online-invitation-page.png (that link in headless Chromium)
and online-your-turn.png (a turn at a table not on screen: the window's caption in a real X window's
title bar). The invitation and your-turn shots need Xvfb (with xclip and chromium, or twm and
ImageMagick): without them they are skipped, and said so.

The away and games shots use a server in this process whose clock the script moves on (as the days
pass for a table that waits), so that "away 14 min" and "2 days ago" are the server's own words."""

from __future__ import annotations

import asyncio
import os
import random
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
SIZE = (1280, 800)
PATIENCE = 30.0  # seconds any one wait may take


class Clock:
    """The in-process server's clock: the real one, moved on by `later`."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def later(self, seconds: float) -> None:
        self.offset += seconds


@contextmanager
def server_here(clock: Clock) -> Iterator[tuple[str, Any]]:
    """A server in a thread of this process on a free loopback port: its address and its hall."""
    from cribtiles.server.front import Hall, run_server
    from cribtiles.server.store import MemoryStore

    loop = asyncio.new_event_loop()
    ready = threading.Event()
    told: list[Any] = []

    async def main() -> None:
        hall = Hall(MemoryStore(), clock=clock)
        stop = loop.create_future()
        told.extend([hall, stop])
        await run_server(hall, "127.0.0.1", 0, lambda url: (told.append(url), ready.set()), stop)

    thread = threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True)
    thread.start()
    assert ready.wait(PATIENCE), "the server did not start"
    hall, stop, url = told
    try:
        yield url, hall
    finally:
        loop.call_soon_threadsafe(lambda: stop.done() or stop.set_result(None))
        thread.join(PATIENCE)


def save_screen(app: Any, out: Path) -> None:
    import pygame

    pygame.image.save(app.screen, str(out))
    small(out)
    print(f"wrote {out}")


def small(png: Path) -> None:
    """`png` in 128 colours (PNG8: a third of the size), when ImageMagick's convert is installed."""
    import shutil
    import subprocess

    if shutil.which("convert"):
        subprocess.run(["convert", str(png), "-colors", "128", f"PNG8:{png}"], check=True)


def until(app: Any, check: Callable[[], bool], what: str) -> None:
    end = time.monotonic() + PATIENCE
    while not check():
        assert time.monotonic() < end, f"{what}: not within {PATIENCE:.0f} s"
        app.frame(1 / 60)
        time.sleep(0.01)


def frames(app: Any, n: int = 8) -> None:
    for _ in range(n):
        app.frame(1 / 60)


def a_free_port(wanted: int = 8765) -> int:
    """`wanted` if nothing listens there on the loopback address (the screenshot reads as docs/online.md), else 0."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds: past TIME_WAIT
        try:
            probe.bind(("127.0.0.1", wanted))
        except OSError:
            return 0
    return wanted


class Seated:
    """A person at a table over a link of their own: joins, keeps the newest state, plays like Medium."""

    def __init__(self, url: str, code: str, name: str) -> None:
        from cribtiles.online.client import Link

        self.link = Link(url)
        assert self.link.wait_connected(PATIENCE), self.link.problem
        self.code, self.name = code, name
        answer = self.link.request("join", PATIENCE, code=code, name=name)
        self.seat, self.token = int(answer["seat"]), str(answer["token"])
        self.link.sit(code, self.token)
        self.state: dict[str, Any] = {}

    def newest(self) -> dict[str, Any]:
        for message in self.link.messages():
            mine = message["type"] == "state" and message["code"] == self.code
            if mine and (not self.state or message["state"]["ply"] >= self.state["ply"]):
                self.state = message["state"]
        return self.state

    def wait_turn(self) -> dict[str, Any]:
        end = time.monotonic() + PATIENCE
        while not (self.newest() and self.state.get("to_move") == self.seat):
            assert time.monotonic() < end, f"{self.name}'s turn never came"
            time.sleep(0.05)
        return self.state

    def move(self, rng: random.Random) -> None:
        from cribtiles.online.tiles_seat import tile_move

        state = self.wait_turn()
        move = tile_move(state, "medium", rng)
        answer = self.link.request("act", PATIENCE, code=self.code, ply=state["ply"], move=move)
        self.state = answer["state"]

    def held(self, url: str) -> Any:
        from cribtiles.ui.online.services import HeldSeat

        return HeldSeat(url, self.code, self.seat, self.name, "tiles", self.token)

    def close(self) -> None:
        self.link.close()


def new_table(url: str, seats: list[dict[str, Any]], seed: int) -> str:
    """A table of `seats`; `seed` deals it where the server takes one (one person's seat, the rest bots:
    else the creator would know the others' bags, and the server draws the seed)."""
    from cribtiles.online.client import Link

    link = Link(url)
    try:
        assert link.wait_connected(PATIENCE), link.problem
        dealt = {"seed": seed} if sum(s["kind"] != "bot" for s in seats) == 1 else {}
        code: str = link.request("create", PATIENCE, game="tiles", seats=seats, **dealt)["code"]
        return code
    finally:
        link.close()


def turns_until(a: Seated, b: Seated, least: int, to_move: Seated, rng: random.Random) -> None:
    """`a` and `b` take turns, whoever's it is, until at least `least` are played and it is `to_move`'s."""
    end = time.monotonic() + PATIENCE
    while a.newest().get("to_move") is None:
        assert time.monotonic() < end, "the game did not begin"
        time.sleep(0.05)
    state = a.state
    for played in range(least + 2):
        mover = a if state.get("to_move") == a.seat else b
        if played >= least and mover is to_move:
            return
        mover.move(rng)
        state = mover.state


def an_app(folder: Path, host: Any = None) -> Any:
    """A window (headless) with online play's services kept in `folder`, on the title screen."""
    from cribtiles.app.online_games import OnlineGames
    from cribtiles.app.storage import Store
    from cribtiles.online.lan import Browser
    from cribtiles.table import Seat
    from cribtiles.table.settings import Preferences
    from cribtiles.table.tiles.table import Table
    from cribtiles.ui.online.services import OnlineServices
    from cribtiles.ui.window import App

    folder.mkdir(parents=True, exist_ok=True)
    table = Table.new((Seat.person("You"), Seat.bot("medium")), seed=5)
    app = App(table, Preferences(speed="instant", tutorial_offered=True), Store(folder), size=SIZE, title=True)
    app.online = OnlineServices(OnlineGames(folder), host, Browser)
    frames(app, 2)
    return app


def online(folder: Path = HERE) -> None:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    import pygame

    from cribtiles.app.hosting import HostedServer
    from cribtiles.ui.online.screens import CodeScene, CreateScene, JoinScene, OnlineScene
    from cribtiles.ui.tiles.autopilot import post_key
    from cribtiles.ui.tiles.game_scene import GameScene

    def save(app: Any, name: str) -> None:
        pygame.image.save(app.screen, str(folder / name))
        print(f"wrote {folder / name}")

    with tempfile.TemporaryDirectory() as tmp:
        here = Path(tmp)
        # hosting: Ann's computer runs `cribtiles serve` for her network, and she creates a table there
        host = HostedServer(here / "ann" / "server", port=a_free_port())
        app = an_app(here / "ann", host)
        try:
            app.online_side.open_online()
            scene = app.scenes[-1]
            assert isinstance(scene, OnlineScene)
            scene.name.text = "Ann"
            scene.shared.choose(True)
            scene.focus = scene.rows.index(scene.shared)
            scene.host()
            until(app, lambda: scene.tone == "good", f"hosting ({scene.status})")
            frames(app)
            save(app, "online-hosting.png")
            scene.create()
            create = app.scenes[-1]
            assert isinstance(create, CreateScene)
            create.seats[0].choose("friend")
            create.create()
            until(app, lambda: isinstance(app.scenes[-1], CodeScene), f"the table ({create.status})")
            code_scene = app.scenes[-1]
            until(app, lambda: code_scene.waiting == "Waiting for 1 player", "the table's seats")
            frames(app)
            save(app, "online-host.png")
            code = code_scene.held.code
            url = host.lan_url or code_scene.held.server  # what Ben, at another computer, types
            # joining: Ben, at another computer, types the address and the code Ann read out
            ben = an_app(here / "ben")
            try:
                ben.online_side.open_online()
                online_scene = ben.scenes[-1]
                online_scene.name.text = "Ben"
                online_scene.address.text = url
                online_scene.join()
                join = ben.scenes[-1]
                assert isinstance(join, JoinScene)
                join.code.text = f"{code[:3]} {code[3:]}"
                join.focus = len(join.rows) - 2  # Join
                frames(ben)
                save(ben, "online-join.png")
                post_key(pygame.K_RETURN)
                until(ben, lambda: isinstance(ben.scenes[-1], GameScene), f"Ben at the table ({join.status})")
            finally:
                ben.close()
        finally:
            app.close()

        clock = Clock()
        rng = random.Random(3)
        with server_here(clock) as (url, hall):
            # the other tables Ann sits at: against a bot (her turn, for two days now), one waiting for a friend
            vs_bot = new_table(url, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "hard"}], 5)
            bot_seat = Seated(url, vs_bot, "Ann")
            bot_seat.wait_turn()
            bot_seat.close()
            clock.later(2 * 86_400)
            waiting = new_table(url, [{"kind": "person", "name": "Ann"}, {"kind": "open"}], 6)
            waiting_seat = Seated(url, waiting, "Ann")
            waiting_seat.close()
            clock.later(3 * 3600)
            # a table where Ben is away, and it is his turn: they played four turns, then he left
            names = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}]
            code = new_table(url, names, 0)
            ann, ben_seat = Seated(url, code, "Ann"), Seated(url, code, "Ben")
            turns_until(ann, ben_seat, 4, ben_seat, rng)
            ben_seat.close()
            end = time.monotonic() + PATIENCE
            while hall.rooms[code].present.get(ben_seat.seat) and time.monotonic() < end:
                time.sleep(0.05)  # the server has seen him go (his time away counts from then)
            clock.later(14 * 60)  # Ben has been gone a quarter of an hour
            away = ann.held(url)
            ann.close()

            app = an_app(here / "ann-later")
            try:
                book = app.online.book
                for held in (bot_seat.held(url), waiting_seat.held(url), away):  # the newest is listed first
                    book.add(held)
                app.online_side.open_online_games()
                games = app.scenes[-1]
                until(app, lambda: all(games.cells(i)[0][3] != "asking…" for i in range(3)), "the tables' servers")
                frames(app)
                save(app, "online-games.png")
                app.open_online_table(url, away.code, "Ann")  # back to the seat held, with its token
                until(app, lambda: isinstance(app.scenes[-1], GameScene), "Ann back at the table")
                frames(app, 30)
                save(app, "online-away.png")
            finally:
                app.close()

            # chat: Ben says a line to the table, and Ann answers with C, a line typed, Enter, then starts another
            code = new_table(url, names, 0)
            ann, ben_seat = Seated(url, code, "Ann"), Seated(url, code, "Ben")
            turns_until(ann, ben_seat, 5, ann, rng)
            chatting = ann.held(url)
            ann.close()
            app = an_app(here / "ann-chat")
            try:
                app.online.book.add(chatting)
                app.open_online_table(url, chatting.code, "Ann")
                until(app, lambda: isinstance(app.scenes[-1], GameScene), "Ann at the table")
                frames(app, 30)
                ben_seat.link.request("chat", PATIENCE, code=code, text="Good one! Your turn, Ann")
                game = app.scenes[-1]
                until(app, lambda: any(t.startswith("Ben: ") for t in game.snapshot().toasts), "Ben's line")

                def typed(text: str) -> None:
                    post_key(pygame.K_c)
                    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
                    frames(app, 2)

                typed("Thanks! Give me a minute")
                post_key(pygame.K_RETURN)
                until(app, lambda: any(t.startswith("Ann: ") for t in game.snapshot().toasts), "Ann's line")
                typed("I think I have a fifteen")
                frames(app, 31)  # the caret shown
                save(app, "online-chat.png")
            finally:
                app.close()
                ben_seat.close()


def chat_and_watch(folder: Path = HERE) -> None:
    """online-chat-history.png: Ann opens a table again, days after; its chat is kept with it, C shows it,
    and she has muted a spectator. online-watch.png: Cy watches Ann's and Ben's table, with no rack."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    import pygame

    from cribtiles.online.client import Link
    from cribtiles.ui.tiles.autopilot import post_key
    from cribtiles.ui.tiles.game_scene import GameScene

    def save(app: Any, name: str) -> None:
        pygame.image.save(app.screen, str(folder / name))
        print(f"wrote {folder / name}")

    clock = Clock()
    rng = random.Random(5)
    with tempfile.TemporaryDirectory() as tmp, server_here(clock) as (url, _hall):
        here = Path(tmp)
        names = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}]
        code = new_table(url, names, 0)
        ann, ben = Seated(url, code, "Ann"), Seated(url, code, "Ben")
        watcher = Link(url)
        try:
            assert watcher.wait_connected(PATIENCE)
            watcher.request("watch", PATIENCE, code=code)
            turns_until(ann, ben, 3, ben, rng)
            said = [
                (ben, "Evening! Ready for a rematch after last week?"),
                (ann, "Always. Go easy on the fifteens this time"),
                (watcher, "Watching from the office: nice opening, Ann"),
                (ben, "No promises. That run of four was lucky"),
                (watcher, "Are you going to play that seven or not"),
            ]
            for who, text in said:
                link = who if isinstance(who, Link) else who.link
                link.request("chat", PATIENCE, code=code, text=text)
                clock.later(40)
            turns_until(ann, ben, 5, ann, rng)
            held = ann.held(url)
            ann.close()
            clock.later(2 * 86_400)

            app = an_app(here / "ann")
            try:
                app.online.book.add(held)
                app.chat_mutes.set_muted((url, code), "a spectator", True)
                app.open_online_table(url, code, "Ann")
                until(app, lambda: isinstance(app.scenes[-1], GameScene), "Ann back at the table")
                frames(app, 30)
                post_key(pygame.K_c)
                frames(app, 31)
                save(app, "online-chat-history.png")
            finally:
                app.close()

            cy = an_app(here / "cy")
            try:
                cy.lobby.watch(url, code, lambda problem: print(problem))
                until(cy, lambda: isinstance(cy.scenes[-1], GameScene), "Cy watching")
                frames(cy, 60)
                save(cy, "online-watch.png")
            finally:
                cy.close()
        finally:
            watcher.close()
            ben.close()


def open_tables(folder: Path = HERE) -> None:
    """online-open-tables.png: the Online screen listing a server's open tables, three made public three
    ways (`cribtiles online new --public`, the Create screen's "Anyone may join", the protocol's `create`
    with `public`) beside a private table it does not list; then one click on a row seats Ann there."""
    import subprocess

    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    import pygame

    from cribtiles.online.client import Link
    from cribtiles.ui.online.screens import CodeScene, CreateScene, OnlineScene

    with tempfile.TemporaryDirectory() as tmp, server_here(Clock()) as (url, _hall):
        here = Path(tmp)
        # Ben, from a shell: a Kings Cribbage table with the Joker rule, an open seat and the server's Hard bot
        command = [sys.executable, "-m", "cribtiles", "online", "new", url, "--players", "Ben,?,hard"]
        command += ["--rules", "joker=on", "--public", "--data-dir", str(here / "ben")]
        env = dict(os.environ, PYTHONPATH=str(HERE.parents[1]))
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=PATIENCE, check=False)
        assert done.returncode == 0, done.stderr
        # a table of friends only, not public: never listed
        new_table(url, [{"kind": "person", "name": "Eve"}, {"kind": "open"}], 0)
        # Cy, in the window: classic cribbage, "Anyone may join"
        cy = an_app(here / "cy")
        try:
            cy.online_side.open_online()
            scene = cy.scenes[-1]
            assert isinstance(scene, OnlineScene)
            scene.name.text, scene.address.text = "Cy", url
            scene.create()
            create = cy.scenes[-1]
            assert isinstance(create, CreateScene)
            create.game.choose("cribbage")
            create._game_changed()
            create.crib_seat.choose("friend")
            create.public.choose(True)
            create.create()
            until(cy, lambda: isinstance(cy.scenes[-1], CodeScene), f"Cy's table ({create.status})")
        finally:
            cy.close()
        # Dee, over the protocol: three-player cribbage with two seats open
        link = Link(url)
        try:
            assert link.wait_connected(PATIENCE), link.problem
            seats = [{"kind": "person", "name": "Dee"}, {"kind": "open"}, {"kind": "open"}]
            rules = "muggins=on,play_muggins=off,target=121,variant=three-player"
            link.request("create", PATIENCE, game="cribbage", seats=seats, sit=0, rules=rules, public=True)
        finally:
            link.close()
        listed = subprocess.run(
            [sys.executable, "-m", "cribtiles", "online", "open", url],
            env=env,
            capture_output=True,
            text=True,
            timeout=PATIENCE,
            check=True,
        )
        print(listed.stdout, end="")

        app = an_app(here / "ann")
        try:
            app.online_side.open_online()
            scene = app.scenes[-1]
            assert isinstance(scene, OnlineScene)
            scene.name.text, scene.address.text = "Ann", url
            until(app, lambda: len(scene.open_tables.tables) == 3, "the open tables")
            frames(app)
            _code, row = scene.open_tables.rows[1]  # Cy's table, under the pointer
            centre = (row[0] + row[2] // 2, row[1] + row[3] // 2)
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=centre, rel=(0, 0), buttons=(0, 0, 0)))
            frames(app)
            save_screen(app, folder / "online-open-tables.png")
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=centre, button=1))
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=centre, button=1))
            until(app, lambda: app.online.book.seats() != [], "Ann seated by one click")
            print(f"one click: Ann sits at {[(h.code, h.seat) for h in app.online.book.seats()]}")
        finally:
            app.close()


#: The browser window the invitation page is shot in (a phone's page would be narrower: the page flows).
PAGE_SIZE = (900, 800)


def invitation(folder: Path = HERE) -> None:
    """online-invitation.png, online-invitation.txt and online-invitation-page.png: in a real X display
    (Xvfb), Ann hosts a game shared with her network, creates a table and presses Copy invitation; what
    went to the X clipboard is read back by xclip (the .txt), and the link read there is opened in the
    distribution's Chromium, headless (the page). Skipped, said so, without Xvfb, xclip or chromium."""
    import shutil
    import subprocess

    tools = ("Xvfb", "xclip", "chromium")
    if not all(shutil.which(t) for t in tools):
        print(f"online-invitation.png not taken: it needs {', '.join(tools)}")
        return
    display = next(f":{n}" for n in range(150, 200) if not Path(f"/tmp/.X11-unix/X{n}").exists())
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "1300x860x24", "-nolisten", "tcp"])
    env = dict(os.environ, DISPLAY=display, SDL_AUDIODRIVER="dummy")
    env.pop("SDL_VIDEODRIVER", None)
    try:
        end = time.monotonic() + PATIENCE
        while not Path(f"/tmp/.X11-unix/X{display[1:]}").exists():
            assert time.monotonic() < end, "Xvfb did not start"
            time.sleep(0.1)
        done = subprocess.run([sys.executable, __file__, "--invitation-window", str(folder)], env=env, timeout=180)
        assert done.returncode == 0, "the window for online-invitation.png failed"
    finally:
        xvfb.terminate()


def invitation_window(folder: Path) -> None:
    """In the X display the caller started: the window hosts, creates a table, copies its invitation; the
    clipboard read by another program, the screen saved, and the link opened in Chromium."""
    import subprocess

    import pygame

    from cribtiles.app.hosting import HostedServer
    from cribtiles.ui.online.screens import CodeScene, CreateScene, OnlineScene
    from cribtiles.ui.tiles.autopilot import post_key

    subprocess.run(["xdotool", "mousemove", "1290", "850"], check=False)  # the pointer off the window's buttons
    with tempfile.TemporaryDirectory() as tmp:
        here = Path(tmp)
        host = HostedServer(here / "ann" / "server", port=a_free_port())
        app = an_app(here / "ann", host)
        try:
            app.online_side.open_online()
            scene = app.scenes[-1]
            assert isinstance(scene, OnlineScene)
            scene.name.text = "Ann"
            scene.shared.choose(True)
            scene.host()
            until(app, lambda: scene.tone == "good", f"hosting ({scene.status})")
            scene.create()
            create = app.scenes[-1]
            assert isinstance(create, CreateScene)
            create.seats[0].choose("friend")
            create.seats[1].choose("hard")
            create.create()
            until(app, lambda: isinstance(app.scenes[-1], CodeScene), f"the table ({create.status})")
            code_scene = app.scenes[-1]
            until(app, lambda: code_scene.waiting == "Waiting for 1 player", "the table's seats")
            code_scene.menu.focus = [i.label for i in code_scene.menu.items].index("Copy invitation")
            post_key(pygame.K_i)
            until(app, lambda: code_scene.status.startswith("Copied: "), f"the invitation ({code_scene.status})")
            shown = code_scene.status.removeprefix("Copied: ")
            # another program asks the X server for the clipboard; the window answers it from its event loop
            reader = subprocess.Popen(["xclip", "-o", "-selection", "clipboard"], stdout=subprocess.PIPE, text=True)
            until(app, lambda: reader.poll() is not None, "xclip's answer")
            copied = reader.communicate()[0]
            assert copied == shown, f"the clipboard holds {copied!r}, the screen says {shown!r}"
            frames(app)
            save_screen(app, folder / "online-invitation.png")
            words = f"xclip -o -selection clipboard, after Copy invitation:\n{copied}\n"
            (folder / "online-invitation.txt").write_text(words, encoding="utf-8")
            print(f"wrote {folder / 'online-invitation.txt'}: {copied}")
            page(copied, folder / "online-invitation-page.png", here / "chromium")
        finally:
            app.close()


def page(url: str, out: Path, profile: Path) -> None:
    """`url` in the distribution's Chromium, headless, shot at `PAGE_SIZE` (as tests/server/test_invitation_browser.py
    does)."""
    import shutil
    import subprocess

    command = [shutil.which("chromium") or "chromium", "--headless", "--disable-gpu", "--no-first-run"]
    command += ["--no-default-browser-check", f"--user-data-dir={profile}", "--hide-scrollbars"]
    command += [f"--window-size={PAGE_SIZE[0]},{PAGE_SIZE[1]}", f"--screenshot={out}"]
    if os.geteuid() == 0:  # Chromium refuses to run as root (a container) inside its sandbox
        command.append("--no-sandbox")
    done = subprocess.run([*command, url], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and out.exists(), done.stderr[-2000:]
    small(out)
    print(f"wrote {out}")


def your_turn(folder: Path = HERE) -> None:
    """online-your-turn.png: a real X window (Xvfb, with twm for a title bar) started as `cribtiles` starts
    it, on its title screen, its seat at a table online where it has just become the player's turn: the
    caption, the title's mark and its words. Skipped, said so, without Xvfb, twm or ImageMagick."""
    import shutil
    import subprocess

    tools = ("Xvfb", "twm", "import")
    if not all(shutil.which(t) for t in tools):
        print(f"online-your-turn.png not taken: it needs {', '.join(tools)}")
        return
    display = next(f":{n}" for n in range(150, 200) if not Path(f"/tmp/.X11-unix/X{n}").exists())
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "1300x860x24", "-nolisten", "tcp"])
    env = dict(os.environ, DISPLAY=display, SDL_AUDIODRIVER="dummy")
    env.pop("SDL_VIDEODRIVER", None)
    try:
        end = time.monotonic() + PATIENCE
        while not Path(f"/tmp/.X11-unix/X{display[1:]}").exists():
            assert time.monotonic() < end, "Xvfb did not start"
            time.sleep(0.1)
        twm = subprocess.Popen(["twm"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            done = subprocess.run(
                [sys.executable, __file__, "--your-turn-window", str(folder / "online-your-turn.png")],
                env=env,
                timeout=120,
            )
            assert done.returncode == 0, "the window for online-your-turn.png failed"
        finally:
            twm.terminate()
    finally:
        xvfb.terminate()


def your_turn_window(out: Path) -> None:
    """In the X display the caller started: a server here, Ann's seat kept in a data folder, the window
    started as `cribtiles` starts it, and Ben's move making it Ann's turn; the screen shot once told."""
    import shutil
    import subprocess

    from cribtiles.app.main import main
    from cribtiles.app.online_games import OnlineGames
    from cribtiles.ui import window

    clock = Clock()
    rng = random.Random(8)
    with tempfile.TemporaryDirectory() as tmp, server_here(clock) as (url, _hall):
        folder = Path(tmp)
        names = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Ben"}]
        code = new_table(url, names, 0)
        ann, ben = Seated(url, code, "Ann"), Seated(url, code, "Ben")
        turns_until(ann, ben, 2, ben, rng)
        OnlineGames(folder).add(ann.held(url))
        ann.close()

        def run(self: Any, max_seconds: float | None = None, ready: Any = None) -> None:
            frames(self, 30)
            ben.move(rng)  # Ben moves while Ann looks at the title: it is her turn there
            until(self, lambda: self._caption_shown.startswith("(1) Your turn"), "the turn told")
            if shutil.which("xdotool"):  # the pointer out of the way: no button lit under it
                subprocess.run(["xdotool", "mousemove", "1290", "850"], check=False)
            end = time.monotonic() + 1.0
            while time.monotonic() < end:  # a second of frames, for the window manager to draw the title
                self.frame(1 / 60)
                time.sleep(0.02)
            subprocess.run(["import", "-window", "root", "-crop", "1296x856+0+0", str(out)], check=True)
            print(f"wrote {out}")
            self.close()

        window.App.run = run  # type: ignore[method-assign]
        try:
            assert main(["--data-dir", str(folder), "--size", "1280x800"]) == 0
        finally:
            ben.close()


def every(folder: Path = HERE) -> None:
    """Every screenshot of online play, into `folder`."""
    online(folder)
    chat_and_watch(folder)
    open_tables(folder)
    invitation(folder)
    your_turn(folder)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--your-turn-window"]:
        your_turn_window(Path(sys.argv[2]))
    elif sys.argv[1:2] == ["--invitation-window"]:
        invitation_window(Path(sys.argv[2]))
    else:
        every(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)

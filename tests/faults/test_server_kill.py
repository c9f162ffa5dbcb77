"""The server killed outright (`kill -9`) again and again while games are played at it, and started again
on the same port each time: its clients come back by themselves and play on, and every game ends with
each acknowledged move in its record, in order, none lost and none made twice (issue 31).

`python -m cribtiles serve` runs in a subprocess of its own session; bot clients (`SeatBot`) play the
open seats in threads of the test and write down every act the server answered with its state."""

from __future__ import annotations

import random
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cribtiles.online.botclient import SeatBot
from cribtiles.online.client import Link
from cribtiles.rules.moves import format_move
from cribtiles.table.tiles.saved import load_table

from .conftest import alive, session_members, start, wait_for
from .test_text_and_arena import Collected

KILLS = 20
SEED = 31
BACKOFF = (0.05, 0.5)  # the clients try again soon: the test waits for them, not for their pauses
WAIT = 30.0  # seconds: the longest any one thing may take here before the test fails


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Server:
    """`cribtiles serve` on a fixed port and folder, started again after each kill."""

    port: int
    data: Path
    started: list[subprocess.Popen[str]] = field(default_factory=list)
    proc: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> str:
        """Start it; its one line once it listens."""
        proc = start(["serve", "--port", str(self.port)], self.data)
        self.started.append(proc)
        self.proc = proc
        out = Collected(proc.stdout)
        wait_for(lambda: "\n" in out.text or proc.poll() is not None, WAIT, "the server's line")
        if proc.poll() is not None and proc.stderr is not None:
            raise AssertionError(f"the server did not start: {out.text}{proc.stderr.read()}")
        assert out.text.startswith(f"Crib Tiles server on {self.url} ("), out.text
        return out.text

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()  # SIGKILL: no handler, no clean-up, no last write
        self.proc.wait(WAIT)

    def stop(self) -> int:
        assert self.proc is not None
        self.proc.terminate()
        return self.proc.wait(WAIT)


class FreshBot(SeatBot):
    """A bot client whose every try at a move draws afresh: a move the server acknowledged and then lost
    would be made again differently, and so be seen missing (a bot that chose by the ply alone would
    make the very same move again, and hide the loss)."""

    tries = 0

    def _rng(self, ply: int) -> random.Random:
        self.tries += 1
        return random.Random(f"{self.seed}/{self.seat}/{ply}/{self.tries}")


@dataclass
class Seated:
    """A bot client at one seat, its thread, and how its game ended."""

    bot: SeatBot
    link: Link
    thread: threading.Thread | None = None
    over: bool = False
    record: str | None = None


def seat_bots(url: str, seats: list[str], seed: int) -> tuple[str, list[Seated]]:
    """A new table of `seats` (`open` or a server bot's level) and a bot client at each open seat."""
    maker = Link(url, backoff=BACKOFF)
    try:
        assert maker.wait_connected(WAIT)
        told = [{"kind": "open"} if s == "open" else {"kind": "bot", "level": s} for s in seats]
        # no seed for the deal: `cribtiles serve` takes none at a table of several people (the bots'
        # choices are seeded; the test checks acknowledged moves against the record, whatever the deal)
        code = str(maker.request("create", timeout=WAIT, game="tiles", seats=told)["code"])
    finally:
        maker.close()
    seated = []
    for n in range(seats.count("open")):
        link = Link(url, backoff=BACKOFF)
        assert link.wait_connected(WAIT)
        bot = FreshBot(link, code, "easy", seed=seed + n)
        bot.take_seat(f"Bot {n + 1}")
        seated.append(Seated(bot, link))
    return code, seated


def play(seated: Seated) -> None:
    outcome = seated.bot.play(timeout=120)
    seated.over = outcome.over
    seated.record = outcome.state.get("record")


def acks(all_seated: list[Seated]) -> int:
    return sum(len(s.bot.acknowledged) for s in all_seated)


def check_record(code: str, seated: list[Seated], joins: int) -> int:
    """Every acknowledged act of the table's clients is the turn of its ply in the final record, and the
    record has one turn for each ply after the seats were taken: none lost, none made twice. The
    number of acknowledged acts."""
    records = {s.record for s in seated}
    assert len(records) == 1 and None not in records, f"table {code}: the seats were sent different records"
    record = records.pop()
    assert record is not None
    table = load_table(record)
    turns = table.state.turns
    final_ply = max(s.bot.state["ply"] for s in seated if s.bot.state is not None)
    assert len(turns) == final_ply - joins, f"table {code}: {len(turns)} turns for {final_ply - joins} plies"
    checked = 0
    for s in seated:
        assert s.bot.seat is not None
        for ply, move in s.bot.acknowledged:  # an act answered twice (a resend) is checked twice, as one turn
            turn = turns[ply - joins]
            assert (turn.player, format_move(turn.move)) == (s.bot.seat, move), (
                f"table {code}: ply {ply}: acknowledged {move!r} by seat {s.bot.seat}, "
                f"the record has {format_move(turn.move)!r} by seat {turn.player}"
            )
            checked += 1
    return checked


def kill_at_random_moments(
    server: Server, rng: random.Random, progress: Callable[[], int], playing: Callable[[], bool], most: int
) -> int:
    """Kill the server and start it again, at random moments while games are played, until the games
    are over or it was killed `most` times (the games then end in peace); the kills made."""
    kills = 0
    while playing() and kills < most:
        before = progress()
        if rng.random() < 0.5:
            time.sleep(rng.uniform(0.0, 0.3))  # any moment after it listens, clients back or not
        else:  # in the midst of play: a few moves after the clients came back
            wanted = rng.randint(1, 4)
            deadline = time.monotonic() + WAIT
            while progress() < before + wanted and playing():
                assert time.monotonic() < deadline, "the clients made no move after the server came back"
                time.sleep(0.005)
            time.sleep(rng.uniform(0.0, 0.02))
        if not playing():
            break
        server.kill()
        kills += 1
        time.sleep(rng.uniform(0.0, 0.2))  # the clients find it gone and try again meanwhile
        server.start()
    return kills


def test_a_server_killed_twenty_times_during_games_loses_no_acknowledged_move(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    data = tmp_path / "server"
    server = Server(free_port(), data)
    tables: list[tuple[str, list[Seated], int]] = []
    kills = 0
    try:
        assert server.start().endswith("(0 tables)\n")
        batch = 0
        while kills < KILLS:  # games end quickly between bots: more tables until the server was killed enough
            two = seat_bots(server.url, ["open", "open"], SEED + 10 * batch)
            three = seat_bots(server.url, ["open", "easy", "open"], SEED + 10 * batch + 5)
            batch_tables = [(*two, 2), (*three, 2)]
            tables += batch_tables
            seated = [s for _, ss, _ in batch_tables for s in ss]
            for s in seated:
                s.thread = threading.Thread(target=play, args=(s,), daemon=True)
                s.thread.start()

            def playing(seated: list[Seated] = seated) -> bool:
                return any(s.thread is not None and s.thread.is_alive() for s in seated)

            kills += kill_at_random_moments(server, rng, lambda seated=seated: acks(seated), playing, KILLS - kills)
            for s in seated:
                assert s.thread is not None
                s.thread.join(WAIT)
                assert not s.thread.is_alive(), "a bot client did not finish its game"
            batch += 1
        assert kills >= KILLS
        checked = 0
        for code, seated, joins in tables:
            assert all(s.over for s in seated), f"table {code} is not over"
            checked += check_record(code, seated, joins)
        assert server.stop() == 0  # the last one started: SIGTERM stops it cleanly
        for proc in server.started:
            assert proc.stderr is not None
            errors = proc.stderr.read()
            assert "Traceback" not in errors, errors
        print(f"{kills} kills, {len(tables)} tables, {checked} acknowledged moves checked against the records")
    finally:
        for _, seated, _ in tables:
            for s in seated:
                s.link.close()
        for proc in server.started:
            if proc.poll() is None:
                proc.kill()
                proc.wait(WAIT)
    # a server killed outright takes its bot processes with it: nothing is left running in its session
    wait_for(lambda: not any(session_members(p.pid) for p in server.started), WAIT, "the bot processes to end")
    assert not any(alive(p.pid) for p in server.started)

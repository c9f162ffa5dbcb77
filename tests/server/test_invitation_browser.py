"""A table's invitation page in a real browser (issue 44): the distribution's Chromium, headless, loads
`http://127.0.0.1:PORT/t/CODE` from a server on loopback; the DOM it built holds the table's seats (who is
there, which seat is open, the server's bot), the "Open in Crib Tiles" link to the table's cribtiles://
address and where to get the game; and a screenshot is taken of it (saved in CRIBTILES_SHOTS=<folder> when
set, to look at). A missing chromium fails the test in words: .ci/run installs it."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from cribtiles.online.client import Link

from .running import running_server

#: Seconds Chromium may take to load and draw the page on a loaded machine.
PATIENCE = 120.0
SIZE = (900, 1000)
DOWNLOAD = "https://example.org/cribtiles"


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail(
            "chromium is not installed (Debian: apt-get install chromium): the page is tested in a real browser"
        )
    return found


def browse(url: str, profile: Path, *how: str) -> subprocess.CompletedProcess[str]:
    """Chromium, headless, on `url` (`how`: --dump-dom or --screenshot=…), with a profile of its own."""
    command = [chromium(), "--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check"]
    command += [f"--user-data-dir={profile}", f"--window-size={SIZE[0]},{SIZE[1]}", "--hide-scrollbars"]
    if os.geteuid() == 0:  # Chromium refuses to run as root (a CI container) inside its sandbox
        command.append("--no-sandbox")
    return subprocess.run([*command, *how, url], capture_output=True, text=True, timeout=PATIENCE, check=False)


class Page(HTMLParser):
    """What the test reads of the DOM: the seats' list items' text, every link, the code's text."""

    def __init__(self) -> None:
        super().__init__()
        self.seats: list[str] = []
        self.links: dict[str, str] = {}  # id (or the link's text) -> href
        self.code = ""
        self._in: list[str] = []
        self._link: tuple[str, str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "li" and "#seats" in self._in:
            self.seats.append("")
        if tag == "a":
            self._link = (found.get("id") or "", found.get("href") or "")
        self._in.append(f"#{found['id']}" if found.get("id") else tag)

    def handle_endtag(self, tag: str) -> None:
        if self._in:
            self._in.pop()
        if tag == "a" and self._link is not None:
            self.links[self._link[0]] = self._link[1]
            self._link = None

    def handle_data(self, data: str) -> None:
        if "#seats" in self._in and self.seats:
            self.seats[-1] += data
        if self._in and self._in[-1] == "#code":
            self.code += data


def test_chromium_shows_the_tables_seats_and_the_link_that_opens_the_game(tmp_path: Path) -> None:
    with running_server(download=DOWNLOAD) as (url, _hall):
        link = Link(url)
        try:
            assert link.wait_connected(PATIENCE)
            seats: list[dict[str, Any]] = [
                {"kind": "person", "name": "Ann"},
                {"kind": "open"},
                {"kind": "bot", "level": "hard"},
            ]
            made = link.request("create", PATIENCE, game="tiles", seats=seats, sit=0, rules="joker=on,rounds=3")
            code = str(made["code"])
            page_url = f"{url.replace('ws://', 'http://')}/t/{code}"
            done = browse(page_url, tmp_path / "profile", "--dump-dom")
            assert done.returncode == 0, done.stderr[-2000:]
            page = Page()
            page.feed(done.stdout)
            assert page.code == f"{code[:3]} {code[3:]}"
            assert [s.strip() for s in page.seats] == [
                "Ann · here",
                "An open seat: waiting for a player",
                "Hard bot · the server's bot",
            ]
            port = url.rsplit(":", 1)[1]
            assert page.links["open"] == f"cribtiles://127.0.0.1:{port}/t/{code}"
            assert page.links["download"] == DOWNLOAD
            assert made["host"] not in done.stdout and made["token"] not in done.stdout

            shot = tmp_path / "invitation.png"
            done = browse(page_url, tmp_path / "profile", f"--screenshot={shot}")
            assert done.returncode == 0 and shot.exists(), done.stderr[-2000:]
        finally:
            link.close()
    head = shot.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", head[16:24]) == SIZE
    folder = os.environ.get("CRIBTILES_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(folder) / "invitation-page.png")

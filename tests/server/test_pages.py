"""The server's web pages, asked for over real HTTP on a loopback port (issue 44): a table's invitation page
shows the game, the seats and who is waiting, "Open in Crib Tiles" as the table's cribtiles:// address, and
where to get the game, everything escaped and nothing secret; an unknown code gets 404 and counts as a wrong
code of the address, so past the limit even the right page is refused (429), and so is a socket's status;
the links follow the Host header, or the host and scheme a trusted proxy forwards (nginx in front too);
the game's own WebSocket clients still connect on the same port."""

from __future__ import annotations

import http.client
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from websockets.sync.client import connect

from cribtiles.online.client import Link
from cribtiles.online.protocol import read, write
from cribtiles.server.forwarded import Proxies, networks
from cribtiles.server.front import Hall, Limits

from .nginx import nginx_in_front
from .running import running_server

WAIT = 20.0
LIMITS = Limits(codes_per_minute=3)


def get(url: str, path: str, source: str = "127.0.0.1", **headers: str) -> tuple[int, dict[str, str], str]:
    """GET `path` of the server at `url` (ws://…) from the loopback address `source`: the status, the
    headers and the body."""
    split = urlsplit(url)
    assert split.hostname is not None and split.port is not None
    connection = http.client.HTTPConnection(split.hostname, split.port, timeout=WAIT, source_address=(source, 0))
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode("utf-8")
    finally:
        connection.close()


def create(url: str, seats: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    link = Link(url)
    try:
        assert link.wait_connected(WAIT)
        made: dict[str, Any] = link.request("create", WAIT, seats=seats, **{"game": "tiles", **fields})
        return made
    finally:
        link.close()


@pytest.fixture
def server() -> Iterator[tuple[str, Hall]]:
    with running_server(limits=LIMITS) as (url, hall):
        yield url, hall


def test_a_tables_page_shows_its_game_seats_and_the_address_that_opens_the_game(server: tuple[str, Hall]) -> None:
    url, _hall = server
    seats = [{"kind": "person", "name": "Ann <b>&"}, {"kind": "open"}, {"kind": "bot", "level": "hard"}]
    made = create(url, seats, rules="joker=on")
    code = made["code"]
    port = urlsplit(url).port
    status, headers, body = get(url, f"/t/{code.lower()[:3]}-{code.lower()[3:]}")
    assert status == 200
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert headers["Cache-Control"] == "no-store" and headers["Referrer-Policy"] == "no-referrer"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    assert "<h1>A table of Kings Cribbage</h1>" in body
    assert f'<p class="code" id="code">{code[:3]} {code[3:]}</p>' in body
    assert "Waiting for 1 more player." in body and '<p class="dim" id="rules">Rules: Joker rule</p>' in body
    items = re.findall(r"<li[^>]*>(.*?)</li>", body)
    assert items == [
        'Ann &lt;b&gt;&amp; <span class="dim">· away</span>',
        "An open seat: waiting for a player",
        'Hard bot <span class="dim">· the server&#x27;s bot</span>',
    ]
    assert f'id="open" href="cribtiles://127.0.0.1:{port}/t/{code}">Open in Crib Tiles</a>' in body
    assert f"cribtiles online play http://127.0.0.1:{port}/t/{code}" in body
    assert "ask whoever sent you this link where to get it" in body
    assert "<script" not in body.lower() and "Ann <b>" not in body
    assert made["host"] not in body


def test_the_page_of_a_table_being_played_says_so_and_tells_no_secret(server: tuple[str, Hall]) -> None:
    url, hall = server
    made = create(url, [{"kind": "person", "name": "Ann"}, {"kind": "bot", "level": "easy"}], sit=0)
    status, _headers, body = get(url, f"/t/{made['code']}")
    assert status == 200 and "The game is on: every seat is taken." in body
    assert made["host"] not in body and made["token"] not in body
    rack = hall.rooms[made["code"]].shown(0, 0)["rack"]
    assert rack not in body  # Ann's rack is hers alone


def test_an_unknown_code_is_a_404_that_counts_against_the_address_and_then_even_the_right_page_is_refused(
    server: tuple[str, Hall],
) -> None:
    url, _hall = server
    code = create(url, [{"kind": "open"}, {"kind": "open"}])["code"]
    wrong = "ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY"
    for _ in range(LIMITS.codes_per_minute):
        status, _headers, body = get(url, f"/t/{wrong}", source="127.0.0.2")
        assert status == 404 and "No table here has that code" in body
    status, _headers, body = get(url, f"/t/{code}", source="127.0.0.2")
    assert status == 429 and "Too many codes that open no table were tried from your address" in body
    # the same count as a socket's: its status of the right code is refused too (and the other way round)
    with connect(url, source_address=("127.0.0.2", 0), open_timeout=WAIT) as ws:
        assert read(ws.recv(WAIT), "server")["type"] == "welcome"
        ws.send(write("status", id=1, code=code))
        answer = read(ws.recv(WAIT), "server")
    assert answer["type"] == "refused" and answer["reason"] == "Too many codes tried from your address: wait a minute."
    assert get(url, f"/t/{code}", source="127.0.0.3")[0] == 200  # another address is not touched


def test_the_root_is_a_word_about_the_server_and_any_other_path_a_404(server: tuple[str, Hall]) -> None:
    url, _hall = server
    status, _headers, body = get(url, "/")
    assert status == 200 and "<h1>A Crib Tiles server</h1>" in body and f"<code>{url}</code>" in body
    assert get(url, "/favicon.ico")[0] == 404
    assert get(url, "/t/")[0] == 404
    link = Link(url)  # and the game's clients still connect on the same port
    try:
        assert link.wait_connected(WAIT)
        assert link.request("ping", WAIT)["type"] == "pong"
    finally:
        link.close()


def test_the_links_follow_the_host_asked_for_and_a_forwarded_host_only_from_a_trusted_proxy(
    server: tuple[str, Hall],
) -> None:
    url, _hall = server
    code = create(url, [{"kind": "open"}, {"kind": "open"}])["code"]
    forged = {"X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https"}
    _status, _headers, body = get(url, f"/t/{code}", Host="crib.example.org:8765", **forged)
    assert f'href="cribtiles://crib.example.org:8765/t/{code}"' in body  # not a trusted proxy: its Host only
    assert "evil" not in body
    status, _headers, body = get(url, f"/t/{code}", Host="<b>bad</b>")
    assert status == 400 and "<b>bad" not in body


def test_behind_a_trusted_proxy_the_links_are_the_forwarded_host_and_scheme() -> None:
    with running_server(proxies=Proxies(networks("127.0.0.1"))) as (url, _hall):
        code = create(url, [{"kind": "open"}, {"kind": "open"}])["code"]
        told = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Host": "Play.Example.org", "X-Forwarded-Proto": "https"}
        _status, _headers, body = get(url, f"/t/{code}", Host="127.0.0.1:1", **told)
        assert f'href="cribtiles://play.example.org/t/{code}?tls=1"' in body
        assert f"cribtiles online play https://play.example.org/t/{code}" in body
        assert "<code>wss://play.example.org</code>" in body
        standard = {"Forwarded": 'for=203.0.113.9;host="crib.example.net";proto=https'}
        _status, _headers, body = get(url, f"/t/{code}", Host="127.0.0.1:1", **standard)
        assert f'href="cribtiles://crib.example.net/t/{code}?tls=1"' in body


def test_through_nginx_the_page_names_the_address_the_browser_used(tmp_path: Path) -> None:
    with running_server(proxies=Proxies(networks("127.0.0.1"))) as (url, _hall):
        code = create(url, [{"kind": "person", "name": "Ann"}, {"kind": "open"}])["code"]
        port = urlsplit(url).port
        assert port is not None
        with nginx_in_front(tmp_path / "nginx", port) as front:
            status, _headers, body = get(front, f"/t/{code}")
            assert status == 200
            at = front.removeprefix("ws://")
            assert f'href="cribtiles://{at}/t/{code}"' in body and f"play http://{at}/t/{code}" in body


def test_a_tables_page_says_its_rules_in_words_and_the_terminals_line_whole(server: tuple[str, Hall]) -> None:
    """The rules as the table's game says them (as the Create screen sends them, every rule written out, they
    were a long line broken mid-word), and the terminal's command on a line of its own, never broken."""
    url, _hall = server
    seats = [{"kind": "person", "name": "Dee"}, {"kind": "open"}, {"kind": "open"}]
    rules = "muggins=on,play_muggins=off,target=121,variant=three-player"
    made = create(url, seats, game="cribbage", rules=rules)
    _status, _headers, body = get(url, f"/t/{made['code']}")
    assert '<p class="dim" id="rules">Rules: three players · muggins</p>' in body
    assert re.search(r"<pre>cribtiles online play http://127\.0\.0\.1:\d+/t/[A-Z]{6}</pre>", body)
    plain = create(url, [{"kind": "person", "name": "Ann"}, {"kind": "open"}])
    assert "Rules: the usual rules</p>" in get(url, f"/t/{plain['code']}")[2]

"""The client's address behind a trusted reverse proxy (issue 43): `--forwarded-allow-ips` read in words,
`X-Forwarded-For` read right to left past the trusted proxies, RFC 7239 `Forwarded` parsed (quoted IPv6,
ports, case), forged headers from any other peer ignored, and the web origins `--allowed-origins` takes."""

from __future__ import annotations

import ipaddress

import pytest

from cribtiles.server.doors import Told, web_origins
from cribtiles.server.forwarded import Proxies, address, canonical, forwarded_for, networks

PROXY = Proxies(networks("127.0.0.1,10.0.0.0/8,::1"))


def test_the_trusted_proxies_are_addresses_and_networks_of_both_kinds() -> None:
    assert networks(" 127.0.0.1 , 10.0.0.0/8,::1,2001:db8::/32") == (
        ipaddress.ip_network("127.0.0.1/32"),
        ipaddress.ip_network("10.0.0.0/8"),
        ipaddress.ip_network("::1/128"),
        ipaddress.ip_network("2001:db8::/32"),
    )
    assert PROXY.trusts("10.20.30.40") and PROXY.trusts("::1") and PROXY.trusts("::ffff:127.0.0.1")
    assert not PROXY.trusts("127.0.0.2") and not PROXY.trusts("11.0.0.1") and not PROXY.trusts("?")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("10.0.0.1/8", "'10.0.0.1/8' is not a network's first address: write 10.0.0.0/8"),
        ("proxy.example.org", "'proxy.example.org' is neither an address nor a network, like 127.0.0.1"),
        ("127.0.0.1,,::1", "separate the addresses with commas, like 127.0.0.1,10.0.0.0/8"),
        ("", "separate the addresses with commas"),
        ("256.1.1.1", "'256.1.1.1' is neither an address nor a network"),
        ("\x1b[2J", "'\\x1b[2J' is neither"),
    ],
)
def test_a_wrong_trusted_proxy_is_said_plainly(text: str, words: str) -> None:
    with pytest.raises(ValueError) as caught:
        networks(text)
    assert words in str(caught.value)
    assert "\x1b" not in str(caught.value)


def test_an_address_as_a_header_writes_it() -> None:
    assert address("  192.0.2.43 ") == ipaddress.ip_address("192.0.2.43")
    assert address("192.0.2.43:47011") == ipaddress.ip_address("192.0.2.43")
    assert address('"[2001:DB8:cafe::17]:4711"') == ipaddress.ip_address("2001:db8:cafe::17")
    assert address("[2001:db8::1]") == ipaddress.ip_address("2001:db8::1")
    assert address("2001:db8::1") == ipaddress.ip_address("2001:db8::1")
    assert address("::ffff:203.0.113.9") == ipaddress.ip_address("203.0.113.9")
    for nothing in ("unknown", "_hidden", "", "1.2.3", "[::1", "x:y:z"):
        assert address(nothing) is None, nothing
    assert canonical("2001:DB8:0::1") == "2001:db8::1" and canonical("::ffff:127.0.0.1") == "127.0.0.1"


def test_the_forwarded_header_is_parsed_as_rfc_7239_writes_it() -> None:
    assert forwarded_for(['for="_gazonk"']) == ["_gazonk"]
    assert forwarded_for(['For="[2001:db8:cafe::17]:4711"']) == ["[2001:db8:cafe::17]:4711"]
    assert forwarded_for(["for=192.0.2.60;proto=http;by=203.0.113.43"]) == ["192.0.2.60"]
    assert forwarded_for(["for=192.0.2.43, for=198.51.100.17"]) == ["192.0.2.43", "198.51.100.17"]
    # two header lines are one list; a hop with no `for` names no client; a quoted comma or semicolon
    # is not a separator, and an escaped quote stays inside its string
    assert forwarded_for(["for=192.0.2.43", "proto=https;by=10.0.0.1"]) == ["192.0.2.43", None]
    assert forwarded_for(['for="a,b;c\\"d";proto=http, FOR = 198.51.100.17']) == ['a,b;c"d', "198.51.100.17"]
    assert forwarded_for([""]) == [None]


def test_from_a_trusted_proxy_the_right_most_address_not_a_proxy_is_the_clients() -> None:
    assert PROXY.client("127.0.0.1", ["203.0.113.9"], []) == "203.0.113.9"
    # what the client wrote itself is on the left, and is passed over
    assert PROXY.client("127.0.0.1", ["6.6.6.6, 203.0.113.9"], []) == "203.0.113.9"
    assert PROXY.client("127.0.0.1", ["6.6.6.6", "203.0.113.9, 10.1.2.3"], []) == "203.0.113.9"  # two proxies
    assert PROXY.client("127.0.0.1", ["2001:DB8::5"], []) == "2001:db8::5"
    assert PROXY.client("::1", [], ['for="[2001:db8:cafe::17]:4711"']) == "2001:db8:cafe::17"
    assert PROXY.client("127.0.0.1", [], ['for="_hidden", for=198.51.100.17:80']) == "198.51.100.17"
    assert PROXY.client("::ffff:127.0.0.1", ["203.0.113.9:5555"], []) == "203.0.113.9"
    # every hop a trusted proxy: the first of them
    assert PROXY.client("127.0.0.1", ["10.0.0.7, 10.0.0.8"], []) == "10.0.0.7"


def test_a_trusted_proxy_sending_no_usable_header_is_taken_for_its_own_address() -> None:
    assert PROXY.client("127.0.0.1", [], []) == "127.0.0.1"
    assert PROXY.client("127.0.0.1", ["unknown"], []) == "127.0.0.1"
    assert PROXY.client("127.0.0.1", ["203.0.113.9, garbage"], []) == "127.0.0.1"  # the proxy's own hop unreadable
    assert PROXY.client("127.0.0.1", [""], []) == "127.0.0.1"
    assert PROXY.client("127.0.0.1", [], ['for="_hidden"']) == "127.0.0.1"
    # both headers, naming different clients: the client wrote one of them, and neither is believed
    assert PROXY.client("127.0.0.1", ["203.0.113.9"], ["for=6.6.6.6"]) == "127.0.0.1"
    assert PROXY.client("127.0.0.1", ["203.0.113.9"], ["for=203.0.113.9"]) == "203.0.113.9"


def test_the_headers_of_a_peer_not_trusted_are_ignored() -> None:
    assert PROXY.client("198.51.100.7", ["203.0.113.9"], ["for=203.0.113.9"]) == "198.51.100.7"
    assert PROXY.client("127.0.0.2", ["127.0.0.1"], []) == "127.0.0.2"
    assert Proxies().client("127.0.0.1", ["203.0.113.9"], []) == "127.0.0.1"  # none trusted: none read
    # a planted failure: a checker that believed any peer would give the forged address
    believing = Proxies(networks("0.0.0.0/0"))
    assert believing.client("198.51.100.7", ["203.0.113.9"], []) == "203.0.113.9"


def test_the_allowed_origins_are_written_as_a_browser_sends_them() -> None:
    assert web_origins("") == ()
    assert web_origins("https://Play.Example.org/, http://localhost:8080 ,https://x.org:443,http://[::1]:80") == (
        "https://play.example.org",
        "http://localhost:8080",
        "https://x.org",
        "http://[::1]",
    )
    for wrong in ("play.example.org", "ftp://x.org", "https://x.org/play", "https://u@x.org", "https://x.org:99999"):
        with pytest.raises(ValueError, match=r"is not a web page's origin, like https://play\.example\.org"):
            web_origins(wrong)


def test_a_warning_about_one_address_is_logged_once_a_minute_at_most() -> None:
    now = [0.0]
    told = Told(lambda: now[0], most=2)
    assert told.due("1.2.3.4", "codes") and not told.due("1.2.3.4", "codes")
    assert told.due("1.2.3.4", "connections")  # another kind is its own
    now[0] = 59.0
    assert not told.due("1.2.3.4", "codes") and not told.due("1.2.3.4", "connections")
    now[0] = 61.0
    assert told.due("1.2.3.4", "codes") and not told.due("1.2.3.4", "codes")
    assert told.due("5.6.7.8", "codes")  # a third: the oldest is forgotten, and the count stays bounded
    assert len(told.last) == 2 and ("1.2.3.4", "connections") not in told.last

"""mDNS on the loopback address: a hosted server advertised is found by a browser, with its address,
and is gone from the list once it stops advertising."""

from __future__ import annotations

import time
from collections.abc import Callable

from cribtiles.online.lan import Advertiser, Browser, Found, instance_name

LOOPBACK = ["127.0.0.1"]


def wait_for(check: Callable[[], bool], seconds: float = 10.0) -> bool:
    """Poll `check` until it holds or `seconds` pass (a bounded wait, not a timed assertion)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.05)
    return check()


def test_an_advertised_server_is_found_with_its_address_and_goes_when_it_stops() -> None:
    browser = Browser(LOOPBACK)
    try:
        advertiser = Advertiser(8765, "Crib Tiles at Ann's", LOOPBACK)
        try:
            wanted = Found("Crib Tiles at Ann's", "ws://127.0.0.1:8765")
            assert wait_for(lambda: wanted in browser.found()), browser.found()
        finally:
            advertiser.close()
        assert wait_for(lambda: wanted not in browser.found()), browser.found()
    finally:
        browser.close()


def test_a_service_name_has_no_dots_no_control_characters_and_fits_mdns() -> None:
    assert instance_name("Ann.s\x07 game") == "Ann s  game"
    assert instance_name("  ") == "Crib Tiles"
    assert len(instance_name("é" * 100).encode()) <= 60

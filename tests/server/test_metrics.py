"""A server process's `/metrics` (issue 46): Prometheus's text format with its tables, connections,
acknowledged changes and the time of its store's writes, on either store; asked through a proxy (a
forwarded header) it is not there."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from .conftest import MakeStore
from .players import WAIT, Player, connected, new_table
from .running import running_server


def scraped(url: str, **headers: str) -> dict[str, float]:
    """The samples of the page at `url`, by name and labels."""
    request = urllib.request.Request(url.replace("ws://", "http://") + "/metrics", headers=headers)
    with urllib.request.urlopen(request, timeout=WAIT) as answer:
        assert answer.status == 200
        assert answer.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        text = answer.read().decode()
    samples = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            samples[name] = float(value)
    return samples


def test_the_metrics_count_tables_connections_moves_and_store_writes(make_store: MakeStore) -> None:
    with running_server(store=make_store()) as (url, hall):
        maker = connected(url)
        code = new_table(maker, [{"kind": "open"}, {"kind": "open"}])["code"]
        maker.close()
        ann, ben = Player(url, code), Player(url, code)
        try:
            ann.join("Ann")
            ben.join("Ben")
            ann.wait_until(lambda s: s["phase"] == "playing")
            samples = scraped(url)
            assert samples['cribtiles_tables{phase="playing"}'] == 1
            assert samples["cribtiles_connections"] == 2
            assert samples["cribtiles_moves_total"] == hall.moves == 3  # made, and two seats taken
            assert samples['cribtiles_store_write_seconds_bucket{le="+Inf"}'] == 3
            assert samples["cribtiles_store_write_seconds_count"] == 3
            assert samples["cribtiles_store_errors_total"] == 0
            assert samples["cribtiles_answer_seconds_count"] >= 3
        finally:
            ann.close()
            ben.close()


def test_the_metrics_are_not_served_through_a_proxy() -> None:
    with running_server() as (url, _hall), pytest.raises(urllib.error.HTTPError) as refused:
        scraped(url, **{"X-Forwarded-For": "203.0.113.9"})
    assert refused.value.code == 404

"""The window's hosted server (`app/hosting.py`): the record an earlier window left of a server it kept
running is taken back only when that server still answers; a damaged record, whatever is in it, is
forgotten, and the window starts as if there were none."""

from __future__ import annotations

from pathlib import Path

import pytest

from cribtiles.app.hosting import RECORD, HostedServer


@pytest.mark.parametrize(
    "kept",
    ["not json", "[1, 2]", '{"pid": "x", "url": 3}', '{"url": "ws://127.0.0.1:1"}', "[" * 100_000, "\udcff"],
)
def test_a_damaged_record_of_a_server_left_running_is_forgotten(tmp_path: Path, kept: str) -> None:
    (tmp_path / RECORD).write_text(kept, encoding="utf-8", errors="surrogateescape")
    host = HostedServer(tmp_path, port=0, command=["false"])
    assert host.url is None and not (tmp_path / RECORD).exists()

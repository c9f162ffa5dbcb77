"""The command line: the self-test, and the window's wiring to the data folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from cribtiles.app.main import main


def test_selftest_exits_0(tmp_path: Path) -> None:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    r = subprocess.run(
        [sys.executable, "-m", "cribtiles", "--selftest", "--data-dir", str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "selftest: ok" in r.stdout
    assert (tmp_path / "game.json").exists()


def test_bad_options_are_refused_plainly(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["--rules", "nonsense"]) == 2
    assert main(["--size", "big"]) == 2
    assert "cribtiles:" in capsys.readouterr().err


def test_the_window_resumes_the_saved_game(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    from cribtiles.app import play as play_mod
    from cribtiles.app.storage import Store
    from cribtiles.rules import new_game
    from cribtiles.ui import window

    s = new_game(2, seed=9, names=("You", "Hard"))
    s = s.apply(s.legal_actions()[0])
    Store(tmp_path).save_game(s)
    seen = []

    def fake_run(self: window.App, max_seconds: float | None = None) -> None:
        seen.append((self.game.state.log, self.game.level))
        self.close()

    monkeypatch.setattr(window.App, "run", fake_run)
    assert play_mod.play_window(tmp_path, None, None, __import__("cribtiles").rules.RuleOptions(), False) == 0
    assert seen == [(s.log, "hard")]
    (tmp_path / "game.json").write_text("damaged")
    assert play_mod.play_window(tmp_path, None, None, __import__("cribtiles").rules.RuleOptions(), False) == 0
    assert seen[-1][0] == ()  # a fresh game

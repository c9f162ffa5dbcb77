"""The command line: the self-test, and the window's wiring to the data folder."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

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


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--data-dir", ""], "an empty one would mean the current folder"),
        (["--data-dir", "  "], "an empty one would mean the current folder"),
        (["--size", ""], "--size '': write the width and height in pixels"),
        (["history", "--data-dir", ""], "an empty one would mean the current folder"),
        (["stats", "--data-dir", ""], "an empty one would mean the current folder"),
        (["replay", "game.json", "--data-dir", ""], "an empty one would mean the current folder"),
        (["replay", "game.json", "--size", ""], "--size '': write the width and height in pixels"),
    ],
)
def test_empty_arguments_are_refused_in_words_not_taken_as_the_current_folder(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = main(args)
    except SystemExit as e:  # argparse's own refusal
        code = int(e.code or 0)
    assert code == 2
    assert words in capsys.readouterr().err


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

    def fake_run(self: window.App, max_seconds: float | None = None, ready: object = None) -> None:
        seen.append((self.session.table.state.log, self.game.level))
        self.close()

    monkeypatch.setattr(window.App, "run", fake_run)
    assert play_mod.play_window(tmp_path, None, None, __import__("cribtiles").rules.RuleOptions(), False) == 0
    assert seen == [(s.log, "hard")]
    (tmp_path / "game.json").write_text("damaged")
    assert play_mod.play_window(tmp_path, None, None, __import__("cribtiles").rules.RuleOptions(), False) == 0
    assert seen[-1][0] == ()  # a fresh game


def test_players_on_the_command_line(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    from cribtiles.app import play as play_mod
    from cribtiles.rules import RuleOptions
    from cribtiles.table import Seat

    seen = []
    monkeypatch.setattr(play_mod, "play_window", lambda *args, **kw: seen.append(args) or 0)
    assert main(["--players", "Ann, Ben,hard", "--rules", "joker=on,rounds=3", "--seed", "5"]) == 0
    _, level, seed, options, new_rules, _, seats = seen[-1]
    assert (level, seed, options, new_rules) == (None, 5, RuleOptions(joker=True, rounds=3), True)
    assert seats == (Seat("Ann"), Seat("Ben"), Seat("Hard", "hard"))
    assert main(["--players", "hard,hard"]) == 0
    assert seen[-1][-1] == (Seat("Hard", "hard"), Seat("Hard 2", "hard")) and seen[-1][4] is False
    assert main(["--level", "expert", "--rules", "mode=solitaire"]) == 0  # the shorthand: You against Expert
    assert seen[-1][-1] == (Seat("You"), Seat("Expert", "expert")) and seen[-1][3].solitaire
    assert main(["--players", "You,You", "--rules", "mode=solitaire"]) == 0
    assert main([]) == 0 and seen[-1][-1] is None  # nothing asked: resume, or the last choices
    capsys.readouterr()
    refused = {
        "Ann": "2 to 4 players, not 1",
        "a,b,c,d,e": "2 to 4 players, not 5",
        "Ann,,Ben": "separate the players with commas",
        "Ann," + "x" * 41: "41 characters long; names have at most 40",
    }
    for players, words in refused.items():
        assert main(["--players", players]) == 2
        assert "cribtiles: --players: " in (err := capsys.readouterr().err) and words in err, err
    assert main(["--players", "Ann,Ben,hard", "--rules", "mode=solitaire"]) == 2
    assert "Solitaire is played by two sides, Dark and Light, not 3 players" in capsys.readouterr().err
    assert main(["--players", "Ann,hard", "--level", "easy"]) == 2
    assert "give one of them" in capsys.readouterr().err
    assert len(seen) == 5


def test_the_window_starts_with_the_players_asked_for(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    from cribtiles.app.storage import Store
    from cribtiles.rules import RuleOptions
    from cribtiles.table import Seat
    from cribtiles.table.settings import Preferences
    from cribtiles.ui import window

    seen = []

    def fake_run(self: window.App, max_seconds: float | None = None, ready: object = None) -> None:
        seen.append((self.session.seats, self.session.match.options, self.session.table.match.seed))
        self.close()

    monkeypatch.setattr(window.App, "run", fake_run)
    store = Store(tmp_path)
    chosen = Preferences(level="easy", seats=(("Ann", None), ("Bo", "easy"), ("Cy", None)), rules="joker=on")
    store.save_preferences(chosen)
    ann_hard_cy = (Seat("Ann"), Seat("Hard", "hard"), Seat("Cy"))
    assert main(["--data-dir", str(tmp_path), "--players", "Ann,Ben,hard"]) == 0
    assert seen[-1] == ((Seat("Ann"), Seat("Ben"), Seat("Hard", "hard")), RuleOptions(joker=True), seen[-1][2])
    assert main(["--data-dir", str(tmp_path), "--players", "Ann,Ben,hard", "--rules", "rounds=2", "--seed", "8"]) == 0
    assert seen[-1] == ((Seat("Ann"), Seat("Ben"), Seat("Hard", "hard")), RuleOptions(rounds=2), 8)
    assert main(["--data-dir", str(tmp_path)]) == 0  # resumed: the game just started
    assert seen[-1][0][1] == Seat("Ben")
    assert main(["--data-dir", str(tmp_path), "--seed", "9"]) == 0  # a new game at the table chosen last
    # its lone bot at the level chosen last: `--players Ann,Ben,hard` chose Hard, as `--level hard` would
    assert seen[-1] == (ann_hard_cy, RuleOptions(joker=True), 9)
    assert main(["--data-dir", str(tmp_path), "--level", "expert"]) == 0  # You against Expert
    assert seen[-1][0] == (Seat("You"), Seat("Expert", "expert"))
    store.save_preferences(Preferences(rules="mode=solitaire"))
    assert main(["--data-dir", str(tmp_path), "--players", "Ann,Ben,hard"]) == 0  # 3 players: not Solitaire
    assert seen[-1][:2] == ((Seat("Ann"), Seat("Ben"), Seat("Hard", "hard")), RuleOptions())


def test_an_unexpected_error_in_the_window_is_logged_and_told_with_the_logs_path(
    tmp_path: Path,
    monkeypatch,  # type: ignore[no-untyped-def]
    capsys,  # type: ignore[no-untyped-def]
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    from cribtiles.app import play as play_mod
    from cribtiles.rules import RuleOptions
    from cribtiles.ui import window

    def broken_run(self: window.App, max_seconds: float | None = None, ready: object = None) -> None:
        try:
            raise RuntimeError("a bug in a frame")
        finally:
            self.close()

    told: list[tuple[str, str]] = []
    monkeypatch.setattr(window.App, "run", broken_run)
    monkeypatch.setattr(play_mod, "tell_in_a_window", lambda title, text: told.append((title, text)))
    assert play_mod.play_window(tmp_path, None, 4, RuleOptions(), False) == 1
    log_path = tmp_path / "cribtiles.log"
    ((title, text),) = told
    assert title == "Crib Tiles stopped" and str(log_path) in text and "RuntimeError: a bug in a frame" in text
    assert str(log_path) in capsys.readouterr().err
    logged = log_path.read_text()
    assert "the game stopped on an unexpected error" in logged and "Traceback" in logged
    assert not (tmp_path / "cribtiles.lock").exists() or play_mod.Store(tmp_path).lock() == ""  # released


def test_continue_goes_straight_to_the_game_without_the_title(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from cribtiles.app import play as play_mod

    seen = []
    monkeypatch.setattr(play_mod, "play_window", lambda *args, **kw: seen.append(kw) or 0)
    assert main([]) == 0 and main(["--continue"]) == 0
    assert seen == [{"title": True}, {"title": False}]


def test_a_command_line_game_over_an_unfinished_one_keeps_it_in_the_history_and_says_so(
    tmp_path: Path,
    monkeypatch,  # type: ignore[no-untyped-def]
    capsys,  # type: ignore[no-untyped-def]
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    from cribtiles.app.storage import Store
    from cribtiles.rules import RuleOptions
    from cribtiles.table import Seat
    from cribtiles.table.ledger import Result
    from cribtiles.table.settings import Preferences
    from cribtiles.table.tiles.table import Table
    from cribtiles.ui import window
    from cribtiles.ui.tiles.table_line import rules_words

    store = Store(tmp_path)
    old = Table.new((Seat("You"), Seat("Hard", "hard")), RuleOptions(rounds=2), seed=9)
    old.play(old.state.legal_actions()[0]) if old.person_to_move else old.play_bot(old.state.legal_actions()[0])
    store.save_game(old)
    store.save_preferences(Preferences(rules="joker=on"))
    seen = []

    def fake_run(self: window.App, max_seconds: float | None = None, ready: object = None) -> None:
        seen.append(
            (self.session.seats, rules_words(self.session.match.options), [t.text for t in self.game.anims.toasts])
        )
        self.close()

    monkeypatch.setattr(window.App, "run", fake_run)
    assert main(["--data-dir", str(tmp_path), "--players", "Ann,easy"]) == 0
    said = "cribtiles: Your unfinished game (You 0 · Hard 0, round 1 of 2) was kept in the History as unfinished"
    scores = old.state.scores
    said = said.replace("You 0 · Hard 0", f"You {scores[0]} · Hard {scores[1]}")
    assert said in capsys.readouterr().err
    seats, rules, toasts = seen[-1]
    assert seats == (Seat("Ann"), Seat("Easy", "easy"))
    assert rules == ("Joker rule", "exchange only when stuck", "lowest tile starts")  # the remembered rule, shown
    assert any("kept in the History as unfinished" in t for t in toasts)  # said in the window too
    (kept,) = Store(tmp_path).past_games()
    assert kept.unfinished and kept.result is Result.UNFINISHED and kept.tiles.turns == 1
    assert (
        kept.scores == scores and kept.tiles.options == "start=low,exchange=when-stuck,joker=off,rounds=2,mode=standard"
    )
    assert Store(tmp_path).past_table(kept.id) is not None  # it can be replayed from the History
    # the game just started had no turn: a new one over it keeps nothing and says nothing
    assert main(["--data-dir", str(tmp_path), "--level", "hard"]) == 0
    assert "unfinished" not in capsys.readouterr().err and len(Store(tmp_path).past_games()) == 1


def test_a_command_line_game_over_a_finished_one_records_it_once(tmp_path: Path) -> None:
    import random

    from cribtiles.app.storage import Store
    from cribtiles.bot.tiles.greedy import greedy_move
    from cribtiles.table import Seat
    from cribtiles.table.tiles.table import Table

    store = Store(tmp_path)
    table = Table.new((Seat("You"), Seat("Easy", "easy")), seed=4)
    while not table.round_over:
        move = greedy_move(table.view(table.state.current), random.Random(0))
        table.play_bot(move) if table.bot_to_move else table.play(move)
    store.save_game(table)  # the window closed before its end card recorded the game
    assert store.keep_unfinished() == "" and store.keep_unfinished() == ""
    (kept,) = store.past_games()
    assert not kept.unfinished and kept.scores == table.state.final_scores()


def test_the_first_title_offers_online_play_and_o_opens_it(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Issue 44, defect 1: the title built at start-up had no Online (the window was given its online
    services only after it was built), so a newcomer following the README could not find online play."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    import pygame

    from cribtiles.ui import window
    from cribtiles.ui.online.screens import OnlineScene
    from cribtiles.ui.title import TitleScene

    seen: dict[str, object] = {}

    def fake_run(self: window.App, max_seconds: float | None = None, ready: object = None) -> None:
        title = self.scenes[-1]
        assert isinstance(title, TitleScene)
        seen["labels"] = [item.label for item in title.menu.items]
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_o, mod=0, unicode="o", scancode=0))
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="o"))
        for _ in range(4):
            self.frame(0.05)
        seen["top"] = self.scenes[-1]
        self.close()

    monkeypatch.setattr(window.App, "run", fake_run)
    assert main(["--data-dir", str(tmp_path)]) == 0
    labels = seen["labels"]
    assert isinstance(labels, list) and "Online" in labels and "Your online games" in labels
    online = seen["top"]
    assert isinstance(online, OnlineScene)
    # defect 4: the O that opened it typed nothing into its first field
    assert online.name.text == "", online.name.text


def test_online_fields_take_a_click_and_enter_in_the_code_joins(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Issue 44, defects 3 and 13: a click on a text field focused the next row (typing was lost, or on a
    button row a letter fired it), and Enter in the Join screen's Code field went to Name, not to Join."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    import pygame

    from cribtiles.ui import window
    from cribtiles.ui.online.screens import JoinScene, OnlineScene
    from cribtiles.ui.online.services import HeldSeat

    seen: dict[str, object] = {}

    def key(k: int, text: str = "") -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=text, scancode=0))
        if text:
            pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))

    def click(rect: tuple[int, int, int, int]) -> None:
        x, y, w, h = rect
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            pygame.event.post(pygame.event.Event(kind, pos=(x + w // 2, y + h // 2), button=1))

    def fake_run(self: window.App, max_seconds: float | None = None, ready: object = None) -> None:
        key(pygame.K_o, "o")
        self.frame(0.05)
        online = self.scenes[-1]
        assert isinstance(online, OnlineScene)
        click(online.fields[online.rows.index(online.name)])
        for letter in "Ben":
            key(pygame.key.key_code(letter.lower()), letter)
        self.frame(0.05)
        seen["name"] = online.name.text
        key(pygame.K_j, "j")  # typed in the field: it fires no Join
        self.frame(0.05)
        seen["after j"] = online.name.text
        click(online.fields[online.rows.index(online.address)])
        for letter in "ws://127.0.0.1:8765":
            key(pygame.K_UNKNOWN, letter)
        self.frame(0.05)
        online.focus = online.rows.index(next(r for r in online.rows if r.label == "Join with a code"))
        key(pygame.K_RETURN)
        self.frame(0.05)
        join = self.scenes[-1]
        assert isinstance(join, JoinScene)
        seen["join focus"] = join.focused().label

        def joined(address: str, code: str, name: str) -> HeldSeat:
            seen["joined"] = (address, code, name)
            return HeldSeat(address, code, 1, name, "tiles", "token")  # a seat, should a frame take it

        join.lobby.join = joined  # type: ignore[method-assign]
        for letter in "KXRMTB":
            key(pygame.key.key_code(letter.lower()), letter)
        key(pygame.K_RETURN)
        self.frame(0.05)
        for _ in range(1000):  # the join runs beside the loop: a bounded wait for it
            if "joined" in seen:
                break
            time.sleep(0.01)
        self.close()

    monkeypatch.setattr(window.App, "run", fake_run)
    assert main(["--data-dir", str(tmp_path)]) == 0
    assert seen["name"] == "Ben"
    assert seen["after j"] == "Benj"
    assert seen["join focus"] == "Code"
    assert seen["joined"] == ("ws://127.0.0.1:8765", "KXRMTB", "Benj")


def test_a_bots_only_match_names_its_players_in_the_round_banner(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Issue 44, defect 23: for `--players beginner,easy` the next round's banner read "Running totals: You
    222 · Easy 207" (the seat shown was called You though no person sits at the table)."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    import random

    import pygame

    from cribtiles.app.storage import Store
    from cribtiles.bot.tiles.greedy import greedy_move
    from cribtiles.rules.options import RuleOptions
    from cribtiles.table import parse_players
    from cribtiles.table.tiles.table import Table
    from cribtiles.ui import window
    from cribtiles.ui.tiles.end_scene import EndScene

    table = Table.new(parse_players("beginner,easy"), RuleOptions.parse("rounds=3"), seed=4)
    while not table.round_over:
        table.play_bot(greedy_move(table.view(table.state.current), random.Random(len(table.state.turns))))
    Store(tmp_path).save_game(table)
    seen: dict[str, object] = {}

    def fake_run(self: window.App, max_seconds: float | None = None, ready: object = None) -> None:
        for _ in range(600):  # the end card waits a moment before it takes a key
            self.frame(1 / 60)
            if isinstance(self.scenes[-1], EndScene) and self.scenes[-1].ready:
                break
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0))
        self.frame(1 / 60)
        seen["banner"] = self.game.notice
        self.close()

    monkeypatch.setattr(window.App, "run", fake_run)
    assert main(["--data-dir", str(tmp_path), "--continue"]) == 0
    totals = table.match.totals
    assert seen["banner"] == f"Round 2 of 3. Running totals: Beginner {totals[0]} · Easy {totals[1]}."


def test_new_game_offers_the_bot_at_the_table_when_the_players_came_from_the_command_line(
    tmp_path: Path,
    monkeypatch,  # type: ignore[no-untyped-def]
) -> None:
    """Issue 44, defect 22: after `--players You,easy`, Ctrl+N offered Medium (the level remembered from
    before) where Easy sat; L still chooses the next game's bot."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    import pygame

    from cribtiles.ui import window
    from cribtiles.ui.tiles.newgame import NewGameScene

    offered: list[tuple[str | None, ...]] = []

    def ctrl(k: int) -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=pygame.KMOD_LCTRL, unicode="", scancode=0))

    def fake_run(self: window.App, max_seconds: float | None = None, ready: object = None) -> None:
        for press_l in (False, True):
            if press_l:
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_l, mod=0, unicode="l", scancode=0))
                self.frame(1 / 60)
            ctrl(pygame.K_n)
            self.frame(1 / 60)
            scene = self.scenes[-1]
            assert isinstance(scene, NewGameScene)
            offered.append(tuple(s.level for s in scene.form.table_seats()))
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))
            self.frame(1 / 60)
        self.close()

    monkeypatch.setattr(window.App, "run", fake_run)
    assert main(["--data-dir", str(tmp_path), "--players", "You,easy"]) == 0
    assert offered == [(None, "easy"), (None, "medium")]  # L goes on from the bot chosen


def test_under_the_hot_seat_curtain_tiles_out_is_flat_like_hint_and_best_plays(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Issue 44, defect 25: between two people's turns the racks are hidden; Hint and Best plays went
    flat, but Tiles out (T) stayed raised, and T changed a setting with nothing to show."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    import pygame

    from cribtiles.ui import window
    from cribtiles.ui.tiles.panel import coach_rects

    seen: dict[str, object] = {}

    def buttons(app: window.App) -> dict[str, bool]:
        layout = coach_rects(app.game.snapshot())
        assert layout is not None
        return {name: enabled for name, _, _, enabled in layout.buttons}

    def fake_run(self: window.App, max_seconds: float | None = None, ready: object = None) -> None:
        self.back_to_game()
        self.frame(1 / 60)
        seen["curtain"] = (self.game.curtain, buttons(self), self.prefs.tiles_out)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_t, mod=0, unicode="t", scancode=0))
        self.frame(1 / 60)
        seen["t"] = self.prefs.tiles_out
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0))
        self.frame(1 / 60)  # the person to move is ready: the curtain rises
        seen["ready"] = (self.game.curtain, buttons(self))
        self.close()

    monkeypatch.setattr(window.App, "run", fake_run)
    assert main(["--data-dir", str(tmp_path), "--players", "Ann,Ben"]) == 0
    curtain, flat, tiles_out = seen["curtain"]  # type: ignore[misc]
    assert curtain is not None and flat == {"hint": False, "plays": False, "out": False}
    assert seen["t"] == tiles_out  # T behind the curtain changed nothing
    assert seen["ready"] == (None, {"hint": True, "plays": True, "out": True})


def test_bonuses_off_on_the_command_line(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Issue 45: `--rules bonuses=off` is taken as any other option, and the game scores by it."""
    from cribtiles.app import play as play_mod
    from cribtiles.rules import RuleOptions, Scorer

    seen = []
    monkeypatch.setattr(play_mod, "play_window", lambda *args, **kw: seen.append(args) or 0)
    assert main(["--rules", "bonuses=off", "--seed", "2"]) == 0
    _, _, seed, options, new_rules, *_ = seen[-1]
    assert (seed, options, new_rules) == (2, RuleOptions(bonuses=False), True)
    assert Scorer.of(options) == Scorer.of(RuleOptions.parse("bonuses=off")) != Scorer()

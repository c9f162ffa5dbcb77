"""The replay scene rebuilds a stored game exactly, turn by turn: at every turn the board, the scores
on the peg board and the breakdown are the game's own at that turn (compared with the record replayed
up to it); the keys and clicks move through it; a match is stepped across its rounds."""

from __future__ import annotations

import random

import pygame
import pytest

from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.rules.match import round_seed
from cribtiles.rules.moves import Play
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.record import record_of, replay
from cribtiles.rules.scoring import score_play
from cribtiles.table import parse_players
from cribtiles.table.saves import save_table
from cribtiles.table.settings import Preferences
from cribtiles.table.tiles.history import history_of
from cribtiles.table.tiles.public import public_of
from cribtiles.table.tiles.saved import load_table
from cribtiles.table.tiles.table import Table, log_position
from cribtiles.ui.config import NoKeeper
from cribtiles.ui.geometry import centre
from cribtiles.ui.paint import GOLD
from cribtiles.ui.tiles.autopilot import post_click, post_key
from cribtiles.ui.tiles.breakdown import score_rows
from cribtiles.ui.tiles.panel import info_rows, peg_number, rack_buttons, replay_buttons, seat_name
from cribtiles.ui.tiles.replay_scene import ReplayScene
from cribtiles.ui.window import App


def frames(app: App, n: int = 2) -> None:
    for _ in range(n):
        app.frame(1 / 60)


def played(players: str, rules: str, seed: int) -> Table:
    """A table played to its end (every round) with greedy moves, people under-counting now and then
    under the Joker rule so that the bots call; stored and read back as a file would be."""
    table = Table.new(parse_players(players), RuleOptions.parse(rules), seed)
    rng = random.Random(seed)
    while True:
        while not table.round_over:
            move = greedy_move(table.view(table.state.current), random.Random(rng.random()))
            if table.bot_to_move:
                table.play_bot(move)
            else:
                declared = None
                if isinstance(move, Play) and table.options.joker and rng.random() < 0.4:
                    declared = max(0, score_play(table.state.board, move).total - 3)
                table.play(move, declared)
        if table.match_over:
            return load_table(save_table(table))
        table.next_round()


class Closed:
    def __init__(self) -> None:
        self.times = 0
        self.exported: list[Table] = []

    def close(self) -> None:
        self.times += 1

    def export(self, table: Table) -> str:
        self.exported.append(table)
        return "The game's record is in /data/games/crib-1.json."


def open_replay(table: Table, closed: Closed) -> tuple[App, ReplayScene]:
    app = App(None, Preferences(speed="instant"), NoKeeper(), size=(1280, 800))
    scene = ReplayScene(app, table, closed.close, closed.export)
    app.scenes.append(scene)
    frames(app)
    return app, scene


def test_a_replay_rebuilds_a_stored_game_exactly_turn_by_turn() -> None:
    table = played("You,expert,beginner", "joker=on", 4)
    final = table.state
    record = record_of(final)
    assert final.calls, "this game has Joker calls, which the replay must place between the turns"
    history = history_of(final)
    app, scene = open_replay(table, Closed())
    lists = 0
    try:
        for at in range(len(final.turns) + 1):
            snap = scene.snapshot()
            expected = replay(record, log_position(final, at))
            assert (
                snap.state == public_of(expected, range(expected.players))
                and snap.replay is not None
                and snap.replay.at == at
            )
            assert snap.board == expected.board
            rows = info_rows(snap)
            if at == len(final.turns):  # the end: the pegs on the final scores, racks counted off
                assert [peg_number(snap, p) for p in range(3)] == list(final.outcome.final_scores)  # type: ignore[union-attr]
            else:
                assert [peg_number(snap, p) for p in range(3)] == list(expected.scores)
            if at == 0:
                assert snap.past is None and rows[0].left == "Round 1: the racks as dealt"
            else:
                record_turn = history[at - 1]
                assert snap.past is not None and snap.past.number == at - 1
                assert snap.past.board == record_turn.board_after
                who = "You" if record_turn.player == 0 else final.names[record_turn.player]
                if record_turn.score is not None:  # the breakdown as the game showed it
                    assert (
                        snap.past.score
                        == record_turn.score
                        == score_play(record_turn.board_before, record_turn.turn.move)
                    )  # type: ignore[arg-type]
                    whose = "Your" if who == "You" else f"{who}'s"
                    true, declared = record_turn.score.total, record_turn.declared
                    heading = f"Turn {at}: {whose} play was worth"
                    assert (rows[0].left, rows[0].right) == (heading, str(true))
                    # a recorded play is settled: its true score, and how the declaration stood against it
                    standing = (
                        f"declared {declared}, {true - declared} unclaimed"
                        if declared < true
                        else f"declared {declared}, all it scores"
                    )
                    assert rows[1].left == standing
                    spec = [(left, right) for left, right, *_ in score_rows(record_turn.score, heading)]
                    assert [(r.left, r.right) for r in rows[2 : len(spec) + 1]] == spec[1:]
                    called = [r.left for r in rows if r.turn is None and "called Joker" in r.left]
                    assert len(called) == len(record_turn.calls)
                else:
                    assert rows[0].left.startswith(f"Turn {at}: {who} ")
            # the turn list marks the turn shown
            listed = [r for r in rows if r.turn is not None]
            if listed:  # (a long breakdown may leave it no room)
                assert [r.turn for r in listed if r.colour == GOLD] == ([at - 1] if at else [])
                lists += 1
            post_key(pygame.K_RIGHT)
            frames(app)
        assert scene.at == len(final.turns)  # Right at the end stays there
        # at 1280 x 800 the rules strip and a settled Joker play's "declared N, ..." row take two rows of
        # the panel: a long breakdown of this game leaves the list no room on about half of its turns
        assert lists > len(final.turns) // 3
    finally:
        app.close()


def test_keys_and_clicks_move_through_the_game_and_escape_closes() -> None:
    table = played("You,medium", "", 8)
    n = len(table.state.turns)
    closed = Closed()
    app, scene = open_replay(table, closed)
    try:
        post_key(pygame.K_END)
        frames(app)
        assert scene.at == n
        post_key(pygame.K_PAGEUP)
        frames(app)
        assert scene.at == n - 5
        post_key(pygame.K_HOME)
        post_key(pygame.K_PAGEDOWN)
        post_key(pygame.K_SPACE)
        post_key(pygame.K_LEFT)
        frames(app)
        assert scene.at == 5
        for key in (pygame.K_1, pygame.K_2, pygame.K_RETURN):  # a turn number typed: jump to it
            post_key(key)
        frames(app)
        assert scene.at == 12 and scene.typed == ""
        rows = [r for r in info_rows(scene.snapshot()) if r.turn is not None]
        target = rows[-1]  # a click on a turn of the list: the board right after it
        post_click(centre(target.rect))
        frames(app)
        assert scene.at == target.turn + 1  # type: ignore[operator]
        snap = scene.snapshot()
        buttons = {name: (rect, enabled) for name, rect, _, enabled in (*replay_buttons(snap), *rack_buttons(snap))}
        post_click(centre(buttons["start"][0]))
        frames(app)
        assert scene.at == 0 and not replay_buttons(scene.snapshot())[0][3]  # Back is dimmed at the start
        post_click(centre(buttons["next"][0]))
        post_click(centre(buttons["next"][0]))
        frames(app)
        assert scene.at == 2
        post_key(pygame.K_TAB)  # the other seat's rack
        frames(app)
        snap = scene.snapshot()
        assert snap.human == 1 and snap.draft.tiles == tuple(t.rack_form for t in scene.state.racks[1])
        post_key(pygame.K_e)
        frames(app)
        assert closed.exported == [table] and "crib-1.json" in scene.snapshot().toasts[-1]
        post_key(pygame.K_ESCAPE)
        frames(app)
        assert closed.times == 1
    finally:
        app.close()


def test_an_export_that_fails_is_told_in_words() -> None:
    table = played("You,medium", "", 2)

    def full(_: Table) -> str:
        raise OSError(28, "No space left on device")

    app = App(None, Preferences(speed="instant"), NoKeeper(), size=(1280, 800))
    try:
        scene = ReplayScene(app, table, lambda: None, full)
        app.scenes.append(scene)
        post_key(pygame.K_e)
        frames(app)
        assert scene.snapshot().toasts == ("The record could not be written: [Errno 28] No space left on device",)
        bare = ReplayScene(app, table, lambda: None)
        assert not bare.snapshot().replay.can_export  # type: ignore[union-attr]
        bare.export()
        assert "cannot be exported" in bare.toasts[-1].text
    finally:
        app.close()


def test_a_match_is_stepped_across_its_rounds() -> None:
    table = played("You,medium", "rounds=3", 6)
    rounds = (*table.match.finished, table.match.game)
    assert len(rounds) == 3
    app, scene = open_replay(table, Closed())
    try:
        post_key(pygame.K_END)
        frames(app)
        assert scene.round == 0 and scene.at == len(rounds[0].turns)
        post_key(pygame.K_RIGHT)  # past the end of round 1: round 2 as dealt
        frames(app)
        snap = scene.snapshot()
        assert (scene.round, scene.at) == (1, 0)
        assert scene.state.seed == round_seed(table.match.seed, 1) and not snap.state.turns
        assert snap.match is not None and snap.match.finished == tuple(
            public_of(r) for r in rounds[:1]
        )  # the running totals so far
        post_key(pygame.K_LEFT)  # and back to the end of round 1
        frames(app)
        assert (scene.round, scene.at) == (0, len(rounds[0].turns))
        post_key(pygame.K_RIGHTBRACKET)
        post_key(pygame.K_RIGHTBRACKET)
        post_key(pygame.K_END)
        frames(app)
        snap = scene.snapshot()
        assert (scene.round, scene.at) == (2, len(rounds[2].turns))
        assert snap.state == public_of(rounds[2]) and snap.match is not None and snap.match.is_over
        assert snap.match.totals == table.match.totals
        assert snap.replay is not None and not replay_buttons(snap)[1][3]  # Next is dimmed at the very end
        post_key(pygame.K_LEFTBRACKET)
        frames(app)
        assert (scene.round, scene.at) == (1, 0)
    finally:
        app.close()


def test_tab_shows_another_rack_without_renaming_the_players(monkeypatch: pytest.MonkeyPatch) -> None:
    from cribtiles.ui import art

    drawn: list[str] = []
    real = art.text

    def text(s: str, size: int, colour: tuple[int, int, int]) -> pygame.Surface:
        drawn.append(s)
        return real(s, size, colour)

    monkeypatch.setattr(art, "text", text)
    table = played("You,medium", "", 8)
    app, scene = open_replay(table, Closed())
    try:
        post_key(pygame.K_END)
        frames(app)
        seen = []
        for _ in range(3):  # You's rack, Medium's, and You's again
            snap = scene.snapshot()
            drawn.clear()
            scene.draw(app.screen, full=True)
            turns = [r.left.split(":")[0] for r in info_rows(snap) if r.turn is not None]
            listed = [d for d in drawn if d.startswith(("You:", "Medium:"))]  # the turn list as drawn
            seen.append((snap.human, [seat_name(snap, p) for p in (0, 1)], turns, listed))
            post_key(pygame.K_TAB)
            frames(app)
        assert [s[0] for s in seen] == [0, 1, 0]  # the rack shown goes round the seats
        assert all(s[1:] == (["You", "Medium"], seen[0][2], seen[0][3]) for s in seen)
        assert set(seen[0][2]) == {"You", "Medium"}  # the turn list names both, the same way each time
        assert seen[0][3] and all(t.split(":")[0] in ("You", "Medium") for t in seen[0][3])
    finally:
        app.close()

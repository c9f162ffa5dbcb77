"""Every way to play, a whole game (or match) through posted pygame events in the headless window:
people in turn with the curtain, bots, Joker, a Servant match, Solitaire both ways."""

from __future__ import annotations

from pathlib import Path

import pytest

from cribtiles.app.selftest import MODES, play_mode
from cribtiles.app.storage import Store
from cribtiles.table.settings import Preferences


@pytest.mark.parametrize(("players", "rules", "what"), MODES, ids=[m[2].split(":")[0] for m in MODES])
def test_every_way_to_play_goes_to_its_end_through_the_window(
    players: str, rules: str, what: str, tmp_path: Path
) -> None:
    app = play_mode(Store(tmp_path), Preferences(speed="instant"), players, rules, what)
    table = app.session.table  # type: ignore[attr-defined]
    assert table.match_over and table.state.outcome is not None
    assert len(table.seats) == len(players.split(","))
    people = [s for s in table.seats if s.is_person]
    turns_by_person = {p: sum(1 for t in table.state.turns if t.player == p) for p in table.people}
    assert all(n > 0 for n in turns_by_person.values()) and len(people) == len(turns_by_person)  # each person played
    if "rounds=3" in rules:
        assert len(table.match.finished) == 2 and table.match.servant  # a Servant after each round
    if "solitaire" in rules:
        assert [s.name for s in table.seats] == ["Dark", "Light"]


def test_a_table_of_bots_is_watched_to_its_end_and_takes_no_move_from_the_window(tmp_path: Path) -> None:
    from cribtiles.rules import RuleOptions
    from cribtiles.table import parse_players
    from cribtiles.table.tiles.table import Table
    from cribtiles.ui.window import App

    table = Table.new(parse_players("easy,beginner"), RuleOptions.parse("mode=solitaire"), seed=3)
    app = App(table, Preferences(speed="instant"), Store(tmp_path), size=(1280, 800))
    try:
        for _ in range(20_000):
            app.frame(1 / 60)
            snap = app.game.snapshot()
            assert not snap.my_turn and not (snap.buttons.can_play or snap.buttons.can_pass)
            if table.round_over:
                break
        assert table.round_over and [s.name for s in table.seats] == ["Dark", "Light"]
    finally:
        app.close()

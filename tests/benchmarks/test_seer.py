"""The seers of `benchmarks/*/bench_seer.py` (issue 47) really see: every world the tile seer's search
draws is the table's true state, the rack-only seer's holds the true racks and a bag drawn at random, the
kept-tiles seer's holds the tiles the other kept at its last turn and draws the rest, and the cribbage
seer's guess, crib and starter are the table's."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from cribtiles.bot.cribbage.discard import rank_points, splits
from cribtiles.bot.cribbage.levels import make_cribbage_bot
from cribtiles.bot.tiles.levels import make_bot
from cribtiles.cribbage.game import new_game as new_cribbage_game
from cribtiles.cribbage.options import Phase
from cribtiles.cribbage.show import score_show
from cribtiles.rules.game import GameState, PlayerView
from cribtiles.rules.moves import Exchange, Pass
from cribtiles.rules.options import ExchangeRule, RuleOptions
from cribtiles.table.cribbage.table import CribbageTable
from cribtiles.table.seats import Seat
from cribtiles.table.tiles.table import Table

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def bench(name: str) -> ModuleType:
    """The benchmark `name` (as `tiles/bench_seer`) imported as a module, beside the shared harness."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location(name.replace("/", "_"), BENCHMARKS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # its dataclasses look their module up while being made
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCHMARKS))
    return module


def tile_table(turns: int) -> Table:
    """A two-player table after `turns` turns of Hard against Hard (seed 3)."""
    table = Table.new([Seat("Seer", "expert"), Seat("Hard", "hard")], seed=3)
    hard = make_bot("hard")
    for turn in range(turns):
        request = table.bot_request()
        table.play_bot(hard.choose(request.view, random.Random(turn)), request)
    return table


class Spy:
    """Records every world the search draws (a mixin before the seer)."""

    seen: list[GameState]

    def guess(self, view: PlayerView, rng: random.Random, inferred: Any) -> GameState:
        world: GameState = super().guess(view, rng, inferred)  # type: ignore[misc]
        self.seen.append(world)
        return world


class Ticks:
    """A clock that moves a millisecond each time it is read: the search's budget counts its own steps, so
    what it draws does not hang on how busy the machine is."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.001
        return self.now


def test_every_world_the_seers_search_draws_is_the_truth() -> None:
    module = bench("tiles/bench_seer")
    table = tile_table(6)
    truth = table.state
    view = table.view(truth.current)
    spy = type("SpySeer", (Spy, module.Seer), {})(budget=0.2, clock=Ticks(), table=table, told="seer")
    spy.seen = []
    spy.choose(view, random.Random(1))
    assert spy.seen and all(world is truth for world in spy.seen)
    assert truth.racks[1 - view.player] != view.rack and truth.bags[0]  # there was something hidden to be told


def test_the_rack_only_seer_is_told_the_racks_and_draws_the_bag() -> None:
    module = bench("tiles/bench_seer")
    table = tile_table(6)
    truth = table.state
    view = table.view(truth.current)
    spy = type("SpySeer", (Spy, module.Seer), {})(budget=0.2, clock=Ticks(), table=table, told="racks")
    spy.seen = []
    spy.choose(view, random.Random(1))
    assert len(spy.seen) > 1
    for world in spy.seen:
        assert world.racks == truth.racks
        assert sorted(world.bags[0]) == sorted(truth.bags[0])
    assert len({world.bags for world in spy.seen}) > 1  # drawn anew each round
    assert all(world.bags != truth.bags for world in spy.seen)  # ~1 in 10^40 to meet the true order


def test_the_kept_tiles_seer_is_told_what_the_other_kept_and_draws_the_rest() -> None:
    module = bench("tiles/bench_seer")
    table = tile_table(6)
    truth = table.state
    view = table.view(truth.current)
    other = 1 - view.player
    last = truth.turns[-1]
    assert last.player == other and last.is_play and last.drawn > 0  # it kept some tiles and drew others
    kept = module.kept_at_last_turn(truth, view.player)
    assert set(kept) == {other} and len(kept[other]) == len(truth.racks[other]) - last.drawn
    spy = type("SpySeer", (Spy, module.Seer), {})(budget=0.2, clock=Ticks(), table=table, told="kept")
    spy.seen = []
    spy.choose(view, random.Random(1))
    assert len(spy.seen) > 1
    for world in spy.seen:
        rack = list(world.racks[other])
        for t in kept[other]:
            rack.remove(t)  # every world holds the tiles kept
        assert sorted(world.racks[other] + world.bags[0]) == sorted(truth.racks[other] + truth.bags[0])
    assert len({world.racks[other] for world in spy.seen}) > 1  # and draws the rest anew each round


def test_the_tiles_kept_are_read_from_the_record_whatever_the_move() -> None:
    module = bench("tiles/bench_seer")
    options = RuleOptions(exchange=ExchangeRule.ANY_TIME)  # a pass or an exchange with a play on the board
    table = Table.new([Seat("Seer", "expert"), Seat("Hard", "hard")], options, seed=3)
    first = table.state
    assert module.kept_at_last_turn(first, first.current) == {}  # nobody has had a turn
    table.play_bot(Pass(), table.bot_request())  # a pass keeps the whole rack
    state = table.state
    assert module.kept_at_last_turn(state, state.current) == {first.current: first.racks[first.current]}
    swap = Exchange.of(state.racks[state.current][:2])
    table.play_bot(swap, table.bot_request())  # an exchange keeps what it did not give back
    kept = module.kept_at_last_turn(table.state, first.current)
    rack = list(state.racks[state.current])
    for t in swap.tiles:
        rack.remove(t)
    assert kept == {state.current: tuple(rack)} and len(rack) == 3


def test_the_expert_itself_draws_worlds_from_the_view() -> None:
    module = bench("tiles/bench_seer")
    table = tile_table(6)
    truth = table.state
    view = table.view(truth.current)
    expert = module.Seat("expert", 0.05, "cpu")("expert", table)
    spy = type("SpyExpert", (Spy, type(expert)), {})(budget=0.2, clock=Ticks())
    spy.seen = []
    spy.choose(view, random.Random(1))
    assert spy.seen and all(world.racks[1 - view.player] != truth.racks[1 - view.player] for world in spy.seen[:3])


def cribbage_table(moves: int) -> CribbageTable:
    """A cribbage table after `moves` of Hard against Hard (seed 5)."""
    table = CribbageTable(new_cribbage_game(5, ("Seer", "Hard")), seats=[Seat("Seer", "expert"), Seat("Hard", "hard")])
    hard = make_cribbage_bot("hard")
    for move in range(moves):
        request = table.bot_request()
        table.play_bot(hard.choose(request.view, random.Random(move)), request)
    return table


def test_the_cribbage_seer_is_told_the_hand_the_crib_and_the_starter() -> None:
    module = bench("cribbage/bench_seer")
    table = cribbage_table(0)
    state = table.state
    pone = state.current_player
    assert pone is not None and state.phase is Phase.DISCARD
    view = table.view(pone)
    truth = module.Truth(table)
    assert truth.hand(view, 48, random.Random(1)) == [tuple(sorted(c.rank for c in state.hands[1 - pone]))]
    # laying first, the seer takes the dealer's two to be those Hard's discard lays from the dealer's six
    theirs = make_cribbage_bot("hard").choose(table.view(1 - pone), random.Random(2))
    assert truth.their_laid(view, random.Random(3)) == theirs.cards
    # its discard is the best of the fifteen on the true starter and the true crib (the pone's crib is the dealer's)
    starter = state.stock[0]

    def worth(split: Any) -> int:
        crib = score_show((*split.discarded, *theirs.cards), starter, True).total
        return score_show(split.kept, starter).total - crib

    chosen = truth.discard(view, random.Random(4))
    assert worth(chosen) == max(worth(s) for s in splits(view.hand))
    # in the play, each line ends on the true crib
    while table.state.phase is not Phase.PLAY:
        request = table.bot_request()
        table.play_bot(make_cribbage_bot("hard").choose(request.view, random.Random(0)), request)
    state = table.state
    assert state.starter is not None
    seat = state.current_player
    assert seat is not None
    view = table.view(seat)
    four = (1, 2, 3, 4)
    leaf = truth.leaf(view, four, module.default_win_odds())
    crib = score_show(state.crib, state.starter, True).total
    mine = score_show(view.kept, state.starter).total
    theirs = rank_points((*four, state.starter.rank))
    if state.dealer == seat:  # needing just its hand and the true crib it wins (the pone needing 200 cannot first)
        assert leaf(mine + crib, 200) == 1.0
        assert leaf(mine + crib + 1, 200) < 1.0
    else:  # the dealer needing just their hand and the true crib wins
        assert leaf(mine + 1, theirs + crib) == 0.0
        assert leaf(mine + 1, theirs + crib + 1) > 0.0


def test_the_cribbage_phases_split_each_pairs_edge_into_pegging_and_the_show() -> None:
    module = bench("cribbage/bench_seer")
    arena = module.arena

    def game(peg: tuple[int, int], show: tuple[int, int], deals: int) -> Any:
        seats = tuple(
            arena.SeatResult(
                bot=b,
                final=0,
                won=b == 0,
                margin=None,
                peg_points=peg[b],
                show_points=show[b],
                deals=deals,
                decision_seconds=(),
                failures=0,
            )
            for b in (0, 1)
        )
        return arena.GameResult(game=0, seed=0, seats=seats, moves=())

    # a pair: +4 pegging over 4 deals and -2 in the show; then +2 pegging over 2 deals and +6 in the show
    nets = module.phase_nets([game((10, 6), (20, 22), 4), game((5, 3), (16, 10), 2)])
    peg, show = module.PHASES
    assert nets == [{peg: (1.0 + 1.0) / 2, show: (-0.5 + 3.0) / 2}]
    base = [{peg: 0.5, show: 1.0}, {peg: 0.0, show: 0.0}]
    figures = module.seer.phase_figures(module.PHASES, [*nets, {peg: 1.0, show: 0.0}], base)
    assert figures[peg]["net"] == 1.0
    assert figures[peg]["gain_over_first"]["mean"] == (0.5 + 1.0) / 2
    assert figures[show]["gain_over_first"]["mean"] == (0.25 + 0.0) / 2
    assert "gain_over_first" not in module.seer.phase_figures(module.PHASES, nets, None)[show]


def test_a_tile_games_points_by_phase_add_up_to_its_final_scores() -> None:
    module = bench("tiles/bench_seer")
    arena = module.arena
    setup = arena.Arena(("medium", "easy"), 1, 7, module.RuleOptions(), 0.05, "cpu")
    game = arena.play_game(setup, 0, 1)
    points = module.points_by_phase(game, arena.game_seed(7, 0))
    assert [sum(p.values()) for p in points] == [s.final for s in game.seats]
    assert all(p["racks left"] <= 0 for p in points)  # tiles left on a rack are taken off
    assert sum(p["opening"] for p in points) > 0  # the first play's bonus at least
    state = module.new_game(2, module.RuleOptions(), arena.game_seed(7, 0))
    assert module.phase_of(state.bag_size(), state.bag_size()) == "opening"


class Counted:
    """A seed's games as a worker plays them, counting each time it is asked to play."""

    def __init__(self) -> None:
        self.played: list[int] = []

    def __call__(self, index: int) -> list[str]:
        self.played.append(index)
        return [f"game {2 * index}", f"game {2 * index + 1}"]


def test_kept_games_are_played_once_and_read_back_after_a_stop(tmp_path: Path) -> None:
    seer = bench("seer")
    folder = seer.kept_folder(str(tmp_path), "tiles", "seer:1.5-cpu", 1)
    assert folder == tmp_path / "tiles" / "seer_1.5-cpu-seed1"
    play = Counted()
    kept = seer.Kept(play, folder)
    assert [kept(i) for i in range(2)] == [["game 0", "game 1"], ["game 2", "game 3"]]
    assert seer.kept_count(folder) == 2
    again = Counted()
    games = [seer.Kept(again, folder)(i) for i in range(3)]
    assert games == [["game 0", "game 1"], ["game 2", "game 3"], ["game 4", "game 5"]]
    assert again.played == [2]  # only the seed not kept before
    assert sorted(p.name for p in folder.iterdir()) == ["seed-0.pickle", "seed-1.pickle", "seed-2.pickle"]


def test_a_damaged_kept_file_is_played_again(tmp_path: Path) -> None:
    seer = bench("seer")
    folder = tmp_path / "kept"
    folder.mkdir()
    (folder / "seed-0.pickle").write_bytes(b"\x80\x04 not a pickle")
    (folder / "seed-1.pickle").write_bytes(b"")
    play = Counted()
    kept = seer.Kept(play, folder)
    assert kept(0) == ["game 0", "game 1"] and kept(1) == ["game 2", "game 3"]
    assert play.played == [0, 1]
    assert seer.Kept(Counted(), folder)(0) == ["game 0", "game 1"]


def test_without_keep_every_seed_is_played() -> None:
    seer = bench("seer")
    play = Counted()
    assert seer.kept_folder(None, "cribbage", "seer", 1) is None
    kept = seer.Kept(play, None)
    kept(0), kept(0)
    assert play.played == [0, 0]

"""The review of a game: every turn of every player against the best move found, from that player's
own view. Every best play is legal where it was to be made and scores what the review says; the move
played and its score are the record's; the scores series is the game's own; a seed reproduces a
review; the budget of each turn is kept (measured by a fake clock)."""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence

import pytest

from cribtiles.bot import coach
from cribtiles.bot.tiles.endgame import rack_value
from cribtiles.bot.tiles.equity import rank_plays
from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.bot.tiles.leave import default_leave
from cribtiles.bot.tiles.levels import make_bot
from cribtiles.rules.game import END_OUT, GameState
from cribtiles.rules.movegen import legal_plays, scored_plays
from cribtiles.rules.moves import Exchange, Move, Pass, Play
from cribtiles.rules.options import RuleOptions
from cribtiles.rules.scoring import score_play
from cribtiles.table import parse_players
from cribtiles.table.tiles.history import history_of
from cribtiles.table.tiles.review import (
    LEAST_ROUNDS,
    Method,
    Review,
    TurnReview,
    candidate_moves,
    positions,
    review_table,
    review_turn,
)
from cribtiles.table.tiles.table import Table, state_before


class FakeClock:
    """Seconds that pass only when asked: `step` at every reading, and `advance` by hand."""

    def __init__(self, step: float = 0.0) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def bot_game(players: str = "hard,medium", rules: str = "", seed: int = 7) -> Table:
    """A finished game (or match) between bots, each move from its request's seed."""
    table = Table.new(parse_players(players), RuleOptions.parse(rules), seed)
    while True:
        while not table.round_over:
            request = table.bot_request()
            table.play_bot(make_bot(request.level).choose(request.view, random.Random(request.seed)), request)
        if table.match_over:
            return table
        table.next_round()


def people_game(rules: str = "exchange=any-time,joker=on", seed: int = 3) -> Table:
    """A finished game of two people who sometimes exchange or pass while they have a play, and
    sometimes declare less than a play scores (under the Joker rule)."""
    table = Table.new(parse_players("Ann,Ben"), RuleOptions.parse(rules), seed)
    rng = random.Random(seed)
    while not table.round_over:
        state = table.state
        view = table.view(state.current)
        move: Move = greedy_move(view, rng)
        if state.may_pass() and rng.random() < 0.25:
            rack = state.racks[state.current]
            n = min(len(rack), state.bag_size(state.current), rng.randint(1, 3))
            move = Exchange.of(rng.sample(rack, n)) if n else Pass()
        declared = None
        if isinstance(move, Play) and table.options.joker and rng.random() < 0.3:
            declared = max(0, score_play(state.board, move).total - 2)
        table.play(move, declared)
        other = 1 - state.current
        if table.may_call(other) and rng.random() < (0.8 if declared is not None else 0.1):
            table.call_joker(other)  # a true call takes the points left; a false one loses 5
    return table


def rounds_of(table: Table) -> tuple[GameState, ...]:
    return (*table.match.finished, table.match.game)


@pytest.fixture(scope="module")
def hard_medium() -> tuple[Table, Review]:
    """A Hard v Medium game reviewed with the real rollouts, on a clock that moves 0.01 s a reading."""
    table = bot_game()
    return table, review_table(table, 0.3, FakeClock(0.01), random.Random(1))


@pytest.fixture(scope="module")
def people() -> tuple[Table, Review]:
    table = people_game()
    return table, review_table(table, 0.3, FakeClock(0.01), random.Random(2))


def assert_best_is_legal_and_scores_what_it_says(t: TurnReview) -> None:
    if isinstance(t.best, Play):
        assert score_play(t.board_before, t.best).total == t.best_score
        assert t.best in legal_plays(t.board_before, t.rack)
    else:
        assert t.best_score == 0
        if isinstance(t.best, Exchange):
            assert not Counter(t.best.tiles) - Counter(x.rack_form for x in t.rack), (t.best, t.rack)


@pytest.mark.parametrize("which", ["hard_medium", "people"])
def test_every_best_play_is_legal_in_its_position_and_scores_what_it_says(
    which: str, request: pytest.FixtureRequest
) -> None:
    _, review = request.getfixturevalue(which)
    assert any(t.best != t.played for t in review.turns)  # the review found better moves somewhere
    for t in review.turns:
        assert_best_is_legal_and_scores_what_it_says(t)


@pytest.mark.parametrize("which", ["hard_medium", "people"])
def test_each_turn_is_the_record_s_move_with_its_score_and_losses_are_measured_from_the_best(
    which: str, request: pytest.FixtureRequest
) -> None:
    table, review = request.getfixturevalue(which)
    records = history_of(table.state)
    assert len(review.turns) == len(records) == len(table.state.turns)
    for t, record in zip(review.turns, records, strict=True):
        assert (t.round, t.number, t.player) == (0, record.number, record.player)
        assert t.played == record.turn.move
        assert t.played_score == record.turn.points
        assert t.board_before == record.board_before
        assert t.rack == state_before(table.state, t.number).racks[t.player]
        assert t.value_lost >= 0
        # the best may be valued a little below the move played when the continuations cannot tell
        # them apart and it scores more now: then nothing is lost in evaluation
        assert t.value_lost == pytest.approx(max(0.0, t.best_value - t.played_value))
        if t.best_value < t.played_value - 1e-9:
            assert t.best_score > t.played_score
        assert t.points_lost == t.best_score - t.played_score
        if t.is_best:  # nothing lost, but for what a play declared short left unclaimed
            assert t.value_lost == 0
            assert (
                t.points_lost
                == (score_play(t.board_before, t.best).total if isinstance(t.best, Play) else 0) - t.played_score
            )


def test_exchanges_passes_and_under_declared_plays_are_reviewed(people: tuple[Table, Review]) -> None:
    _, review = people
    kinds = Counter(type(t.played).__name__ for t in review.turns)
    assert kinds["Exchange"] + kinds["Pass"] >= 3, kinds
    # an exchange made while a play was there: the review weighs the plays too
    swapped = [t for t in review.turns if not isinstance(t.played, Play) and legal_plays(t.board_before, t.rack)]
    assert swapped
    assert any(isinstance(t.best, Play) for t in swapped)
    # a play declared short is reviewed at what it earned
    short = [
        t
        for t in review.turns
        if isinstance(t.played, Play) and t.played_score < score_play(t.board_before, t.played).total
    ]
    assert short


def test_the_scores_series_is_the_game_s_own(people: tuple[Table, Review]) -> None:
    table, review = people
    state = table.state
    assert state.calls  # Joker calls change the scores between turns: they are in the series
    assert len(review.scores) == len(state.turns)
    for i in range(len(state.turns) - 1):
        assert review.scores[i] == state_before(state, i + 1).scores, i
    assert review.scores[-1] == state.scores
    assert review.finals == (state.final_scores(),)
    assert review.names == ("Ann", "Ben") and review.complete


def test_a_match_is_reviewed_round_by_round_and_its_scores_start_again_each_round() -> None:
    table = bot_game("medium,medium", "rounds=2", seed=11)
    review = review_table(table, 0.0, FakeClock(1e-3), random.Random(0))
    games = rounds_of(table)
    assert len(games) == 2
    assert [t.round for t in review.turns] == [r for r, g in enumerate(games) for _ in g.turns]
    assert review.finals == tuple(g.final_scores() for g in games)
    first = len(games[0].turns)
    assert review.scores[first - 1] == games[0].scores and review.scores[-1] == games[1].scores
    assert sum(review.scores[first]) == review.turns[first].played_score  # the second round starts at 0
    for t in review.turns:
        assert_best_is_legal_and_scores_what_it_says(t)


def test_a_seed_reproduces_a_review_and_another_seed_draws_other_guesses(monkeypatch: pytest.MonkeyPatch) -> None:
    table = bot_game(seed=4)

    def run(seed: int) -> Review:
        clock = FakeClock(2e-4)
        monkeypatch.setattr(coach, "rollout", guess_dependent_rollout(clock))
        return review_table(table, 0.2, clock, random.Random(seed))

    first = run(9)
    assert run(9) == first
    other = run(10)
    assert [t.played_value for t in other.turns] != [t.played_value for t in first.turns]


def guess_dependent_rollout(clock: FakeClock, seconds: float = 0.01) -> Callable[..., float]:
    """A stand-in for the Expert's rollout that takes `seconds` of the fake clock and whose value
    depends on the guessed racks (so on the random generator) and on the move."""

    def rollout(guess: GameState, move: Move, me: int, leave: object) -> float:
        clock.advance(seconds)
        hidden = sum(t.rank * (i + 1) for p, rack in enumerate(guess.racks) if p != me for i, t in enumerate(rack))
        return float(hidden % 13) + len(str(move)) / 10

    return rollout


@pytest.mark.parametrize("budget", [0.0, 0.25, 1.5])
def test_each_turn_keeps_its_budget(budget: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each rollout takes 0.01 s of the fake clock; a round is one for each move weighed. A turn takes
    its budget, or the LEAST_ROUNDS rounds it always gets when those take longer."""
    table = bot_game(seed=4)
    clock = FakeClock(2e-4)  # the endgame search reads the clock at every node: it must see time pass
    monkeypatch.setattr(coach, "rollout", guess_dependent_rollout(clock))
    marks: list[float] = []
    review = review_table(table, budget, clock, random.Random(0), lambda done, total: marks.append(clock.now))
    spent = [b - a for a, b in itertools.pairwise(marks)]
    assert len(spent) == len(review.turns)
    for t, took in zip(review.turns, spent, strict=True):
        # the least rounds: 0.01 s a rollout, and the fake clock's 2e-4 s at each of its readings
        least = LEAST_ROUNDS * len(t.weighed) * 0.0106 if t.method is Method.SIMULATED else 0.0
        assert took <= max(budget + 0.002, least + 0.002)
    simulated = [t for t in review.turns if t.method is Method.SIMULATED]
    if budget == 0.0:  # no time for any rollout: Hard's evaluation
        assert not simulated and all(t.samples == 0 for t in review.turns)
    else:
        assert simulated and min(t.samples for t in simulated) >= LEAST_ROUNDS
        assert all(t.samples == LEAST_ROUNDS or t.samples <= budget / 0.01 / 2 for t in simulated)
        if budget > 1.0:  # 1.5 s of 0.01 s rollouts: more rounds than the least
            assert max(t.samples for t in simulated) > LEAST_ROUNDS


def test_progress_counts_every_turn_in_order() -> None:
    table = bot_game("medium,medium", seed=2)
    calls: list[tuple[int, int]] = []
    review = review_table(table, 0.0, FakeClock(1e-3), random.Random(0), lambda d, t: calls.append((d, t)))
    n = len(review.turns)
    assert calls == [(d, n) for d in range(n + 1)]


def game_that_goes_out() -> Table:
    """The first Hard v Medium game, from seed 7 on, that ends with a player going out."""
    for seed in range(7, 47):
        table = bot_game(seed=seed)
        if table.state.outcome is not None and table.state.outcome.reason is END_OUT:
            return table
    raise AssertionError("no Hard v Medium game of seeds 7-46 ends with a player going out")


def test_the_endgame_is_searched_and_going_out_is_worth_the_opponent_s_rack() -> None:
    table = game_that_goes_out()
    state = table.state
    assert state.outcome is not None and state.outcome.reason is END_OUT
    found, _ = positions(state)
    last = found[-1]
    assert last.before.bag_size() == 0
    t = review_turn(last, 2.0, time.perf_counter, random.Random(0))
    assert t.method is Method.ENDGAME and t.exact
    other = 1 - t.player
    assert t.played_value == t.played_score + rack_value(state.racks[other])
    assert t.played_value == t.played_score + state.outcome.deductions[other]


def test_biggest_misses_are_the_turns_that_lost_most_biggest_first(hard_medium: tuple[Table, Review]) -> None:
    _, review = hard_medium
    misses = review.biggest_misses(5)
    assert 1 <= len(misses) <= 5
    losses = [t.value_lost for t in misses]
    assert losses == sorted(losses, reverse=True) and losses[-1] > 0
    assert max(t.value_lost for t in review.turns) == losses[0]
    everything = review.biggest_misses(len(review.turns))
    assert len(everything) == sum(1 for t in review.turns if t.value_lost > 0)
    assert review.biggest_misses(0) == ()


def test_the_totals_add_up_each_player_s_turns(hard_medium: tuple[Table, Review]) -> None:
    _, review = hard_medium
    totals = review.totals()
    assert [t.player for t in totals] == [0, 1]
    assert sum(t.turns for t in totals) == len(review.turns)
    for total in totals:
        mine: Sequence[TurnReview] = [t for t in review.turns if t.player == total.player]
        assert total.value_lost == pytest.approx(sum(t.value_lost for t in mine))
        assert total.best_found == sum(1 for t in mine if t.best == t.played)
        assert total.points_lost == sum(max(0, t.points_lost) for t in mine)


# --- the coach agrees with itself ---


@pytest.fixture(scope="module")
def missed() -> list[Table]:
    """Games in which an Easy player often misses the play scoring most (as a person might)."""
    return [bot_game("easy,medium", seed=s) for s in (1, 2, 3)]


def test_a_turn_weighs_each_play_once_and_always_the_plays_scoring_most(missed: list[Table]) -> None:
    leave = default_leave()
    for table in missed:
        for p in positions(table.state)[0]:
            view = p.before.view(p.before.current)
            ranked = rank_plays(view, leave)
            plays = scored_plays(view.board, view.rack)
            if not plays:
                continue
            moves = candidate_moves(view, p.move, ranked, leave)
            rack = tuple(view.rack)
            scores = {m: n for m, n in plays}
            keys = [coach.play_key(rack, m, scores.get(m, 0)) for m in moves]
            assert len(set(keys)) == len(keys), "a play and its colour order weighed as two"
            most = max(scores.values())
            weighed = sorted((scores[m] for m in moves if m in scores), reverse=True)
            rows = sorted((k[1] for k in {coach.play_key(rack, m, n) for m, n in plays}), reverse=True)  # type: ignore[misc]
            assert weighed[0] == most
            assert weighed[: coach.TOP_BY_SCORE] == rows[: coach.TOP_BY_SCORE]


def test_the_best_found_never_scores_less_than_a_play_it_weighed_unless_that_play_is_worse(
    missed: list[Table],
) -> None:
    for table in missed:
        review = review_table(table, 1e-6, FakeClock(1e-5), random.Random(4))
        simulated = [t for t in review.turns if t.method is Method.SIMULATED]
        assert simulated and all(t.samples == LEAST_ROUNDS for t in simulated)
        for t in review.turns:
            assert (t.played, t.played_score) == t.weighed[0][:2] or not isinstance(t.played, Play)
            assert any(m == t.best and n == t.best_score for m, n, _ in t.weighed)
            for move, score, value in t.weighed:
                if score > t.best_score:  # it scores more now: the evaluation must find it worse
                    assert value < t.best_value, (t.number, move, score, value, t.best, t.best_score, t.best_value)
        assert any(not t.is_best for t in review.turns)  # Easy missed plays the review found


def test_each_turn_says_what_its_plays_open_and_the_learned_value_of_what_they_leave(
    hard_medium: tuple[Table, Review],
) -> None:
    from cribtiles.bot.opens import opens_note, value_after

    table, review = hard_medium
    found, _ = positions(table.state)
    for t, position in zip(review.turns, found, strict=True):
        view = position.before.view(t.player)  # the player's own view at the time, nobody else's
        assert t.played_opens == (opens_note(view, t.played) or "")
        assert t.best_opens == (opens_note(view, t.best) or "")
        assert t.played_after is not None and t.best_after is not None  # two players: the value speaks
        if t.is_best:
            assert t.best_after == t.played_after
    assert any(t.played_opens for t in review.turns)
    # the moves' values are over the same guesses: a turn reviewed again gives the same figures
    t, position = review.turns[3], found[3]
    again = review_turn(position, 0.0, FakeClock(), random.Random(9))
    rng = random.Random(9)
    seed = rng.getrandbits(64)
    view = position.before.view(t.player)
    assert again.played_after == value_after(view, again.played, random.Random(seed))

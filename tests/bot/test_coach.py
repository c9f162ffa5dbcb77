"""The coach: its hint is the Hard bot's move, its candidates are legal and score what they say, in the
orders it promises; the tiles still out, the exchange advice, the note after a play and the Expert's
evaluation (within its budget, on a fake clock) are checked against the bots' and the engine's own."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from itertools import combinations, count

import pytest

from cribtiles.bot import coach
from cribtiles.bot.coach import (
    BY_EQUITY,
    BY_SCORE,
    HINT_SEED,
    Suggestion,
    after_play_note,
    all_candidates,
    candidates,
    describe,
    exchange_advice,
    expert_evaluate,
    hint,
    position_view,
    tiles_out,
)
from cribtiles.bot.tiles.equity import OPENING_CANDIDATES, HardBot, leave_equity, rank_plays
from cribtiles.bot.tiles.exchange import stuck_move
from cribtiles.bot.tiles.greedy import GreedyBot
from cribtiles.bot.tiles.leave import default_leave
from cribtiles.bot.tiles.sampling import determinize
from cribtiles.bot.tiles.simulate import rollout
from cribtiles.rules import (
    Board,
    Exchange,
    Play,
    PlayerView,
    RuleOptions,
    new_game,
    parse_move,
    parse_rack,
    score_play,
    scored_plays,
)
from cribtiles.rules.tiles import full_set


def positions(count_: int, seed: int = 0, rules: str = "", players: int = 2) -> list[PlayerView]:
    """Views of the player to move, from seeded games of the Medium bot stopped after 0-30 turns."""
    views = []
    rng = random.Random(seed)
    for game in range(count_):
        state = new_game(players, RuleOptions.parse(rules), seed=seed * 1000 + game)
        bot = GreedyBot()
        for _ in range(rng.randrange(0, 31)):
            if state.is_over:
                break
            state = state.apply(bot.choose(state.view(state.current), rng))
        if not state.is_over:
            views.append(state.view(state.current))
    return views


POSITIONS = positions(24, seed=1) + positions(6, seed=2, players=3) + positions(6, seed=3, rules="exchange=any-time")


def rack_of(s: Suggestion) -> Counter[object]:
    placed = s.move.tiles if isinstance(s.move, Play | Exchange) else ()
    return Counter(t.rack_form for t in (*s.kept, *placed))


# --- the hint ---


@pytest.mark.parametrize("i", range(len(POSITIONS)))
def test_the_hint_is_the_hard_bot_s_move(i: int) -> None:
    view = POSITIONS[i]
    for seed in (i, i + 100):
        suggestion = hint(view, random.Random(seed))
        move = HardBot().choose(view, random.Random(seed))
        if not scored_plays(view.board, view.rack):
            assert suggestion is None
            continue
        assert suggestion is not None and suggestion.move == move
    default = hint(view)
    if default is not None:
        assert default.move == HardBot().choose(view, random.Random(HINT_SEED))
        assert default == hint(view)  # the same position, the same hint
        if isinstance(default.move, Play):  # its figures are Hard's for that play
            hard = next(c for c in rank_plays(view, default_leave()) if c.move == default.move)
            assert (default.score, default.equity) == (hard.score, hard.equity)
            assert default.breakdown == score_play(view.board, default.move)
            top = candidates(view, top=1, by=BY_EQUITY)[0]
            assert default.equity == pytest.approx(top.equity, abs=1e-9)  # among the best, maybe not first


def test_there_is_no_hint_without_a_play() -> None:
    board = Board.empty().place(parse_move("f7=KL g7=KD").placements)  # type: ignore[union-attr]
    view = position_view(board, parse_rack("AD 2D 8L TD QD"))  # nothing of it joins a pair of kings
    assert scored_plays(view.board, view.rack) == []
    assert hint(view) is None and candidates(view) == []
    advice = exchange_advice(view)
    assert advice is not None and advice.move == stuck_move(view, default_leave())


def test_under_exchange_any_time_the_hint_may_be_hard_s_exchange() -> None:
    board = Board.empty().place(parse_move("f7=KL g7=KD").placements)  # type: ignore[union-attr]
    view = position_view(board, parse_rack("6L QD 6D 2L TL"), options=RuleOptions.parse("exchange=any-time"))
    assert scored_plays(view.board, view.rack)  # there are plays, and Hard exchanges all the same
    suggestion = hint(view)
    assert suggestion is not None and isinstance(suggestion.move, Exchange)
    assert suggestion.move == HardBot().choose(view, random.Random(HINT_SEED))
    assert suggestion.kept == parse_rack("6D") and suggestion.score == 0 and suggestion.breakdown is None
    assert suggestion.equity == suggestion.leave == pytest.approx(default_leave()(suggestion.kept))
    assert suggestion.words == f"exchange 2L 6L TL QD  0  keeps 6D (worth {suggestion.leave:+.1f})"
    advice = exchange_advice(view)
    assert advice is not None and advice.move == suggestion.move and advice.keep == suggestion.kept


# --- the candidates ---


@pytest.mark.parametrize("by", [BY_SCORE, BY_EQUITY])
def test_every_candidate_is_legal_and_scores_what_it_says(by: str) -> None:
    leave = default_leave()
    for view in POSITIONS[::2]:
        for s in candidates(view, top=12, by=by):
            assert isinstance(s.move, Play)
            result = score_play(view.board, s.move)  # raises if the play is illegal
            assert s.score == result.total and s.breakdown == result
            assert rack_of(s) == Counter(t.rack_form for t in view.rack)
            assert s.leave == pytest.approx(leave_equity(view, s.kept, leave))
            assert s.expert is None
            assert describe(s).startswith(f"{s.move}  {s.score}  ") and s.words == describe(s)


def _distinct_scores(view: PlayerView) -> list[int]:
    """The score of every legal play, a play and its colour orders of equal ranks counted once."""
    keys = {coach.play_key(view.rack, p, n) for p, n in scored_plays(view.board, view.rack)}
    return sorted((k[1] for k in keys), reverse=True)  # type: ignore[misc]


def test_by_score_the_candidates_are_the_best_scores_ties_by_notation() -> None:
    for view in POSITIONS:
        found = candidates(view, top=15, by=BY_SCORE)
        assert [s.score for s in found] == _distinct_scores(view)[:15]
        keys = [(-s.score, s.notation) for s in found]
        assert keys == sorted(keys) and len(set(keys)) == len(keys)


def test_by_equity_the_candidates_are_in_the_hard_bot_s_order() -> None:
    for view in POSITIONS:
        ranked = rank_plays(view, default_leave())
        every = all_candidates(view, BY_EQUITY)
        assert sorted(s.notation for s in every) == sorted(str(c.move) for c in ranked)
        assert {s.notation: s.equity for s in every} == {str(c.move): c.equity for c in ranked}
        looked_at = {str(c.move) for c in ranked[:OPENING_CANDIDATES]}
        head, tail = every[: len(looked_at)], every[len(looked_at) :]
        assert {s.notation for s in head} == looked_at  # Hard's closer look first, then the others
        for part in (head, tail):
            keys = [(-s.equity, s.notation) for s in part]
            assert keys == sorted(keys)
        shown = candidates(view, top=7, by=BY_EQUITY)
        rows = coach.distinct(every, view.rack)
        assert [s.move for s in shown] == [s.move for s in rows if s.move in {t.move for t in shown}]
        if rows:
            assert shown[0].move == rows[0].move  # Hard's own choice first
            # Hard's best rows, but room is made for the rows scoring most now
            best_scores = sorted((s.score for s in rows[1:]), reverse=True)[: coach.TOP_BY_SCORE]
            assert sorted((s.score for s in shown[1:]), reverse=True)[: len(best_scores)] == best_scores
            assert len(shown) == min(7, len(rows))


def test_the_first_play_of_the_rule_book_is_found_with_its_breakdown() -> None:
    view = position_view(Board.empty(), parse_rack("AL 2L 3L 4L 5L"))
    best = candidates(view, top=3, by=BY_SCORE)[0]
    assert best.score == 37 and best.kept == ()  # 7 + first play + five tiles + one colour
    assert best.breakdown is not None
    assert sorted(str(b.kind) for b in best.breakdown.bonuses) == ["first play", "five tiles", "one colour"]
    three = Suggestion(parse_move("f7=4L g7=5D h7=6L"), 15, (), 0.0, 15.0)
    three = replace(three, breakdown=score_play(Board.empty(), three.move))  # type: ignore[arg-type]
    assert describe(three) == "f7=4L g7=5D h7=6L  15  row 7 (4 5 6) 5: fifteen 2, run 3; first play +10"


def test_a_bad_ordering_or_count_is_refused() -> None:
    view = POSITIONS[0]
    with pytest.raises(ValueError, match="score or equity"):
        candidates(view, by="luck")
    with pytest.raises(ValueError, match="at least one"):
        candidates(view, top=0)


# --- the tiles still out ---


def test_the_tiles_out_are_the_unseen_tiles_with_6_and_9_pooled() -> None:
    for view in POSITIONS:
        out = tiles_out(view)
        assert len(out) == 24 and all(t.rank != 9 for t in out)
        unseen = Counter(t.rack_form for t in view.unseen)
        assert {(t.rank, t.colour): t.count for t in out if t.count} == {
            (t.rank, t.colour): n for t, n in unseen.items()
        }
        assert sum(t.count for t in out) == len(view.unseen) == sum(view.rack_sizes) - len(view.rack) + view.bag_size
    start = tiles_out(new_game(2, seed=4).view(0))
    assert sum(t.count for t in start) == 104 - 5
    six_nine = [t for t in start if t.rank == 6]
    assert [t.label for t in six_nine] == ["6/9", "6/9"] and {t.of for t in six_nine} == {8}
    assert {t.of for t in start if t.rank != 6} == {4}


# --- the exchange advisor ---


def test_the_exchange_advice_keeps_the_best_valued_tiles() -> None:
    leave = default_leave()
    anytime = RuleOptions.parse("exchange=any-time")
    for view in POSITIONS:
        view = replace(view, options=anytime)
        advice = exchange_advice(view)
        most = min(len(view.rack), 5, view.bag_size)
        if most == 0:
            assert advice is None
            continue
        assert advice is not None
        keeps = [k for n in range(len(view.rack) - most, len(view.rack)) for k in combinations(sorted(view.rack), n)]
        assert advice.value == pytest.approx(max(leave(k) for k in keeps))
        assert advice.value == pytest.approx(leave(advice.keep))
        assert Counter(advice.throw) + Counter(advice.keep) == Counter(t.rack_form for t in view.rack)
        assert advice.move == Exchange.of(advice.throw) == stuck_move(view, leave)
        assert f"{advice.value:+.1f}" in advice.why and str(advice.throw[0]) in advice.why


def test_no_exchange_is_advised_with_a_play_in_hand_or_an_empty_bag() -> None:
    view = position_view(Board.empty(), parse_rack("4L 5D 6L KD 9D"))
    assert exchange_advice(view) is None  # when-stuck, and there is a play
    anytime = replace(view, options=RuleOptions.parse("exchange=any-time"))
    assert exchange_advice(anytime) is not None
    assert exchange_advice(replace(anytime, bag_sizes=(0,))) is None


# --- after a play ---


def test_the_note_after_a_play_names_the_best_play_by_score() -> None:
    notes = 0
    for view in POSITIONS:
        plays = scored_plays(view.board, view.rack)
        if not plays:
            continue
        best, top = min(plays, key=lambda ps: (-ps[1], str(ps[0])))
        worst, low = min(plays, key=lambda ps: (ps[1], str(ps[0])))
        assert after_play_note(view.board, view.rack, best, view.scorer) == ""
        for play in [p for p, points in plays if points == top][-2:]:
            assert after_play_note(view.board, view.rack, play, view.scorer) == ""  # as good as the best
        if low < top:
            note = after_play_note(view.board, view.rack, worst, view.scorer)
            assert note == f"best was {best} for {top} (you scored {low})"
            notes += 1
    assert notes > 10


# --- the Expert's evaluation ---


def fake_clock(step: float, reads: list[float]) -> coach.Clock:
    ticks = count()

    def clock() -> float:
        reads.append(next(ticks) * step)
        return reads[-1]

    return clock


def test_the_expert_evaluation_keeps_its_budget_and_reports_progress() -> None:
    view = POSITIONS[3]
    found = candidates(view, top=4)
    reads: list[float] = []
    calls: list[tuple[int, int]] = []
    rated = expert_evaluate(
        view, found, 0.2, fake_clock(0.001, reads), random.Random(7), lambda d, t: calls.append((d, t))
    )
    assert reads[-1] <= reads[0] + 0.2 + 0.01  # stops at its deadline (a rollout costs a few reads)
    assert sorted(s.notation for s in rated) == sorted(s.notation for s in found)
    assert all(s.expert is not None for s in rated)
    keys = [(-(s.expert or 0.0), s.notation) for s in rated]
    assert keys == sorted(keys)
    assert [d for d, _ in calls] == list(range(1, len(calls) + 1))  # one call a rollout, counted up
    assert all(t >= d for d, t in calls) and calls[-1][0] == calls[-1][1]
    assert calls[-1][0] % len(found) == 0 and calls[-1][0] >= 2 * len(found)  # whole rounds, several


def test_the_expert_value_is_the_mean_of_the_expert_s_rollouts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(coach, "MAX_EXPERT_ROUNDS", 3)
    view = POSITIONS[5]
    found = candidates(view, top=3)
    calls: list[tuple[int, int]] = []
    rated = expert_evaluate(view, found, 1.0, lambda: 0.0, random.Random(11), lambda d, t: calls.append((d, t)))
    assert calls[-1] == (9, 9) and all(t == 9 for _, t in calls)  # time never passes: 3 rounds, known
    rng = random.Random(11)
    guesses = [determinize(view, rng) for _ in range(3)]
    for s in rated:
        expected = sum(rollout(g, s.move, view.player, default_leave()) for g in guesses) / 3
        assert s.expert == pytest.approx(expected)
    assert expert_evaluate(view, [], 1.0, lambda: 0.0, random.Random(1)) == []


# --- a position from a board and a rack ---


def test_a_position_deals_the_tiles_not_in_sight_and_refuses_too_many_of_a_tile() -> None:
    board = Board.empty().place(parse_move("f7=4L g7=5D h7=6L").placements)  # type: ignore[union-attr]
    view = position_view(board, parse_rack("4L 5D 9L KD 9D"))
    assert Counter(view.unseen) + Counter(t.rack_form for _, t in board.tiles()) + Counter(view.rack) == Counter(
        full_set()
    )
    assert view.rack_sizes == (5, 5) and view.bag_size == 104 - 3 - 5 - 5
    with pytest.raises(ValueError, match="5 light 4 tiles; the set has 4"):
        position_view(board, parse_rack("4L 4L 4L 4L"))
    sixes = Board.empty().place(parse_move("f7=6L g7=9L h7=6L i7=9L").placements)  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="9 light 6/9 tiles; the set has 8"):
        position_view(sixes, parse_rack("6L 9L 6L 9L 6L"))


# --- one row for a play and its colour orders ---


def test_plays_alike_but_for_the_colour_order_of_equal_ranks_are_one_row() -> None:
    view = position_view(Board.empty(), parse_rack("5L 5L 5D QL QD"))
    every = all_candidates(view, BY_SCORE)
    rows = coach.distinct(every, view.rack)
    assert len(rows) < len(every)
    # every legal play is in exactly one row, with the row's score and tiles kept
    laid = [m for s in rows for m in (s.move, *s.alike)]
    assert sorted(map(str, laid)) == sorted(s.notation for s in every)
    scores = {s.notation: s.score for s in every}
    for s in rows:
        assert isinstance(s.move, Play)
        for other in s.alike:
            assert isinstance(other, Play) and scores[str(other)] == s.score
            assert [p.square for p in other.placements] == [p.square for p in s.move.placements]
            assert [p.tile.rank for p in other.placements] == [p.tile.rank for p in s.move.placements]
            assert sorted(other.tiles) == sorted(s.move.tiles)
    keys = [coach.play_key(view.rack, s.move, s.score) for s in rows]
    assert len(set(keys)) == len(keys)
    two = Suggestion(parse_move("f7=QL g7=QD"), 4, (), 0.0, 4.0)
    other = Suggestion(parse_move("f7=QD g7=QL"), 4, (), 0.0, 4.0)
    [row] = coach.distinct([two, other], parse_rack("QL QD"))
    assert row.move == two.move and row.alike == (other.move,)
    assert row.label == "f7=Q g7=Q, either colour order"
    five = next(s for s in rows if len(s.alike) == 5)  # 5 5 5 Q Q: 3 orders of the 5s times 2 of the Qs
    assert five.label.endswith(", any colour order") and "=QL" not in five.label


def test_a_colour_that_changes_the_score_or_the_tiles_kept_makes_another_play() -> None:
    board = Board.empty().place(parse_move("f7=5L g7=5L").placements)
    view = position_view(board, parse_rack("5L 5D KD KD QL"))
    every = all_candidates(view, BY_SCORE)
    rows = coach.distinct(every, view.rack)
    h7 = [s for s in rows if [str(q) for q in s.move.squares] == ["h7"] and s.move.tiles[0].rank == 5]  # type: ignore[union-attr]
    assert sorted(str(s.move) for s in h7) == ["h7=5D", "h7=5L"]  # one colour: +bonus; kept differ too
    assert {s.score for s in h7} == {score_play(board, s.move).total for s in h7}  # type: ignore[arg-type]
    assert all(s.alike == () for s in h7)


def test_the_plays_weighed_hold_hard_s_choice_and_the_plays_scoring_most() -> None:
    for view in POSITIONS:
        rows = coach.distinct(all_candidates(view, BY_EQUITY), view.rack)
        for count_ in (1, 3, 8):
            weighed = coach.plays_to_weigh(view, count_)
            if not rows:
                assert weighed == []
                continue
            assert weighed[0].move == rows[0].move and len(weighed) == min(count_, len(rows))
            order = [s.move for s in rows]
            assert [order.index(s.move) for s in weighed] == sorted(order.index(s.move) for s in weighed)
            most = sorted((s.score for s in rows[1:]), reverse=True)[: min(coach.TOP_BY_SCORE, count_ - 1)]
            assert sorted((s.score for s in weighed[1:]), reverse=True)[: len(most)] == most

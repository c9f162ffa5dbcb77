"""What a play opens or closes for the reply (the coach's sentence from the learned value's ingredients),
on boards worked by hand, and never a crash on any position a game reaches; the learned value of the
position a move leaves."""

from __future__ import annotations

import math
import random
import re
from math import comb

from hypothesis import given, settings
from hypothesis import strategies as st

from cribtiles.bot.coach import position_view
from cribtiles.bot.opens import (
    MIN_CHANGE,
    ahead,
    opening,
    opens_note,
    outlook_words,
    percent,
    reading,
    replier,
    value_after,
)
from cribtiles.bot.tiles.greedy import GreedyBot
from cribtiles.bot.tiles.sampling import determinize
from cribtiles.bot.tiles.value import default_value
from cribtiles.rules import Board, parse_move
from cribtiles.rules.game import GameState, PlayerView, new_game
from cribtiles.rules.movegen import scored_plays
from cribtiles.rules.moves import Exchange, Pass, Play, parse_rack
from cribtiles.rules.options import Mode, RuleOptions


def _chance(pool: int, good: int, drawn: int) -> float:
    """The chance that `drawn` tiles from `pool` hold at least one of `good`, worked the long way."""
    return 1 - comb(pool - good, drawn) / comb(pool, drawn)


def _play(text: str) -> Play:
    move = parse_move(text)
    assert isinstance(move, Play)
    return move


# Row 7 holding 4 5 6 (mixed colours): one tile more at e7 or i7 makes 12 when it is a 4, a 5 or a 6
# (4 5 6 5: two fifteens 4, a pair 2, two runs of three 6), and at most 7 otherwise (a 9 or a ten:
# 4 + 3); nothing on the board makes 20. Each rank has 8 tiles (16 for the 6/9s).
ROW7 = Board.empty().place(_play("f7=4L g7=5D h7=6L").placements)


def test_the_first_play_opens_its_row_to_the_fours_fives_and_sixes_still_out() -> None:
    view = position_view(Board.empty(), parse_rack("4L 5D 6L KD KL"))
    found = opening(view, _play("f7=4L g7=5D h7=6L"))
    assert found is not None
    # unseen: 104 less the rack; 7 fours, 7 fives and 15 sixes and nines make 10 or more at e7 or i7
    assert (found.opens, found.level, found.line, found.tiles) == (True, 10, "row 7", 29)
    assert [str(s) for s in found.squares] == ["e7", "i7"] and found.more == 0
    assert found.before == 0.0  # an empty board: no reply at all
    assert math.isclose(found.after, _chance(99, 29, 5))  # the opponent's 5 tiles, drawn from 99
    assert found.words == (
        "Opens row 7 at e7 and i7, where 29 tiles still out make 10 or more: "
        "a reply that big is now 83% likely (was 0%)."
    )


def test_a_play_on_both_ends_takes_the_spots_it_filled() -> None:
    view = position_view(ROW7, parse_rack("3D 7L KD KL QD"))
    note = opens_note(view, _play("e7=3D i7=7L"))  # 3 4 5 6 7: the row is full, the spots are gone
    # unseen: 104 less 3 on the board and 5 on the rack; the fours, fives and sixes as before, less the board's
    was = _chance(96, 7 + 7 + 15, 5)
    assert note == (
        "Takes the spots e7 and i7 in row 7, where 29 tiles still out made 10 or more: "
        f"a reply that big is now 0% likely (was {round(100 * was)}%)."
    )


def test_a_play_that_changes_little_says_nothing() -> None:
    view = position_view(ROW7, parse_rack("4D KD KL QD JD"))
    play = _play("f6=4D")  # column f: a pair of 4s; row 7's ends stay as they were
    before = reading(view)
    assert before is not None
    assert opening(view, play, before) is None
    assert opens_note(view, play) is None


def test_no_note_for_a_move_that_is_no_play_or_does_not_fit() -> None:
    view = position_view(ROW7, parse_rack("4D KD KL QD JD"))
    assert opens_note(view, Pass()) is None
    assert opens_note(view, Exchange.of(parse_rack("KD"))) is None
    assert opens_note(view, _play("f7=4D")) is None  # f7 is taken


def test_the_replier_is_the_next_player_with_tiles() -> None:
    view = position_view(ROW7, parse_rack("4D"), players=3)
    assert replier(view) == 1
    late = PlayerView(**{**view.__dict__, "rack_sizes": (1, 0, 5)})
    assert replier(late) == 2
    alone = PlayerView(**{**view.__dict__, "rack_sizes": (1, 0, 0)})
    assert replier(alone) is None and opens_note(alone, _play("f6=4D")) is None


def test_a_hot_spot_of_twenty_is_said_before_one_of_ten() -> None:
    # Row 7 holding 5 5 5: a fourth 5 at d7 or h7 makes four 5s (12) and four fifteens of 5+5+5 (8): 20;
    # any other tile less (a ten: three 5s 6, one 5+5+5 and three 5+T 8: 14). So before the play only
    # the 5s still out (8 less 3 on the board and 1 on the rack) make 20.
    board = Board.empty().place(_play("e7=5L f7=5D g7=5L").placements)
    view = position_view(board, parse_rack("5D KD KL QD QL"))
    # Laying that 5 at h7 makes the row four 5s: a tile at either end must add to it (the rules: every
    # tile of a line contributes), so only a 5 (five 5s) or a tile counting 10 (5 5 5 5 T: four 5s 12,
    # four 5+5+5 and four 5+T 16: 28) may go there, and each makes 20 or more: the 4 fives and the 28
    # tens, jacks, queens and kings still out (32 less the 4 on the rack).
    found = opening(view, _play("h7=5D"))
    assert found is not None and found.opens and found.level == 20 and found.line == "row 7"
    assert [str(s) for s in found.squares] == ["d7", "i7"]
    unseen = 104 - 3 - 5
    assert found.tiles == 32
    assert math.isclose(found.before, _chance(unseen, 4, 5)) and math.isclose(found.after, _chance(unseen, 32, 5))
    assert found.words == (
        "Opens row 7 at d7 and i7, where 32 tiles still out make 20 or more: a reply that big is now 88% "
        "likely (was 20%)."
    )


# --- never a crash, on any position a game reaches ---


def _reached(seed: int, turns: int, players: int, options: RuleOptions) -> GameState:
    state = new_game(players, options, seed)
    rng = random.Random(seed)
    bot = GreedyBot()
    while not state.is_over and len(state.turns) < turns:
        state = state.apply(bot.choose(state.view(state.current), rng))
    return state


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 10_000),
    st.integers(0, 40),
    st.integers(2, 4),
    st.sampled_from([RuleOptions(), RuleOptions(mode=Mode.SOLITAIRE)]),
    st.integers(0, 10_000),
)
def test_never_a_crash_on_a_reached_position(
    seed: int, turns: int, players: int, options: RuleOptions, pick: int
) -> None:
    state = _reached(seed, turns, 2 if options.solitaire else players, options)
    view = state.view(state.current)
    plays = scored_plays(view.board, view.rack)
    if not plays:
        assert opens_note(view, Pass()) is None
        return
    play = plays[pick % len(plays)][0]
    note = opens_note(view, play)
    if note is not None:
        said = re.fullmatch(
            r"(Opens|Closes|Takes the spots?) (.+), where (\d+) tiles? still out (make|makes|made) (10|20) or more: "
            r"a reply that big is now (\d+)% likely \(was (\d+)%\)\.",
            note,
        )
        assert said is not None, note
        now, was = int(said.group(6)), int(said.group(7))
        assert abs(now - was) >= 100 * MIN_CHANGE - 1  # rounded to whole percents
        assert (now > was) == (said.group(1) == "Opens")


# --- the learned value of the position a move leaves ---


def test_the_value_after_a_move_is_the_opponents_turned_round() -> None:
    model = default_value()
    assert model is not None
    state = _reached(3, 12, 2, RuleOptions())
    view = state.view(state.current)
    play = scored_plays(view.board, view.rack)[0][0]
    a = value_after(view, play, random.Random(5), guesses=4)
    b = value_after(view, play, random.Random(5), guesses=4)
    assert a is not None and a == b  # a seed reproduces it
    # the same guesses worked by hand: the opponent's expectation after the play, turned round
    rng = random.Random(5)
    by_hand = []
    for _ in range(4):
        after = determinize(view, rng).apply(play)
        by_hand.append(-model(after.view(after.current)))
    assert math.isclose(a, sum(by_hand) / 4)


def test_the_value_does_not_speak_where_it_was_not_learned() -> None:
    three = _reached(3, 4, 3, RuleOptions())
    view = three.view(three.current)
    play = scored_plays(view.board, view.rack)[0][0]
    assert value_after(view, play, random.Random(1)) is None
    two = _reached(3, 4, 2, RuleOptions())
    view = two.view(two.current)
    assert value_after(view, _play("a1=KD"), random.Random(1)) is None  # the name patch: refused


def test_the_outlook_in_words() -> None:
    assert ahead(3.04) == "3.0 ahead" and ahead(-12.25) == "12.2 behind" and ahead(-0.02) == "level"
    assert outlook_words("Ann", None, 3.0) == ""
    assert outlook_words("Ann", 4.1, 6.3) == (
        "The learned value: Ann can expect to finish 4.1 ahead after the play made, 6.3 ahead after the best "
        "found (2.2 more)."
    )
    assert outlook_words("Ben", -2.0, -2.0, same=True) == (
        "The learned value: after this play Ben can expect to finish 2.0 behind."
    )


def test_the_coachs_candidates_carry_what_each_opens() -> None:
    from cribtiles.bot.coach import candidates

    view = position_view(ROW7, parse_rack("3D 7L KD KL QD"))
    found = candidates(view, 8)
    assert [s.opens for s in found] == [opens_note(view, s.move) or "" for s in found]
    both_ends = next(s for s in found if s.label == "e7=K i7=K, either colour order")  # a row of 5: K 4 5 6 K
    assert both_ends.opening is not None and both_ends.opening.short == (
        "Takes the spots e7 and i7 in row 7: a reply of 10 or more is now 0% likely "
        f"(was {percent(_chance(96, 29, 5))})."
    )

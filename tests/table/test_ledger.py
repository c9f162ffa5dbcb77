"""The ledger: a finished game summed up (its key, scores, best play and line), and statistics drawn
from hand-made summaries whose figures are worked out by hand below."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from cribtiles.bot.tiles.greedy import greedy_move
from cribtiles.rules import RuleOptions, score_play
from cribtiles.rules.board import Board
from cribtiles.rules.moves import Play
from cribtiles.table.game_summary import Game, TileDetails
from cribtiles.table.ledger import GameSummary, Result, StatLine, statistics, summarize
from cribtiles.table.saves import save_table
from cribtiles.table.seats import Seat
from cribtiles.table.tiles.saved import load_table
from cribtiles.table.tiles.table import Table

YOU = ("You", None)
HARD = ("Hard", "hard")
EASY = ("Easy", "easy")


def game(
    seats: tuple[tuple[str, str | None], ...],
    scores: tuple[int, ...],
    winners: tuple[int, ...] | None = None,
    *,
    mode: str = "standard",
    rounds: int = 1,
    undos: int = 0,
    hints: int = 0,
    best_play: int = 0,
    highest_line: int = 0,
) -> GameSummary:
    """A hand-made summary; the winners are the highest scores unless given."""
    if winners is None:
        winners = tuple(i for i, s in enumerate(scores) if s == max(scores))
    details = TileDetails(mode, "", rounds, 40, undos, hints, best_play, highest_line)
    return GameSummary(0, "k", Game.TILES, "2026-11-30T12:00:00", 1, seats, scores, winners, "", details)


# --- one game ---


def test_the_result_is_the_peoples() -> None:
    assert game((YOU, HARD), (300, 250)).result is Result.WIN
    assert game((YOU, HARD), (250, 300)).result is Result.LOSS
    assert game((YOU, HARD), (280, 280)).result is Result.TIE
    ann, ben = ("Ann", None), ("Ben", None)
    assert game((ann, HARD, ben), (200, 150, 200)).result is Result.WIN  # two people share the win
    assert game((ann, HARD, ben), (200, 200, 100)).result is Result.TIE  # a person shares it with a bot
    assert game((ann, HARD, ben), (100, 200, 150)).result is Result.LOSS
    assert game((ann, ben), (100, 200)).result is Result.PEOPLE_ONLY
    assert game((HARD, EASY), (100, 200)).result is Result.WATCHED


def test_the_opponent_is_the_bot_levels_weakest_first() -> None:
    assert game((YOU, HARD), (1, 0)).opponent == "hard"
    assert game((HARD, YOU, EASY), (1, 0, 0)).opponent == "easy+hard"
    assert game((HARD, YOU, ("Hard 2", "hard")), (1, 0, 0)).opponent == "hard+hard"
    assert game((YOU, ("Ann", None)), (1, 0)).opponent == "people"


def test_marks_and_margin() -> None:
    assert not game((YOU, HARD), (1, 0)).tiles.marked
    assert game((YOU, HARD), (1, 0), undos=1).tiles.marked and game((YOU, HARD), (1, 0), hints=2).tiles.marked
    assert game((YOU, HARD, EASY), (100, 88, 95)).margin == 5
    assert game((YOU, HARD), (-3, -10)).margin == 7
    assert game((YOU, HARD), (50, 50)).margin == 0


def test_a_summary_must_fit_its_seats() -> None:
    with pytest.raises(ValueError, match="scores"):
        game((YOU, HARD), (1, 2, 3))
    with pytest.raises(ValueError, match="winners"):
        game((YOU, HARD), (1, 2), (2,))
    with pytest.raises(ValueError, match="level"):
        game((YOU, ("Robo", "grandmaster")), (1, 2))


# --- statistics, figured by hand ---

ANN, BEN = ("Ann", None), ("Ben", None)
DARK, LIGHT_BOT = ("Dark", None), ("Light", "hard")

# in the order they were played
G1 = game((YOU, HARD), (300, 250), best_play=30, highest_line=20)  # win
G2 = game((YOU, HARD), (280, 279), best_play=40, highest_line=24)  # win
G3 = game((YOU, HARD), (200, 260), best_play=20, highest_line=12)  # loss
G4 = game((YOU, HARD), (310, 300), best_play=25, highest_line=28)  # win
G6 = game((YOU, EASY), (600, 500), rounds=3, best_play=35, highest_line=16)  # a match won
G10 = game((ANN, BEN), (200, 180), best_play=44, highest_line=20)  # people only
G7 = game((DARK, LIGHT_BOT), (150, 140), mode="solitaire", best_play=22, highest_line=12)  # won by 10
G8 = game((DARK, LIGHT_BOT), (120, 160), mode="solitaire", best_play=18, highest_line=10)  # lost
G5 = game((YOU, HARD), (250, 250), best_play=15, highest_line=8)  # tie
G9 = game((DARK, LIGHT_BOT), (170, 145), mode="solitaire", best_play=19, highest_line=14)  # won by 25
MARKED = game((YOU, HARD), (400, 100), undos=1, best_play=60, highest_line=40)  # a win, with an undo
MARKED_2 = game((YOU, EASY), (90, 150), hints=3, best_play=12, highest_line=6)  # a loss, with hints
WATCHED = game((HARD, EASY), (500, 10), best_play=0)  # bots only

PLAYED = [G1, G2, G3, G4, MARKED, G6, G10, G7, WATCHED, G8, G5, MARKED_2, G9]


def test_statistics_by_hand() -> None:
    stats = statistics(PLAYED)
    assert (stats.games, stats.watched) == (13, 1)
    assert [(line.mode, line.opponent) for line in stats.lines] == [
        ("standard", "easy"),
        ("standard", "hard"),
        ("standard", "people"),
        ("solitaire", "hard"),
    ]
    easy, hard, people, solitaire = stats.lines
    # hard, clean: G1 W, G2 W, G3 L, G4 W, G5 T; scores 300 280 200 310 250 = 1340 over 5
    assert hard == StatLine(
        mode="standard", opponent="hard", games=5, wins=3, losses=1, ties=1, average_score=268.0, best_score=310,
        best_play=40, highest_line=28, longest_streak=2, best_margin=None, matches=0, matches_won=0,
    )  # fmt: skip
    assert hard.win_rate == 3 / 5
    assert easy == StatLine(
        mode="standard", opponent="easy", games=1, wins=1, losses=0, ties=0, average_score=600.0, best_score=600,
        best_play=35, highest_line=16, longest_streak=1, best_margin=None, matches=1, matches_won=1,
    )  # fmt: skip
    # people only: both people's scores count, nobody to win against
    assert people == StatLine(
        mode="standard", opponent="people", games=1, wins=0, losses=0, ties=0, average_score=190.0, best_score=200,
        best_play=44, highest_line=20, longest_streak=0, best_margin=None, matches=0, matches_won=0,
    )  # fmt: skip
    assert people.win_rate is None
    # Solitaire against hard: G7 W by 10, G8 L, G9 W by 25; the person's side scored 150 120 170 = 440 over 3
    assert solitaire == StatLine(
        mode="solitaire", opponent="hard", games=3, wins=2, losses=1, ties=0, average_score=440 / 3, best_score=170,
        best_play=22, highest_line=14, longest_streak=1, best_margin=25, matches=0, matches_won=0,
    )  # fmt: skip


def test_the_total_runs_over_every_clean_game_in_order() -> None:
    total = statistics(PLAYED).total
    # clean, in order: G1 W, G2 W, G3 L, G4 W, G6 W, G10 (people: no break), G7 W, G8 L, G5 T, G9 W
    # people's scores: 1340 (hard) + 600 + 200 + 180 + 150 + 120 + 170 = 2760, over 11 scores
    assert total == StatLine(
        mode="all", opponent="all", games=10, wins=6, losses=2, ties=1, average_score=2760 / 11, best_score=600,
        best_play=44, highest_line=28, longest_streak=3, best_margin=25, matches=1, matches_won=1,
    )  # fmt: skip


def test_games_with_undos_or_hints_are_counted_apart() -> None:
    stats = statistics(PLAYED)
    assert [(line.opponent, line.games, line.wins, line.losses, line.best_score) for line in stats.marked] == [
        ("easy", 1, 0, 1, 90),
        ("hard", 1, 1, 0, 400),
    ]
    assert stats.marked_total is not None
    assert (stats.marked_total.games, stats.marked_total.average_score, stats.marked_total.best_play) == (2, 245.0, 60)
    hard = stats.lines[1]
    assert (hard.opponent, hard.games, hard.best_score, hard.best_play) == ("hard", 5, 310, 40)  # no 400, no 60


def test_no_games_and_bots_only() -> None:
    empty = statistics([])
    assert (empty.lines, empty.marked, empty.total, empty.marked_total, empty.games) == ((), (), None, None, 0)
    watched = statistics([WATCHED, WATCHED])
    assert (watched.lines, watched.total, watched.watched, watched.games) == ((), None, 2, 2)


def test_solitaire_of_one_person_counts_its_margin() -> None:
    both = game((("Dark", None), ("Light", None)), (150, 130), mode="solitaire")
    (line,) = statistics([both, replace(both, scores=(90, 131), winners=(1,))]).lines
    assert (line.opponent, line.games, line.wins, line.best_margin) == ("people", 2, 0, 41)


def test_a_streak_ends_with_a_tie_or_a_loss() -> None:
    w, t, loss = game((YOU, HARD), (2, 1)), game((YOU, HARD), (1, 1)), game((YOU, HARD), (1, 2))
    assert statistics([w, w, t, w, w, w, loss, w]).lines[0].longest_streak == 3
    assert statistics([loss, t, loss]).lines[0].longest_streak == 0


# --- a game summed up ---


def played(seats: list[Seat], options: RuleOptions, seed: int) -> Table:
    """A table played to its end by greedy moves, people and bots alike."""
    table = Table.new(seats, options, seed)
    rng = random.Random(seed)
    while True:
        if table.round_over:
            if table.match_over:
                return table
            table.next_round()
        move = greedy_move(table.view(table.to_move or 0), rng)
        if table.bot_to_move:
            table.play_bot(move)
        else:
            table.play(move)


def test_a_finished_match_is_summed_up() -> None:
    table = played([Seat.person("Ann"), Seat.bot("easy")], RuleOptions.parse("rounds=2"), 5)
    table.undos, table.hints = 1, 2
    s = summarize(table, "2026-11-30T14:05:09")
    rounds = (*table.match.finished, table.match.game)
    totals = [sum(g.outcome.final_scores[p] for g in rounds if g.outcome) for p in range(2)]
    assert s.scores == tuple(totals) and len(rounds) == 2
    assert s.winners == tuple(p for p in range(2) if totals[p] == max(totals))
    d = s.tiles
    assert (s.id, s.game, s.finished_at, d.mode, s.seed, d.rounds) == (
        0,
        "tiles",
        "2026-11-30T14:05:09",
        "standard",
        5,
        2,
    )
    assert d.options == "start=low,exchange=when-stuck,joker=off,rounds=2,mode=standard"
    assert s.seats == (("Ann", None), ("Easy", "easy"))
    assert d.turns == len(rounds[0].turns) + len(rounds[1].turns)
    assert (d.undos, d.hints, d.marked) == (1, 2, True)
    # the best play and line of Ann's (seat 0), found again here play by play on each round's board
    plays, lines = [], []
    for g in rounds:
        board = Board.empty()
        for turn in g.turns:
            if isinstance(turn.move, Play):
                if turn.player == 0:
                    plays.append(turn.points)
                    lines += [line.total for line in score_play(board, turn.move).lines]
                board = board.place(turn.move.placements)
    assert (d.best_play, d.highest_line) == (max(plays), max(lines))
    assert d.best_play >= d.highest_line > 0
    again = load_table(s.record)
    assert again.match.finished[0].log == rounds[0].log and again.state.log == rounds[1].log
    assert (again.undos, again.hints) == (1, 2)


def test_the_key_is_the_game_itself() -> None:
    table = played([Seat.person("You"), Seat.bot("medium")], RuleOptions(), 7)
    first = summarize(table, "2026-11-30T10:00:00")
    again = summarize(load_table(save_table(table)), "2026-12-01T09:30:00")  # resumed, recorded again later
    assert first.key == again.key and len(first.key) == 64
    other = summarize(played([Seat.person("You"), Seat.bot("medium")], RuleOptions(), 8), "2026-11-30T10:00:00")
    assert other.key != first.key
    renamed = played([Seat.person("Ann"), Seat.bot("medium")], RuleOptions(), 7)
    assert summarize(renamed, "2026-11-30T10:00:00").key != first.key  # other people, another game


def test_bots_only_have_no_best_play_of_a_person() -> None:
    s = summarize(played([Seat.bot("easy"), Seat.bot("beginner")], RuleOptions(), 2), "2026-11-30T10:00:00")
    assert (s.tiles.best_play, s.tiles.highest_line, s.result, s.opponent) == (0, 0, Result.WATCHED, "beginner+easy")


def test_a_game_still_played_is_not_summed_up() -> None:
    table = Table.new([Seat.person("You"), Seat.bot("easy")], RuleOptions(), 1)
    with pytest.raises(ValueError, match="not over"):
        summarize(table, "2026-11-30T10:00:00")


def test_an_unfinished_game_is_kept_as_it_stands_and_never_counted() -> None:
    table = Table.new([Seat.person("You"), Seat.bot("easy")], RuleOptions(rounds=3), 1)
    rng = random.Random(1)
    while not table.round_over:  # the first round to its end, then one turn of the second
        move = greedy_move(table.view(table.to_move or 0), rng)
        table.play_bot(move) if table.bot_to_move else table.play(move)
    first = table.state.final_scores()
    table.next_round()
    move = greedy_move(table.view(table.to_move or 0), rng)
    table.play_bot(move) if table.bot_to_move else table.play(move)
    now = tuple(f + s for f, s in zip(first, table.state.scores, strict=True))
    kept = summarize(table, "2026-12-02T08:00:00", unfinished=True)
    assert kept.unfinished and kept.result is Result.UNFINISHED
    assert kept.scores == now and kept.winners == tuple(p for p, s in enumerate(now) if s == max(now))
    assert kept.tiles.rounds == 2 and kept.tiles.turns == len(table.match.finished[0].turns) + 1
    assert kept.rounds_words == "round 2 of 3" and played_out_words(kept) == "match of 2"
    assert load_table(kept.record).match == table.match  # replayed from the History as it stood
    won = game((YOU, EASY), (300, 200))
    stats = statistics([won, replace(kept, key="u")])
    assert stats.games == 2 and stats.watched == 0 and stats.total is not None and stats.total.games == 1


def played_out_words(kept: GameSummary) -> str:
    return replace(kept, unfinished=False).rounds_words

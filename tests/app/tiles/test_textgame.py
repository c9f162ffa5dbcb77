"""The text mode: saved after every turn, resumed like the window (its seats, its bot), whole matches,
Joker declarations and calls by the bots' manners, and quitting, Ctrl-C and the end of input leave the
game saved. Driven by scripted readers (no terminal)."""

from __future__ import annotations

import errno
import io
import random
import sys
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path

import pytest

from cribtiles.app import storage
from cribtiles.app.main import main
from cribtiles.app.storage import Store
from cribtiles.app.tiles.textgame import play_text_game
from cribtiles.bot.tiles.greedy import GreedyBot, greedy_move
from cribtiles.rules import RuleOptions, new_game
from cribtiles.rules.game import GameState
from cribtiles.rules.match import Match
from cribtiles.rules.movegen import scored_plays
from cribtiles.rules.tiles import format_tiles
from cribtiles.table.seats import Seat
from cribtiles.table.tiles import session
from cribtiles.table.tiles.saved import load_table
from cribtiles.table.tiles.table import Table

pytestmark = pytest.mark.filterwarnings("ignore:the bots' leave table")

ME = 0
Answer = str | type[BaseException] | None


def saved(folder: Path) -> Table:
    """The table as saved in `folder` (seats, game or match), finished or not."""
    return load_table((folder / "game.json").read_text(encoding="utf-8"))


def game_of(table: Table) -> GameState:
    return table.state


def best_move(state: GameState) -> str:
    """The play that scores the most now (the first of equals), or a pass when there is none."""
    plays = scored_plays(state.board, state.racks[ME])
    return str(max(plays, key=lambda ps: ps[1])[0]) if plays else "pass"


class Greedy:
    """A player who reads the game from the save at each prompt and plays its best-scoring move.

    Reading the save is the point: at every prompt the save must hold the game as it stands (your
    turn, your rack as shown). `script` answers first: None is the best move, an exception class is raised."""

    def __init__(self, folder: Path, out: list[str], script: Sequence[Answer] = ()) -> None:
        self.folder, self.out, self.script = folder, out, list(script)
        self.seen: list[GameState] = []
        self.answers: list[str] = []

    def __call__(self, prompt: str) -> str:
        assert prompt == "Your move> "
        state = game_of(saved(self.folder))
        assert state.current == ME and not state.is_over
        assert self.out[-1].endswith(f"Your rack: {format_tiles(state.racks[ME])}")
        self.seen.append(state)
        answer = self.script.pop(0) if self.script else None
        if answer is None:
            answer = best_move(state)
        elif not isinstance(answer, str):
            raise answer
        self.answers.append(answer)
        return answer


def play(folder: Path, *script: Answer, **kw) -> tuple[int, list[str], Greedy]:  # type: ignore[no-untyped-def]
    out: list[str] = []
    reader = Greedy(folder, out, script)
    code = play_text_game(read=reader, write=out.append, data_dir=folder, **kw)
    return code, out, reader


def resumes(folder: Path) -> str:
    return f"`cribtiles --text --data-dir {folder}` resumes it."


# --- saved after every turn ---


def test_every_turn_is_saved_and_the_game_is_played_to_the_end(tmp_path: Path) -> None:
    code, out, reader = play(tmp_path, level="medium", seed=11)
    assert code == 0
    table = saved(tmp_path)
    assert table.seats == (Seat.person("You"), Seat.bot("medium"))
    final = table.state
    assert final.is_over and final.seed == 11 and final.names == ("You", "Medium")
    starts = {0: "You drew for the start and play first.", 1: "Medium drew for the start and plays first."}
    assert starts[final.starter] in out
    states = [*reader.seen, final]
    for (before, after), answer in zip(pairwise(states), reader.answers, strict=True):
        assert after.log[: len(before.log)] == before.log  # the same game, saved further on
        assert after.log[len(before.log)] == answer  # your move, then the bot's, each saved
    assert final.outcome is not None
    o = final.outcome
    winner = "It's a tie!" if len(o.winners) > 1 else f"{final.names[o.winners[0]]} won."
    assert out[-3:] == [
        f"You: {final.scores[0]} - {o.deductions[0]} left on the rack = {o.final_scores[0]}",
        f"Medium: {final.scores[1]} - {o.deductions[1]} left on the rack = {o.final_scores[1]}",
        winner,
    ]
    assert Store(tmp_path).load_table() == (None, "")  # a finished game is not resumed: the next one is new


def test_a_resumed_game_goes_on_as_if_it_had_never_been_left(tmp_path: Path) -> None:
    straight, broken = tmp_path / "straight", tmp_path / "broken"
    assert play(straight, level="easy", seed=3)[0] == 0

    code, out, first = play(broken, "hint", "board", None, None, EOFError, level="easy", seed=3)
    assert code == 0
    assert out[-1] == f"\nEnd of input: your game is saved; {resumes(broken)}"
    left = saved(broken).state
    assert left.log == first.seen[-1].log and not left.is_over

    code, out, second = play(broken)  # no level, no seed: the saved game
    assert code == 0
    turns = len(left.turns)
    assert out[0] == f"Resuming your game against the easy bot (seed 3, {turns} turns played)."
    assert second.seen[0].log == left.log
    a, b = saved(straight).state, saved(broken).state
    assert b.is_over and (b.seed, b.names, b.log) == (a.seed, a.names, a.log)


def test_an_older_save_is_resumed_against_the_bot_it_names(tmp_path: Path) -> None:
    s = new_game(2, seed=9, names=("You", "Hard"))
    s = s.apply(s.legal_actions()[0])
    Store(tmp_path).save_game(s)  # a game record, as saves were before they held seats
    code, out, reader = play(tmp_path, EOFError)
    assert code == 0
    assert out[0] == "Resuming your game against the hard bot (seed 9, 1 turn played)."
    assert reader.seen[0].log[:1] == s.log


def test_the_bot_of_a_saved_table_is_its_seat_not_its_name(tmp_path: Path) -> None:
    table = Table.new([Seat.person("You"), Seat.bot("beginner", "Robin")], RuleOptions(), seed=6)
    Store(tmp_path).save_game(table)  # as the window saves it
    code, out, _ = play(tmp_path, EOFError)
    assert code == 0
    assert out[0] == "Resuming your game against the beginner bot (seed 6, 0 turns played)."
    assert saved(tmp_path).seats == table.seats


def test_a_level_seed_or_new_starts_a_new_game(tmp_path: Path) -> None:
    play(tmp_path, EOFError, level="hard", seed=4)
    code, out, _ = play(tmp_path, EOFError, new=True, seed=5)
    assert code == 0 and out[0] == "Crib Tiles: a game against the medium bot (seed 5). Type help for help."
    assert saved(tmp_path).state.seed == 5
    code, out, _ = play(tmp_path, EOFError, level="beginner")
    # the medium bot had made its first play: that game is kept in the history as unfinished, and said
    assert (
        out[0] == "Your unfinished game (You 0 · Medium 32) was kept in the History as unfinished; a new game begins."
    )
    assert out[1].startswith("Crib Tiles: a game against the beginner bot (seed ")
    (kept,) = Store(tmp_path).past_games()
    assert kept.unfinished and kept.scores == (0, 32) and kept.seed == 5 and kept.tiles.turns == 1


# --- matches ---


def test_rounds_2_plays_a_whole_match(tmp_path: Path) -> None:
    code, out, reader = play(tmp_path, level="medium", seed=8, options=RuleOptions.parse("rounds=2"))
    assert code == 0
    assert out[0] == "Crib Tiles: a match of 2 rounds against the medium bot (seed 8). Type help for help."
    m = saved(tmp_path).match
    assert m.seed == 8 and m.is_over and len(m.finished) == 1 and m.game.is_over
    assert {s.seed for s in reader.seen} == {m.finished[0].seed, m.game.seed}  # you played in both rounds
    first = m.finished[0].final_scores()
    assert f"\nAfter round 1 of 2: totals You {first[0]}, Medium {first[1]}." in out
    low = min(first)
    servant = " and ".join(n for n, t in zip(m.names, first, strict=True) if t == low)
    assert f"The Servant (the lowest total, who keeps score for the others): {servant}." in out
    assert "\nRound 2 of 2." in out
    totals = m.totals
    assert out[-2] == f"\nThe match is over after 2 rounds: totals You {totals[0]}, Medium {totals[1]}."
    best = max(totals)
    assert out[-1] == (
        "The match is a tie!" if totals.count(best) > 1 else f"{m.names[totals.index(best)]} won the match."
    )


def test_a_match_left_between_rounds_goes_on_with_the_next_round(tmp_path: Path) -> None:
    m = Match.start(2, RuleOptions.parse("rounds=2"), 8, ("You", "Easy"))
    while not m.game.is_over:
        m = m.apply(greedy_move(m.game.view(m.game.current), random.Random(0)))
    Store(tmp_path).save_game(m)
    code, out, _ = play(tmp_path, EOFError)
    assert code == 0
    assert out[0] == "Resuming your game against the easy bot (seed 8, round 2 of 2, 0 turns played)."
    after = saved(tmp_path).match
    assert after.finished == (m.game,) and not after.game.is_over


# --- leaving ---


def test_ctrl_c_at_the_prompt_saves_and_exits_130(tmp_path: Path) -> None:
    code, out, reader = play(tmp_path, "hint", KeyboardInterrupt, seed=2)
    assert code == 130
    assert out[-1] == f"\nInterrupted: your game is saved; {resumes(tmp_path)}"
    assert saved(tmp_path).state.log == reader.seen[-1].log


def test_ctrl_c_while_the_bot_thinks_saves_your_move(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = session.choose_safely  # the text mode's bots choose in its session, at once

    def choose(*args, **kw):  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kw)

    monkeypatch.setattr(session, "choose_safely", choose)
    code, out, reader = play(tmp_path, seed=2)
    assert code == 130 and out[-1] == f"\nInterrupted: your game is saved; {resumes(tmp_path)}"
    left = saved(tmp_path).state
    assert left.log == (*reader.seen[-1].log, reader.answers[-1])  # your last move is kept
    assert left.current == 1  # the bot moves first when the game goes on


def test_quit_says_the_game_is_saved_and_how_to_come_back(tmp_path: Path) -> None:
    code, out, reader = play(tmp_path, "quit", seed=2)
    assert code == 0
    assert out[-1] == f"Goodbye: your game is saved; {resumes(tmp_path)}"
    assert saved(tmp_path).state.log == reader.seen[0].log


def test_save_errors_are_told_once_in_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[str] = []

    def full_disk(path: Path, text: str) -> None:
        written.append(text)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(storage, "atomic_write", full_disk)
    answers = iter([None, None, None])

    def reader(prompt: str) -> str:
        for _ in answers:
            return best_move(load_table(written[-1]).state)
        raise EOFError

    out: list[str] = []
    assert play_text_game(read=reader, write=out.append, data_dir=tmp_path, seed=6) == 0
    told = [line for line in out if line.startswith("Your game could not be saved:")]
    assert len(told) == 1 and "No space left on device" in told[0]
    assert told[0].endswith("You can play on, but if you leave now this game is lost.")
    assert out[-1].startswith("\nEnd of input: your game could not be saved (could not save the game in ")
    assert len(written) >= 4  # it tried after every turn all the same


def test_a_folder_in_use_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = Store(tmp_path)
    assert other.lock() == ""
    try:
        out: list[str] = []
        code = play_text_game(read=lambda prompt: pytest.fail("asked for a move"), write=out.append, data_dir=tmp_path)
    finally:
        other.unlock()
    assert code == 1 and out == []
    assert capsys.readouterr().err == (
        f"cribtiles: Crib Tiles is already running with the data folder {tmp_path}; "
        "close it first, or use --data-dir for a second game.\n"
    )
    assert not (tmp_path / "game.json").exists()


# --- the Joker rule, by the bots' manners (as at the table everywhere) ---

JOKER = RuleOptions.parse("joker=on")


@pytest.fixture
def greedy_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every bot chooses the greedy move (fast); its Joker manners stay those of its level."""
    monkeypatch.setattr(session, "make_bot", lambda level: GreedyBot())


def test_the_expert_calls_joker_when_you_declare_less(tmp_path: Path, greedy_bots: None) -> None:
    seed = next(n for n in range(100) if new_game(2, JOKER, n).starter == 0)
    out: list[str] = []

    def reader(prompt: str) -> str:
        s = saved(tmp_path).state
        if s.turns:
            raise EOFError
        return f"{best_move(s)} declare 0"

    assert play_text_game("expert", seed, JOKER, read=reader, write=out.append, data_dir=tmp_path) == 0
    s = saved(tmp_path).state
    true_points = s.turns[0].true_points
    assert true_points > 0 and s.log[0].endswith(" declare 0") and s.log[1] == "joker 1"
    points = f"{true_points} unclaimed point{'s' if true_points != 1 else ''}"
    assert f"Expert called Joker on your play and took {points}." in out
    assert s.scores[1] >= true_points
    # the call closed the window: the play's score shows, after the declaration, never before it
    played = out.index(f"\nYou play {s.turns[0].move} and declare 0")
    worth = out.index(f"Your play {s.turns[0].move} was worth {true_points}: declared 0, {true_points} unclaimed.")
    assert played < worth and not any(line.startswith("  total") for line in out[:worth])


def test_you_declare_more_than_your_play_scores_and_the_expert_takes_the_excess(
    tmp_path: Path, greedy_bots: None
) -> None:
    seed = next(n for n in range(100) if new_game(2, JOKER, n).starter == 0)
    out: list[str] = []

    def reader(prompt: str) -> str:
        s = saved(tmp_path).state
        if s.turns:
            raise EOFError
        return f"{best_move(s)} declare 99"  # accepted: a refusal would tell the true score

    assert play_text_game("expert", seed, JOKER, read=reader, write=out.append, data_dir=tmp_path) == 0
    s = saved(tmp_path).state
    true_points = s.turns[0].true_points
    assert s.log[:2] == (f"{s.turns[0].move} declare 99", "joker 1")
    assert s.scores[0] == true_points and s.scores[1] >= 99 - true_points
    over = 99 - true_points
    assert f"Expert called Joker on your play, declared {over} points over its score, and took them from you." in out
    assert f"Your play {s.turns[0].move} was worth {true_points}: declared 99, {over} more than it scores." in out


def test_an_honest_play_shows_its_score_only_once_the_next_player_acts(tmp_path: Path, greedy_bots: None) -> None:
    seed = next(n for n in range(100) if new_game(2, JOKER, n).starter == 0)
    out: list[str] = []

    def reader(prompt: str) -> str:
        s = saved(tmp_path).state
        if s.turns:
            raise EOFError
        return best_move(s)  # declared in full: the Expert does not call

    assert play_text_game("expert", seed, JOKER, read=reader, write=out.append, data_dir=tmp_path) == 0
    s = saved(tmp_path).state
    move, true_points = s.turns[0].move, s.turns[0].true_points
    assert s.calls == () and s.turns[1].player == 1
    played = out.index(f"\nYou play {move} and declare {true_points}")
    worth = out.index(f"Your play {move} was worth {true_points}: declared {true_points}, all it scores.")
    expert = next(i for i, line in enumerate(out) if line.startswith("\nExpert "))
    assert played < worth < expert  # told as the Expert acts, before its own play
    assert not any(line.startswith("  total") for line in out[played:worth])


def test_your_joker_call_takes_what_the_bot_left(tmp_path: Path, greedy_bots: None) -> None:
    """Beginner under-counts now and then: find a game where its first play does, and call."""
    for seed in range(200):
        table = Table.new([Seat.person("You"), Seat.bot("beginner")], JOKER, seed)
        if table.bot_to_move:
            request = table.bot_request()
            record = table.play_bot(GreedyBot().choose(request.view, random.Random(request.seed)), request)
            if record.declared < record.turn.true_points:
                break
    else:
        pytest.fail("the beginner never under-counted its first play")
    missed = record.turn.true_points - record.declared
    code, out, _ = play(tmp_path, "joker", EOFError, level="beginner", seed=seed, options=JOKER)
    assert code == 0
    assert f"\nBeginner plays {record.turn.move} and declares {record.declared}" in out
    points = f"{missed} unclaimed point{'s' if missed != 1 else ''}"
    assert f"You called Joker on Beginner's play and took {points}." in out
    s = saved(tmp_path).state
    assert s.log[-1] == "joker 0" and s.scores[0] == missed


def test_your_joker_call_on_an_honest_play_costs_5(tmp_path: Path, greedy_bots: None) -> None:
    seed = next(n for n in range(100) if new_game(2, JOKER, n).starter == 1)
    code, out, _ = play(tmp_path, "joker", EOFError, level="expert", options=JOKER, seed=seed)
    assert code == 0
    assert "You called Joker on Expert's play, but nothing was missed: you lose 5 points." in out
    s = saved(tmp_path).state
    assert s.log[-1] == "joker 0" and s.scores[0] == -5


# --- the command line ---


def test_cribtiles_text_uses_the_data_dir_and_returns_the_exit_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["--text", "--seed", "12", "--level", "easy", "--data-dir", str(tmp_path)]) == 0
    assert "Crib Tiles: a game against the easy bot (seed 12). Type help for help." in capsys.readouterr().out
    first = saved(tmp_path).state
    monkeypatch.setattr(sys, "stdin", None)  # no standard input at all: the end of input
    assert main(["--text", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Resuming your game against the easy bot (seed 12, " in out
    assert f"End of input: your game is saved; {resumes(tmp_path)}" in out
    assert saved(tmp_path).state.log == first.log


def test_the_text_mode_seats_the_players_asked_for(tmp_path: Path) -> None:
    from cribtiles.app.storage import Store
    from cribtiles.table import parse_players

    out: list[str] = []

    def reader(prompt: str) -> str:
        out.append(prompt)
        return "" if prompt.startswith("Pass to") else "quit"  # the first person is ready, then leaves

    code = play_text_game(seed=4, data_dir=tmp_path, read=reader, write=out.append, seats=parse_players("Ann,Ben,easy"))
    assert code == 0
    assert out[0] == "Crib Tiles: a game for Ann, Ben, Easy (seed 4). Type help for help."
    table, _ = Store(tmp_path).load_table()
    assert table is not None and [s.name for s in table.seats] == ["Ann", "Ben", "Easy"]
    assert f"{table.state.names[table.state.current]}'s move> " in out  # each person is asked by name


def test_with_several_people_a_rack_leaves_the_screen_before_the_next_person_sits_down(tmp_path: Path) -> None:
    from cribtiles.table import parse_players

    out: list[str] = []
    hinted: set[int] = set()  # the turns a hint was asked at

    def reader(prompt: str) -> str:
        out.append(prompt)
        if prompt.startswith("Pass to"):
            return ""
        state = game_of(saved(tmp_path))
        if len(state.turns) >= 4:
            return "quit"
        if len(state.turns) not in hinted:  # each person first asks for the best play, for their eyes
            hinted.add(len(state.turns))
            return "hint"
        plays = scored_plays(state.board, state.racks[state.current])
        return str(max(plays, key=lambda ps: ps[1])[0]) if plays else "pass"

    code = play_text_game(
        seed=4,
        data_dir=tmp_path,
        read=reader,
        write=out.append,
        seats=parse_players("Ann,Ben"),
        clear=lambda: out.append("<clear>"),
    )
    assert code == 0
    assert out[1:3] == ["Ann drew for the start and plays first.", "Pass to Ann: press Enter when ready> "]
    clears = [i for i, line in enumerate(out) if line == "<clear>"]
    assert len(clears) == 4  # after each of the four turns
    for i in clears:
        mover = next(line for line in reversed(out[:i]) if line.endswith("'s move> ")).removesuffix("'s move> ")
        other = "Ben" if mover == "Ann" else "Ann"
        shown = "\n".join(out[:i])
        assert f"{mover}'s rack" in shown and "Best scoring play" in shown  # on the screen before
        end = next((j for j in range(i, len(out)) if out[j].startswith("Pass to")), len(out))
        after = "\n".join(out[i + 1 : end])  # what the next person sees before they take the keyboard
        assert f"{mover}'s rack" not in after and "Best scoring play" not in after
        assert f"{mover} plays " in after or f"{mover} passes" in after or f"{mover} exchanges" in after
        if end < len(out):
            assert out[end] == f"Pass to {other}: press Enter when ready> "

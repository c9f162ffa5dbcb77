"""`cribtiles analyze`: on positions from seeded games its plays are the engine's legal plays with the
engine's scores, in both orders (by score: the sorted scores; by equity: the coach's candidates); a
malformed board or rack names the line and the token at fault; standard input, JSON, no legal play."""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cribtiles.app.files import shown_path
from cribtiles.app.main import main as cribtiles_main
from cribtiles.app.tiles.analyze_cli import ANALYSIS_FORMAT
from cribtiles.bot.coach import BY_EQUITY, candidates, position_view
from cribtiles.bot.opens import opens_note
from cribtiles.bot.tiles.greedy import GreedyBot
from cribtiles.rules import Board, Play, format_rack, legal_plays, new_game, parse_move, parse_rack, score_play

EMPTY = Board.empty().to_text()
ROW7 = Board.empty().place(parse_move("f7=4L g7=5D h7=6L").placements).to_text()  # type: ignore[union-attr]


def positions(n: int, seed: int) -> list[tuple[Board, str]]:
    """(board, rack text) of the player to move in seeded games of the Medium bot, 0-30 turns in."""
    rng = random.Random(seed)
    found = []
    for game in range(n):
        state = new_game(2, seed=seed * 100 + game)
        for _ in range(rng.randrange(0, 31)):
            if state.is_over:
                break
            state = state.apply(GreedyBot().choose(state.view(state.current), rng))
        if not state.is_over:
            found.append((state.board, format_rack(state.racks[state.current])))
    return found


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cribtiles_main(["analyze", *args])
    out, err = capsys.readouterr()
    return code, out, err


def analyze(capsys: pytest.CaptureFixture[str], tmp_path: Path, board: Board | str, *args: str) -> tuple[int, str, str]:
    path = tmp_path / "board.txt"
    path.write_text(board if isinstance(board, str) else board.to_text(), encoding="utf-8")
    return run(capsys, str(path), *args)


def plays_of(out: str) -> list[tuple[str, int, str]]:
    rows = []
    for line in out.splitlines():
        play, score, rest = line.split("  ", 2)
        rows.append((play, int(score), rest))
    return rows


# --- agreement with the engine ---


@pytest.mark.parametrize("seed", range(4))
def test_by_score_every_legal_play_with_the_engine_s_score_best_first(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, seed: int
) -> None:
    for board, rack in positions(3, seed):
        code, out, err = analyze(capsys, tmp_path, board, "--rack", rack, "--top", "10000")
        assert code == 0 and err == ""
        legal = legal_plays(board, parse_rack(rack))
        if not legal:
            assert out.startswith("No legal play")
            continue
        rows = plays_of(out)
        doc = json.loads(analyze(capsys, tmp_path, board, "--rack", rack, "--top", "10000", "--json")[1])
        assert [p["play"] for p in doc["plays"]] == [play for play, _, _ in rows]
        shown = [m for p in doc["plays"] for m in (p["play"], *p["alike"])]  # each row and the plays alike it
        assert sorted(shown) == sorted(str(p) for p in legal) and len(set(shown)) == len(shown)
        assert doc["legal_plays"] == len(legal) and doc["distinct_plays"] == len(rows)
        for play, score, _ in rows:
            move = parse_move(play)
            assert isinstance(move, Play) and score_play(board, move).total == score
        for p in doc["plays"]:
            for other in p["alike"]:
                move = parse_move(other)
                assert isinstance(move, Play) and score_play(board, move).total == p["score"]
        keys = [(-score, play) for play, score, _ in rows]
        assert keys == sorted(keys)  # ties by notation


@pytest.mark.parametrize("seed", range(4))
def test_by_equity_the_coach_s_candidates_in_its_order(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, seed: int
) -> None:
    for board, rack in positions(4, seed + 10):
        code, out, _ = analyze(capsys, tmp_path, board, "--rack", rack, "--by", "equity", "--top", "12")
        assert code == 0
        expected = candidates(position_view(board, parse_rack(rack)), top=12, by=BY_EQUITY)
        if not expected:
            assert out.startswith("No legal play")
            continue
        rows = plays_of(out)
        assert [play for play, _, _ in rows] == [str(s.move) for s in expected]
        assert [score for _, score, _ in rows] == [s.score for s in expected]
        for (_, _, rest), s in zip(rows, expected, strict=True):
            assert rest.endswith(f"  equity {s.equity:+.1f}, keeps {' '.join(map(str, s.kept)) or 'nothing'}")
            assert ("colour order" in rest) == bool(s.alike)


def test_a_play_and_its_colour_orders_are_one_row(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = analyze(capsys, tmp_path, ROW7, "--rack", "QL QD 2L", "--top", "10000")
    assert code == 0
    rows = plays_of(out)
    two_queens = [r for r in rows if sorted(r[0].split()) == ["e7=QD", "i7=QL"] or r[0] in ("e7=QL i7=QD",)]
    assert len(two_queens) == 1  # e7=QL i7=QD and e7=QD i7=QL: one row
    play, _, rest = two_queens[0]
    other = "e7=QD i7=QL" if play == "e7=QL i7=QD" else "e7=QL i7=QD"
    assert rest.endswith(f"  (either colour order, also {other})")
    assert len({p for p, _, _ in rows}) == len(rows)


def test_the_first_play_on_an_empty_board_and_the_default_ten(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = analyze(capsys, tmp_path, EMPTY, "--rack", "AL 2L 3L 4L 5L")
    rows = plays_of(out)
    assert code == 0 and len(rows) == 10
    _, score, why = rows[0]
    assert score == 37  # the rule book's example: 7 + first play + five tiles + one colour
    line = r"(row \d+|column [a-m])"
    assert re.fullmatch(
        line + r" \([A2-5 ]{9}\) 7: fifteen 2, run 5; first play \+10; five tiles \+10; one colour \(\1\) \+10", why
    )
    code, out, _ = analyze(capsys, tmp_path, ROW7, "--rack", "5D", "--top", "1")
    assert (
        out == "e7=5D  12  row 7 (5 4 5 6) 12: 2 fifteens 4, pair 5s 2, 2 runs 6\n"
    )  # rules.md section 9's i7=5D at the other end: 12 too, first by notation


@pytest.mark.parametrize("seed", [3])
def test_rules_bonuses_off_prices_the_same_plays_without_bonuses(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, seed: int
) -> None:
    """`--rules bonuses=off`: the same plays, each priced at the standard score less its bonuses, the
    breakdowns without them, and the JSON names the rules; a bad option is said in words."""
    _, out, _ = analyze(capsys, tmp_path, EMPTY, "--rack", "AL 2L 3L 4L 5L", "--top", "200")
    code, off, _ = analyze(
        capsys, tmp_path, EMPTY, "--rack", "AL 2L 3L 4L 5L", "--top", "200", "--rules", "bonuses=off"
    )
    assert code == 0
    on_rows, off_rows = plays_of(out), plays_of(off)
    assert {r[0] for r in on_rows} == {r[0] for r in off_rows}
    for play, score, _ in on_rows:
        move = parse_move(play)
        assert isinstance(move, Play)
        bonuses = sum(b.points for b in score_play(Board.empty(), move).bonuses)
        assert dict((r[0], r[1]) for r in off_rows)[play] == score - bonuses
    assert off_rows[0][1] == 7 and "+10" not in off  # A 2 3 4 5: 7, and no bonus anywhere
    for board, rack in positions(3, seed):
        code, text, _ = analyze(
            capsys, tmp_path, board, "--rack", rack, "--top", "500", "--rules", "bonuses=off", "--json"
        )
        doc = json.loads(text)
        assert code == 0 and doc["rules"].endswith("bonuses=off")
        for p in doc["plays"]:
            move = parse_move(p["play"])
            assert isinstance(move, Play) and p["bonuses"] == []
            scored = score_play(board, move)
            assert p["score"] == scored.total - sum(b.points for b in scored.bonuses)
    code, _, err = analyze(capsys, tmp_path, EMPTY, "--rack", "5D TL", "--rules", "bonuses=maybe")
    assert code == 2 and "--rules: bonuses may be on or off, not 'maybe'" in err


# --- standard input ---


def test_the_board_is_read_from_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(ROW7))
    code, out, _ = run(capsys, "--rack", "5D", "--top", "1")
    assert (code, out) == (0, "e7=5D  12  row 7 (5 4 5 6) 12: 2 fifteens 4, pair 5s 2, 2 runs 6\n")
    monkeypatch.setattr(sys, "stdin", io.StringIO(ROW7.replace("4L", "4Q")))
    code, out, err = run(capsys, "--rack", "5D")
    assert code == 2 and out == "" and "standard input, line 7, token 6 '4Q' (f7)" in err


def test_the_command_line_pipes_a_board_in() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cribtiles", "analyze", "--rack", "5D", "--top", "1", "--json"],
        input=ROW7,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["plays"][0]["play"] == "e7=5D"


# --- errors that name the line and the token ---


def with_token(text: str, row: int, col: int, token: str) -> str:
    lines = text.splitlines()
    tokens = lines[row].split()
    tokens[col] = token
    lines[row] = " ".join(tokens)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (with_token(EMPTY, 4, 3, "XQ"), "line 5, token 4 'XQ' (d5): 'XQ' is not a tile"),
        (
            with_token(EMPTY, 8, 12, "11D"),
            "line 9, token 13 '11D' (m9): '11D' is not a tile: '11' is not a rank; a jack",
        ),
        (
            with_token(EMPTY, 0, 0, ".."),
            "line 1, token 1 '..' (a1): a1 is part of the name patch and must be written ##",
        ),
        (with_token(EMPTY, 2, 0, "##"), "line 3, token 1 '##' (a3): a3 is not part of the name patch"),
        (with_token(EMPTY, 6, 6, "."), "line 7, token 7 '.' (g7): write .. for an empty square"),
        ("\n\n" + with_token(EMPTY, 3, 2, "5Z"), "line 6, token 3 '5Z' (c4): '5Z' is not a tile: the colour must be L"),
        (EMPTY.replace(".. ..\n", "..\n", 1), "line 1: row 1 has 12 squares, not 13"),
        (EMPTY.replace("..\n", ".. 5D\n", 1), "line 1, token 14 '5D': a row has 13 squares"),
        (EMPTY + ".. " * 12 + "..\n", "line 14: a board has 13 rows, and this is row 14"),
        ("\n".join(EMPTY.splitlines()[:12]), "has 12 rows; a board has 13"),
        ("", "is empty"),
        (with_token(with_token(EMPTY, 6, 5, "JL"), 6, 6, "4D"), "line 7 (f7 to g7): row 7 (J 4) scores nothing"),
        (
            with_token(with_token(EMPTY, 4, 8, "6L"), 5, 8, "QD"),
            "lines 5 to 6 (i5 to i6): column i (6 Q) scores nothing",
        ),
    ],
)
def test_a_malformed_board_names_the_line_and_the_token(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, said: str
) -> None:
    code, out, err = analyze(capsys, tmp_path, text, "--rack", "4L 5D")
    assert code == 2 and out == ""
    assert err.startswith(f"cribtiles analyze: {shown_path(tmp_path / 'board.txt')}") and said in err, err
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("rack", "said"),
    [
        ("4L 5D 6X", "--rack, token 3 '6X': '6X' is not a tile: the colour must be L (light) or D (dark)"),
        ("4L 5D 6L KD 9D 2L", "--rack, token 6 '2L': a rack holds at most 5 tiles"),
        ("  ", "--rack is empty"),
        ("1L", "--rack, token 1 '1L': '1L' is not a tile: '1' is not a rank; an ace is written A"),
        ("4L 4L 4L", "the board and the rack hold 5 light 4 tiles; the set has 4"),
    ],
)
def test_a_malformed_rack_names_the_token(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, rack: str, said: str
) -> None:
    code, out, err = analyze(capsys, tmp_path, with_token(ROW7, 6, 8, "4L"), "--rack", rack)
    assert code == 2 and out == "" and said in err, err


def test_a_missing_file_and_bad_options_are_said(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, str(tmp_path / "nowhere.txt"), "--rack", "4L")
    assert code == 2 and "there is no file" in err
    code, _, err = analyze(capsys, tmp_path, EMPTY, "--rack", "4L 5D", "--top", "0")
    assert code == 2 and "--top" in err
    code, _, err = analyze(capsys, tmp_path, EMPTY, "--rack", "4L 5D", "--by", "luck")
    assert code == 2 and "--by" in err
    code, _, err = analyze(capsys, tmp_path, EMPTY)
    assert code == 2 and "--rack" in err
    (tmp_path / "bin").write_bytes(b"\xff\xfe\x00")
    code, _, err = run(capsys, str(tmp_path / "bin"), "--rack", "4L")
    assert code == 2 and "not a text file" in err


# --- no legal play ---

KINGS = Board.empty().place(parse_move("f7=KL g7=KD").placements).to_text()  # type: ignore[union-attr]


def test_with_no_legal_play_it_says_so_and_advises_an_exchange(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert legal_plays(Board.from_text(KINGS), parse_rack("AD 2D 8L TD QD")) == []
    code, out, err = analyze(capsys, tmp_path, KINGS, "--rack", "AD 2D 8L TD QD")
    assert code == 0 and err == ""
    head, advice = out.splitlines()
    assert head == "No legal play for AD 2D 8L TD QD on this board."
    assert advice.startswith("exchange ") and "keep" in advice
    code, out, _ = analyze(capsys, tmp_path, KINGS, "--rack", "AD 2D 8L TD QD", "--json")
    doc = json.loads(out)
    assert doc["plays"] == [] and doc["legal_plays"] == 0
    assert doc["exchange"]["move"] == advice.split("  ")[0]
    assert sorted(doc["exchange"]["throw"] + doc["exchange"]["keep"]) == sorted(["AD", "2D", "8L", "TD", "QD"])


# --- JSON ---


def test_the_json_document(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    board = Board.from_text(ROW7)
    code, out, _ = analyze(capsys, tmp_path, board, "--rack", "4L 5D 6L KD 9D", "--json", "--top", "5")
    doc = json.loads(out)
    assert code == 0
    assert (doc["format"], doc["version"], doc["by"], doc["top"]) == (ANALYSIS_FORMAT, 1, "score", 5)
    assert doc["rack"] == ["4L", "5D", "6L", "KD", "6D"] and doc["first_play"] is False
    assert doc["legal_plays"] == len(legal_plays(board, parse_rack("4L 5D 6L KD 9D")))
    assert doc["exchange"] is None and len(doc["plays"]) == 5
    code, text, _ = analyze(capsys, tmp_path, board, "--rack", "4L 5D 6L KD 9D", "--top", "5")
    for play, row in zip(doc["plays"], plays_of(text), strict=True):
        alike = f"  (either colour order, also {play['alike'][0]})" if play["alike"] else ""
        assert (play["play"], play["score"], play["breakdown"] + alike) == row
        assert len(play["alike"]) <= 1  # one pair of 6s of two colours here: either order
        move = parse_move(play["play"])
        assert isinstance(move, Play)
        assert [f"{p['square']}={p['tile']}" for p in play["placements"]] == [str(p) for p in move.placements]
        result = score_play(board, move)
        assert sum(line["score"] for line in play["lines"]) + sum(b["points"] for b in play["bonuses"]) == play["score"]
        assert [line["name"] for line in play["lines"]] == [line.name for line in result.lines]
        for line in play["lines"]:
            assert line["fifteens"] + line["pairs"] + line["runs"] == line["score"]
            assert len(line["squares"]) == len(line["tiles"]) == len(line["placed"])
        placed = [str(p.tile.rack_form) for p in move.placements]
        assert sorted(play["kept"] + placed) == sorted(doc["rack"])
        view = position_view(board, parse_rack("4L 5D 6L KD 9D"))
        assert play["opens"] == (opens_note(view, move) or "")  # what it opens, as the coach says it
    assert any(play["opens"] for play in doc["plays"])
    empty = json.loads(analyze(capsys, tmp_path, EMPTY, "--rack", "4L 5D", "--json", "--by", "equity")[1])
    assert empty["first_play"] is True and empty["by"] == "equity"
    assert all(b["kind"] == "first play" for p in empty["plays"] for b in p["bonuses"])

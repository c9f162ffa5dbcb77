"""`cribtiles cribbage score|peg`: the show's breakdown and `total N`, the play's points and `points N`,
bad cards and impossible sequences as one line on standard error with exit status 2, and --help."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cribtiles.app.main import main as cribtiles_main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    code = cribtiles_main(["cribbage", *args])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


@pytest.mark.parametrize(
    ("args", "total"),
    [
        (("5H 5D 5S JC", "--starter", "5C"), 29),
        (("5H 5D 5S 5C", "--starter", "JD"), 28),
        (("4H 4D 5S 6C", "--starter", "6H"), 24),
        (("2H 4H 6H 8H", "--starter", "KS"), 4),
        (("2H 4H 6H 8H", "--starter", "KS", "--crib"), 0),
        (("2h,4h,6h,8h", "--starter", "kh", "--crib"), 5),
    ],
)
def test_score_prints_the_breakdown_and_the_total_last(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], total: int
) -> None:
    code, lines, err = run(capsys, "score", *args)
    assert (code, err) == (0, "")
    assert lines[-1] == f"total {total}"


def test_the_29_hand_item_by_item(capsys: pytest.CaptureFixture[str]) -> None:
    _, lines, _ = run(capsys, "score", "5H 5D 5S JC", "--starter", "5C")
    assert lines[0] == "the hand 5H 5D 5S JC with the starter 5C"
    assert sum(line.startswith("fifteen for 2: ") for line in lines) == 8
    assert sum(line.startswith("pair for 2: ") for line in lines) == 6
    assert "his nobs for 1: JC" in lines and len(lines) == 1 + 8 + 6 + 1 + 1


def test_a_crib_with_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    _, lines, _ = run(capsys, "score", "2H 4H 6H 8H", "--starter", "KS", "--crib")
    assert lines == ["the crib 2H 4H 6H 8H with the starter KS", "nothing scores", "total 0"]


@pytest.mark.parametrize(
    ("cards", "lines"),
    [
        ("4H 7D 4S", ["4H 7D 4S: the count is 15", "fifteen two (2): 4H 7D 4S", "points 2"]),
        ("6H 4D 5S", ["6H 4D 5S: the count is 15", "fifteen two (2): 6H 4D 5S", "run of 3 (3): 6H 4D 5S", "points 5"]),
        (
            "3H 3D 3S 3C",
            ["3H 3D 3S 3C: the count is 12", "double pair royal for twelve (12): 3H 3D 3S 3C", "points 12"],
        ),
        ("KH QD 5S 6C", ["KH QD 5S 6C: the count is 31", "31 for two (2): KH QD 5S 6C", "points 2"]),
        ("4H 7D", ["4H 7D: the count is 11", "the 7D scores nothing", "points 0"]),
    ],
)
def test_peg_prints_what_the_last_card_scores(capsys: pytest.CaptureFixture[str], cards: str, lines: list[str]) -> None:
    code, out, err = run(capsys, "peg", cards)
    assert (code, out, err) == (0, lines, "")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("score", "5H 5D 5S JX", "--starter", "5C"), "'JX' is not a card: X is not a suit (S, H, D or C)"),
        (("score", "5H 5D", "--starter", "5C"), "a hand to count holds 4 cards (three in five-card cribbage"),
        (("score", "5H 5D 5S JC", "--starter", "5H"), "5H 5D 5S JC 5H: a card is named twice"),
        (("score", "5H 5D 5S 5H", "--starter", "JC"), "5H is named twice: a deck holds each card once"),
        (("peg", "KH QD JS 5C"), "KH QD JS 5C counts 35: the count in the play never passes 31"),
        (("peg", "4H 1D"), "'1D' is not a card: 1 is not a rank (A 2 3 4 5 6 7 8 9 T J Q K); an ace is written A"),
        (("peg", ""), "the play needs at least one card"),
    ],
)
def test_bad_cards_are_one_line_on_stderr_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == []
    assert err.count("\n") == 1 and err.startswith(f"cribtiles cribbage {args[0]}: ") and message in err


def test_a_missing_starter_or_subcommand_is_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "score", "5H 5D 5S JC")[0] == 2
    assert run(capsys)[0] == 2
    assert run(capsys, "deal")[0] == 2


@pytest.mark.parametrize("args", [(), ("score",), ("peg",)])
def test_help_through_the_cribtiles_command(args: tuple[str, ...]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cribtiles", "cribbage", *args, "--help"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and done.stdout.startswith(f"usage: cribtiles cribbage {' '.join(args)}".rstrip())
    assert "like 5H or TD" in done.stdout


def test_the_brief_example_through_the_cribtiles_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cribtiles", "cribbage", "score", "5H 5D 5S JC", "--starter", "5C"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "total 29"


# --- cribtiles cribbage discard ---


def test_discard_prints_every_discard_best_first(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = run(capsys, "discard", "5H 5D JS QC 8H 2S", "--dealer")
    assert (code, err) == (0, "")
    assert lines[0] == "discards best first, to your crib (you deal)"
    assert lines[1].split() == ["keep", "throw", "hand", "crib", "total"]
    rows = [line.split() for line in lines[2:]]
    assert len(rows) == 15
    assert rows[0][:6] == ["5H", "5D", "JS", "QC", "8H", "2S"]
    totals = [float(r[-1]) for r in rows]
    assert totals == sorted(totals, reverse=True)
    for r in rows:  # hand + crib = total, to the rounding
        assert abs(float(r[6]) + float(r[7]) - float(r[8])) <= 0.011
        assert r[7].startswith("+")  # the dealer's own crib


def test_discard_as_json_against_the_advisor(capsys: pytest.CaptureFixture[str]) -> None:
    from cribtiles.bot.cribbage.advisor import advise_discard
    from cribtiles.cribbage.cards import parse_cards

    code, lines, err = run(capsys, "discard", "5h,5d,js,qc,8h,2s", "--json")
    assert (code, err) == (0, "")
    doc = json.loads("\n".join(lines))
    assert doc["dealer"] is False and len(doc["discards"]) == 15
    advice = advise_discard(parse_cards("5H 5D JS QC 8H 2S"), dealer=False)
    for entry, a in zip(doc["discards"], advice, strict=True):
        assert entry["kept"] == [str(c) for c in a.kept] and entry["thrown"] == [str(c) for c in a.thrown]
        assert entry["hand"] == pytest.approx(a.hand, abs=1e-4) and entry["crib"] == pytest.approx(a.crib, abs=1e-4)
        assert entry["crib"] < 0  # against the non-dealer
        assert entry["total"] == pytest.approx(a.total, abs=1e-4)


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("5H 5D JS QC 8X 2S", "'8X' is not a card: X is not a suit (S, H, D or C)"),
        ("5H 5D JS QC 8H", "the advisor needs the 6 cards dealt, not 5"),
        ("5H 5D JS QC 8H 2S 3S", "the advisor needs the 6 cards dealt, not 7"),
        ("5H 5D JS QC 8H 5H", "5H is named twice: a deck holds each card once"),
        ("", "the advisor needs the 6 cards dealt, not 0"),
    ],
)
def test_discard_bad_cards_in_words_and_exit_2(capsys: pytest.CaptureFixture[str], cards: str, message: str) -> None:
    code, out, err = run(capsys, "discard", cards)
    assert code == 2 and out == []
    assert err.count("\n") == 1 and err.startswith("cribtiles cribbage discard: ") and message in err


def test_discard_help_through_the_cribtiles_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cribtiles", "cribbage", "discard", "--help"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and "--dealer" in done.stdout and "--json" in done.stdout


def test_discard_advises_five_cards_in_the_variants(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "discard", "5H 5D JS QC 8H", "--variant", "three-player", "--dealer")
    assert code == 0 and out[0] == "discards best first, to your crib (you deal)" and len(out) == 2 + 5
    assert out[2].split()[:5] == ["5H", "5D", "JS", "QC", "8H"]  # keep four, throw the 8 to your own crib
    code, out, _ = run(capsys, "discard", "5H 5D JS QC 8H", "--variant", "five-card", "--json")
    doc = json.loads("\n".join(out))
    assert code == 0 and len(doc["discards"]) == 10 and all(len(d["kept"]) == 3 for d in doc["discards"])
    code, out, err = run(capsys, "discard", "5H 5D JS QC 8H 2S", "--variant", "partnership")
    assert code == 2 and "not 1 of 6" in err

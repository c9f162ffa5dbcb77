"""A game's scorer (cribtiles/rules/scorer.py): plays are scored by the options in force, by the checker
and by both cores of the move generator alike."""

from __future__ import annotations

import ast
from pathlib import Path

from cribtiles.rules import (
    Board,
    Play,
    RuleOptions,
    Scorer,
    parse_move,
)
from cribtiles.rules.scoring import NO_BONUSES

ROOT = Path(__file__).resolve().parents[2]
ALL_THREE = "e7=AL f7=2L g7=3L h7=4L i7=5L"  # 7 + first play + five tiles + one colour


def test_the_worked_example_without_bonuses() -> None:
    """rules.md 9's 37 is 7 and nothing more without bonuses."""
    play = parse_move(ALL_THREE)
    assert isinstance(play, Play)
    on, off = Scorer.of(RuleOptions()).score(Board.empty(), play), Scorer(NO_BONUSES).score(Board.empty(), play)
    assert (on.total, off.total) == (37, 7)
    assert [str(b.kind) for b in on.bonuses] == ["first play", "five tiles", "one colour"]
    assert off.bonuses == () and off.lines == on.lines


#: The modules that may score a play without a scorer: the checker, the generator and the scorer
#: itself, and the facade that names them (rules.md 8).
SCORING_MODULES = {"rules/scoring.py", "rules/movegen.py", "rules/scorer.py", "rules/__init__.py"}
#: What scores a play: everything else asks the scorer of the game or options at hand.
SCORING_NAMES = {"score_play", "score_laid", "scored_plays", "best_score", "top_plays", "best_keeping"}


def test_nothing_above_the_rules_scores_a_play_without_the_games_scorer() -> None:
    """No module of cribtiles/ but the rules' own scoring modules imports a free scoring function: a play
    is scored by `state.scorer` (or a view's, or a scorer made from the options), so that an option
    that changes scoring reaches the breakdowns, the coach, the bots and the server alike."""
    found = []
    for path in sorted((ROOT / "cribtiles").rglob("*.py")):
        name = path.relative_to(ROOT / "cribtiles").as_posix()
        if name in SCORING_MODULES:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and "rules" in node.module:
                found += [f"{name}: {a.name}" for a in node.names if a.name in SCORING_NAMES]
    assert found == []

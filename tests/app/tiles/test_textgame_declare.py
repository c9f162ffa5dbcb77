"""Issue 14: the text mode refuses, in words, a declared score when the Joker rule is off."""

from __future__ import annotations

from pathlib import Path

import pytest

from cribtiles.app.tiles.textgame import play_text_game

pytestmark = pytest.mark.filterwarnings("ignore:the bots' leave table")


@pytest.mark.parametrize("typed", ["f7=4L g7=5D declare 9", "pass declare 0"])
def test_a_declared_score_without_the_joker_rule_is_refused_in_words(tmp_path: Path, typed: str) -> None:
    out: list[str] = []
    answers = iter([typed, "quit"])
    code = play_text_game(read=lambda prompt: next(answers), write=out.append, data_dir=tmp_path, level="easy", seed=3)
    assert code == 0
    refusal = "Not allowed: the Joker rule is not in play: a play scores what it is worth, nothing is declared"
    assert refusal in out

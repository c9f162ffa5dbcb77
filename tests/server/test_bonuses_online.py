"""An online table without bonuses (issue 45): the table carries its rule options to every seat and
spectator, and the server scores every play, and judges every Joker call, without bonuses."""

from __future__ import annotations

import json

from cribtiles.rules import Board, Play, RuleOptions, Scorer
from cribtiles.rules.scorer import STANDARD_SCORER

from .test_secrecy import play_watched

RULES = "joker=on,bonuses=off"


def test_a_table_without_bonuses_scores_and_judges_calls_without_them() -> None:
    seats = [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}]
    frames, outcomes = play_watched(seats, RULES, 1_357_802_469)
    assert len(outcomes) == 2 and all(o.over for o in outcomes)
    states = [json.loads(f.text) for f in frames if '"options"' in f.text]
    assert states and all('"bonuses": "off"' in json.dumps(s) for s in states)  # every state says the rules
    match = frames[-1].match
    assert match is not None and match.is_over and match.options == RuleOptions(joker=True, bonuses=False)
    off = Scorer.of(match.options)
    (game,) = (*match.finished, match.game)
    board, lost = Board.empty(), 0
    for turn in game.turns:
        if isinstance(turn.move, Play):
            worth = off.score(board, turn.move)
            assert worth.bonuses == () and turn.true_points == worth.total
            lost += STANDARD_SCORER.score(board, turn.move).total - worth.total
            board = board.place(turn.move.placements)
    assert lost >= 10  # the first play's bonus at least was not scored
    # a call is judged by the worth without bonuses: it takes what was left or over-claimed, or costs 5
    assert game.calls and all(c.points > 0 or c.points == -5 for _, c in game.calls)
    declared = sum(t.points for t in game.turns)
    assert sum(game.scores) == declared + sum(c.points for _, c in game.calls) - sum(c.taken for _, c in game.calls)

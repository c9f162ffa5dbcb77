"""Measure a deal's points for Expert's win chances:
`python -m cribtiles.bot.cribbage.make_deal_odds --games 200 --seed 1`.

Hard plays Hard from seeded games; every deal played to its end (the last deal of a game ends early and
is left out) adds what the pone and the dealer pegged together in the play, the pone's hand, the dealer's
hand and the crib to `data/deal_odds.json`, as counts. Each game's generator comes from (seed, game).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from cribtiles.cribbage.game import new_game
from cribtiles.cribbage.options import Phase
from cribtiles.cribbage.peg import PegKind
from cribtiles.cribbage.show import ShowKind

from .bots import CribbageBot, hard_bot
from .odds import DATA_FILE

CRIB_STEP = 2  # the show's third count is the crib


def _bump(counts: dict[str, int], key: str) -> None:
    counts[key] = counts.get(key, 0) + 1


def measure(games: int, seed: int) -> dict[str, dict[str, int]]:
    """The counts of each deal's points over `games` seeded games of Hard against Hard."""
    bot: CribbageBot = hard_bot()
    out: dict[str, dict[str, int]] = {"play": {}, "pone_hand": {}, "dealer_hand": {}, "crib": {}}
    for game in range(games):
        rng = random.Random(f"cribtiles-deal-odds/{seed}/{game}")
        state = new_game(rng.getrandbits(32), ("a", "b"))
        peg, hand, crib = [0, 0], [0, 0], 0
        while not state.is_over:
            player = state.current_player
            assert player is not None
            phase, step, dealer = state.phase, state.show_step, state.dealer
            state = state.apply(bot.choose(state.view(player), rng))
            for event in state.events:
                if isinstance(event.kind, PegKind):
                    peg[event.player] += event.points
                elif isinstance(event.kind, ShowKind):
                    if step == CRIB_STEP:
                        crib += event.points
                    else:
                        hand[event.player] += event.points
            if not state.is_over and phase is Phase.SHOW and step == CRIB_STEP:
                pone = 1 - dealer
                _bump(out["play"], f"{peg[pone]},{peg[dealer]}")
                _bump(out["pone_hand"], str(hand[pone]))
                _bump(out["dealer_hand"], str(hand[dealer]))
                _bump(out["crib"], str(crib))
                peg, hand, crib = [0, 0], [0, 0], 0
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "data" / DATA_FILE)
    args = parser.parse_args(argv)
    if args.games < 1:
        print("make_deal_odds: --games must be at least 1", file=sys.stderr)
        return 2
    counts = measure(args.games, args.seed)
    data = {"games": args.games, "seed": args.seed, **{k: dict(sorted(v.items())) for k, v in counts.items()}}
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"{sum(counts['crib'].values())} deals written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

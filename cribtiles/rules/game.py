"""The state of one game: racks, bags, board, scores, turns, the end of the game, the Joker rule.

An immutable position in the spirit of OpenSpiel: `current_player`, `legal_actions`, `apply`,
`is_over`, `outcome`, `returns`, and `view(player)` for what one player may see. Chance (the bag) is part of
the state: the bag order comes from the seed, and each later shuffle from the seed and a counter,
so a seed and the list of actions reproduce a whole game.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import combinations
from typing import Any, TypeVar

from cribtiles.names import MAX_NAME as MAX_NAME
from cribtiles.names import name_problem

from .board import Board
from .errors import IllegalMove, NotationError
from .movegen import has_legal_play, legal_plays
from .moves import Exchange, Move, Pass, Play, parse_move
from .options import ExchangeRule, RuleOptions, Start
from .scorer import Scorer
from .scoring import PlayScore
from .tiles import Colour, Tile, colour_set, format_tiles, full_set, rack_counter, rank_word, remove_tiles

_T = TypeVar("_T")
RACK_SIZE = 5
JOKER_PENALTY = 5
MAX_PLAYERS = 4
SOLITAIRE_NAMES = ("Dark", "Light")
#: Rounds in a row in which no player could play that lock the board, if nobody can play at their
#: end either (rules.md 5: an exchange in the last of them may have brought a play).
STUCK_ROUNDS_TO_LOCK = 2
#: Rounds in a row without any play that end the game whatever the reason (rules.md 5): only
#: exchange=any-time reaches it, where a player may pass while holding a play.
IDLE_ROUNDS_TO_END = 3


class EndReason(StrEnum):
    """Why a game ended (rules.md section 5); a str, so records and messages read as before."""

    OUT = "out"  # the bag is empty and a player has played their last tile
    BLOCKED = "blocked"  # the bag is empty and no player has a legal play
    LOCKED = "locked"  # for two rounds in a row no player could play, and none can now (the bag not yet empty)
    IDLE = "idle"  # for three rounds in a row nobody played (exchange=any-time: passing by choice)
    RESIGNED = "resigned"  # a player gave the game up (online): the others win, no rack is counted


END_OUT, END_BLOCKED, END_LOCKED, END_IDLE = EndReason.OUT, EndReason.BLOCKED, EndReason.LOCKED, EndReason.IDLE


class LockRule(StrEnum):
    """The locked-board rule a game is played under (rules.md 5). A record names it (`record.py`), so
    that a game saved under an older rule still ends where it ended."""

    IDLE = "idle"  # before issue 14: any two rounds without a play, passes by choice too
    STUCK = "stuck"  # issue 14: two rounds in which nobody could play, even if the last exchange brought a play
    NOBODY_CAN_PLAY = "nobody-can-play"  # issue 28: two such rounds, and nobody can play at their end


#: The rule of every new game.
LOCK_RULE = LockRule.NOBODY_CAN_PLAY


@dataclass(frozen=True)
class Turn:
    """One turn as it happened. `points` is what the player scored for it (the declared score
    under the Joker rule, which a call may correct later: see `JokerCall.taken`). In another
    player's view an exchange shows as `Exchange(())`: how many tiles went back is public
    (`drawn`), which ones is not. `stuck`: a pass or exchange by a player
    who had no legal play (public: it is what counts towards a locked board). `true_points`, the
    play's worth, is None in what the players are shown while "Joker" may still be called on it
    (`call_window_open`): its worth is what a call decides, so each player counts it themselves."""

    player: int
    move: Move
    points: int = 0
    true_points: int | None = 0
    drawn: int = 0
    stuck: bool = False

    @property
    def is_play(self) -> bool:
        return isinstance(self.move, Play)


@dataclass(frozen=True)
class JokerCall:
    """A "Joker!" called on the last play. Muggins style: the caller takes the points its player left
    unclaimed, or the points it claimed beyond its score (`taken` back from that player), or loses 5."""

    caller: int
    points: int  # what the call gave the caller: the points missed or over-claimed, or -5
    taken: int = 0  # points taken back from the player of an over-declared play


@dataclass(frozen=True)
class Outcome:
    """The end of a game: rack deductions, final scores and the winners (ties share the win)."""

    reason: EndReason
    went_out: int | None
    deductions: tuple[int, ...]
    final_scores: tuple[int, ...]
    winners: tuple[int, ...]

    def returns(self) -> tuple[float, ...]:
        """OpenSpiel-style returns: 1 for a sole winner, split on a tie, 0 for the others."""
        share = 1.0 / len(self.winners)
        return tuple(share if p in self.winners else 0.0 for p in range(len(self.final_scores)))

    @property
    def resigned(self) -> int | None:
        """The player who gave the game up (every other player won), or None."""
        if self.reason is not EndReason.RESIGNED:
            return None
        return next(p for p in range(len(self.final_scores)) if p not in self.winners)


def _shuffled(tiles: Sequence[Tile], rng: random.Random) -> tuple[Tile, ...]:
    out = list(tiles)
    rng.shuffle(out)
    return tuple(out)


def _chance(seed: int, n: int) -> random.Random:
    """The generator for the n-th shuffle of a game, derived from the game's seed."""
    return random.Random(f"cribtiles/{seed}/{n}")


def _draw_for_start(
    bags: tuple[tuple[Tile, ...], ...], players: int, high: bool, bag_of: Sequence[int]
) -> tuple[int, tuple[tuple[tuple[int, Tile], ...], ...]]:
    """Each player draws a tile; the lowest (or highest) starts; tied players draw again.
    A 6/9 counts as 6. Returns the starter and every round of draws."""
    remaining = [list(b) for b in bags]
    contenders = list(range(players))
    rounds: list[tuple[tuple[int, Tile], ...]] = []
    while True:
        if any(not remaining[bag_of[p]] for p in contenders):  # cannot happen with 104 tiles; be safe
            return contenders[0], tuple(rounds)
        draws = tuple((p, remaining[bag_of[p]].pop()) for p in contenders)
        rounds.append(draws)
        best = (max if high else min)(t.rank for _, t in draws)
        contenders = [p for p, t in draws if t.rank == best]
        if len(contenders) == 1:
            return contenders[0], tuple(rounds)


@dataclass(frozen=True)
class GameState:
    options: RuleOptions
    seed: int
    names: tuple[str, ...]
    board: Board
    racks: tuple[tuple[Tile, ...], ...]
    bags: tuple[tuple[Tile, ...], ...]  # one bag, or one per side in Solitaire; drawn from the end
    scores: tuple[int, ...]
    current: int
    start_draws: tuple[tuple[tuple[int, Tile], ...], ...]
    starter: int
    turns: tuple[Turn, ...] = ()
    calls: tuple[tuple[int, JokerCall], ...] = ()  # (number of turns before the call, call)
    log: tuple[str, ...] = ()  # every action in notation, for the record
    shuffles: int = 0
    idle: int = 0  # consecutive turns without a play
    stuck: int = 0  # consecutive turns without a play by players who had no legal play
    lock: LockRule = LOCK_RULE  # the locked-board rule (a game saved under an older one keeps it)
    unclaimed: int = 0  # Joker: points the last play left unclaimed (until called or the next player acts)
    overclaimed: int = 0  # Joker: points the last play claimed beyond its score (the same window)
    outcome: Outcome | None = None
    _legal_cache: dict[str, list[Play]] = field(default_factory=dict, init=False, compare=False, repr=False)

    # --- the questions ---

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def current_player(self) -> int | None:
        """Whose turn it is; None once the game is over."""
        return None if self.is_over else self.current

    def returns(self) -> tuple[float, ...]:
        """What each player takes from the game: 1 shared among the winners once it is over, 0 before."""
        return self.outcome.returns() if self.outcome else (0.0,) * self.players

    @property
    def scorer(self) -> Scorer:
        """How a play scores in this game (its rule options' bonuses): the one scorer of its plays."""
        return Scorer.of(self.options)

    def bag_of(self, player: int) -> int:
        return player if self.options.solitaire else 0

    def bag_size(self, player: int | None = None) -> int:
        """Tiles left in the player's bag (Solitaire: the side's own), or in all bags."""
        if player is None:
            return sum(len(b) for b in self.bags)
        return len(self.bags[self.bag_of(player)])

    @property
    def last_turn(self) -> Turn | None:
        return self.turns[-1] if self.turns else None

    def may_pass(self, player: int | None = None) -> bool:
        """Passing and exchanging are allowed when stuck, or at any time under that option."""
        p = self.current if player is None else player
        if self.is_over or p != self.current:
            return False
        return self.options.exchange == ExchangeRule.ANY_TIME or not has_legal_play(self.board, self.racks[p])

    def legal_plays(self) -> list[Play]:
        cached = self._legal_cache.get("plays")
        if cached is None:
            cached = [] if self.is_over else legal_plays(self.board, self.racks[self.current])
            self._legal_cache["plays"] = cached
        return list(cached)

    def legal_exchanges(self) -> list[Exchange]:
        """Every distinct exchange the player to move may make now (none when they may not pass)."""
        if not self.may_pass():
            return []
        rack = self.racks[self.current]
        most = min(len(rack), RACK_SIZE, self.bag_size(self.current))
        found = {Exchange.of(c) for k in range(1, most + 1) for c in combinations(rack, k)}
        return sorted(found)

    def legal_actions(self) -> list[Move]:
        """Every legal move of the player to move: plays, then pass and exchanges if allowed."""
        if self.is_over:
            return []
        moves: list[Move] = list(self.legal_plays())
        if self.may_pass():
            moves.append(Pass())
            moves.extend(self.legal_exchanges())
        return moves

    # --- acting ---

    def apply(self, move: Move | str, declared: int | None = None) -> GameState:
        """The state after the player to move makes `move` (or its notation).

        Under the Joker rule `declared` is the score the player claims for a play (default: the
        true score). Muggins style, a declaration above the true score is accepted and stands
        unless someone calls "Joker" (`call_joker`); one below 0 is refused."""
        if isinstance(move, str):
            try:
                move = parse_move(move)
            except NotationError as e:
                raise IllegalMove(str(e)) from None
        if self.is_over:
            raise IllegalMove("the game is over")
        if declared is not None and not self.options.joker:
            raise IllegalMove("the Joker rule is not in play: a play scores what it is worth, nothing is declared")
        if isinstance(move, Play):
            return self._play(move, declared)
        if declared is not None:
            raise IllegalMove("only a play has a score to declare")
        if isinstance(move, Exchange):
            return self._exchange(move)
        if isinstance(move, Pass):
            self._check_may_pass("pass")
            return self._next(Turn(self.current, move, stuck=self._is_stuck()), str(move))
        raise IllegalMove(f"{move!r} is not a move")

    apply_action = apply

    def _check_may_pass(self, what: str) -> None:
        if not self.may_pass():
            raise IllegalMove(
                f"you have a legal play, so you may not {what}: "
                "passing and exchanging are allowed only when no play is possible"
            )

    def _is_stuck(self) -> bool:
        """Whether the player to move has no legal play (when-stuck: true of every pass allowed)."""
        stuck_only = self.options.exchange == ExchangeRule.WHEN_STUCK
        return stuck_only or not has_legal_play(self.board, self.racks[self.current])

    def _check_owned(self, tiles: Sequence[Tile]) -> None:
        have = rack_counter(self.racks[self.current])
        need = rack_counter(tiles)
        for tile, n in need.items():
            if have[tile] < n:
                shown = "6/9" if tile.is_six_nine else rank_word(tile.rank)
                words = ("no", "only one", "only two", "only three", "only four")
                owned = words[have[tile]] if have[tile] < len(words) else f"only {have[tile]}"
                raise IllegalMove(f"you have {owned} {tile.colour.word} {shown} on your rack")

    def apply_generated(self, play: Play, score: int) -> GameState:
        """The state after the player to move makes `play`, one the move generator gave for their rack
        on this board, with the score it gave. For simulations, which play thousands of such turns:
        the ownership and scoring checks of `apply` are skipped (the generator is held to the scorer
        by its tests); the play scores `score` and nothing is declared."""
        if self.is_over:
            raise IllegalMove("the game is over")
        return self._placed(play, score, score)

    def _play(self, play: Play, declared: int | None) -> GameState:
        self._check_owned(play.tiles)
        result: PlayScore = self.scorer.score(self.board, play)
        total = result.total
        if declared is None:
            declared = total
        if declared < 0:
            raise IllegalMove("a declared score cannot be below 0")
        # no upper bound: refusing an over-declaration would tell the player the true score
        return self._placed(play, declared, total)

    def _placed(self, play: Play, declared: int, total: int) -> GameState:
        p = self.current
        rack = list(remove_tiles(self.racks[p], play.tiles))
        bags = list(self.bags)
        b = self.bag_of(p)
        drawn = min(RACK_SIZE - len(rack), len(bags[b]))
        if drawn:
            rack.extend(reversed(bags[b][-drawn:]))
            bags[b] = bags[b][:-drawn]
        text = str(play) if declared == total or not self.options.joker else f"{play} declare {declared}"
        return self._next(
            Turn(p, play, declared, total, drawn),
            text,
            played=True,
            miscount=total - declared,
            board=self.board.place(play.placements),
            racks=_set(self.racks, p, tuple(rack)),
            bags=tuple(bags),
            scores=_set(self.scores, p, self.scores[p] + declared),
        )

    def _exchange(self, move: Exchange) -> GameState:
        p = self.current
        self._check_may_pass("exchange")
        n = len(move.tiles)
        b = self.bag_of(p)
        if not 1 <= n <= RACK_SIZE:
            raise IllegalMove("an exchange returns 1 to 5 tiles")
        if n > len(self.bags[b]):
            left = len(self.bags[b])
            raise IllegalMove(
                f"the bag holds only {left} tile{'s' if left != 1 else ''}: you may exchange at most that many"
                if left
                else "the bag is empty, so there is nothing to exchange with: pass instead"
            )
        self._check_owned(move.tiles)
        stuck = self._is_stuck()
        rack = list(remove_tiles(self.racks[p], move.tiles))
        bag = list(self.bags[b])
        rack.extend(reversed(bag[-n:]))  # draw first ...
        bag = bag[:-n] + [t.rack_form for t in move.tiles]  # ... then return the tiles
        bag = list(_shuffled(bag, _chance(self.seed, self.shuffles + 1)))
        return self._next(
            Turn(p, move, drawn=n, stuck=stuck),
            str(move),
            racks=_set(self.racks, p, tuple(rack)),
            bags=_set(self.bags, b, tuple(bag)),
            shuffles=self.shuffles + 1,
        )

    def _next(self, turn: Turn, text: str, played: bool = False, miscount: int = 0, **changes: Any) -> GameState:
        """Record the turn with the `changes` it made (one new state: simulations play many turns),
        then end the game or hand the turn on. `miscount`: a play's worth less what was declared."""
        state = replace(
            self,
            turns=(*self.turns, turn),
            log=(*self.log, text),
            idle=0 if played else self.idle + 1,
            stuck=self.stuck + 1 if turn.stuck else 0,
            unclaimed=max(0, miscount),
            overclaimed=max(0, -miscount),
            current=(self.current + 1) % self.players,
            **changes,
        )
        return state._end_if_over()

    @property
    def stuck_turns(self) -> int:
        """Turns in a row in which the player could not play. Under when-stuck every pass is such a
        turn, so it is `idle` (which is all a state guessed from a player's view knows); a record
        saved before the distinction counts every turn without a play, as it did then."""
        if self.lock is LockRule.IDLE or self.options.exchange == ExchangeRule.WHEN_STUCK:
            return self.idle
        return self.stuck

    def _anyone_can_play(self) -> bool:
        """Whether anyone can play now, after rounds in which nobody could (rules.md 5).

        A player whose last turn was a pass still holds the rack they could not play, on a board no
        play has changed: only those who exchanged (or whose turn `turns` lacks) are asked. The answer
        so rests on public turns and the racks that changed, and a state guessed from a view
        (`bot.sampling` keeps the last round of turns) locks as the game does, never asking a rack the
        view knows to be stuck."""
        last = {t.player: t.move for t in self.turns[-self.players :]}
        return any(
            has_legal_play(self.board, rack) for p, rack in enumerate(self.racks) if not isinstance(last.get(p), Pass)
        )

    def _locked(self) -> bool:
        """Two rounds in which nobody could play; under today's rule, and nobody can play now."""
        if self.stuck_turns < STUCK_ROUNDS_TO_LOCK * self.players:
            return False
        return self.lock is not LockRule.NOBODY_CAN_PLAY or not self._anyone_can_play()

    def _end_if_over(self) -> GameState:
        if self._locked():
            return self._finish(END_LOCKED, None)
        if self.idle >= IDLE_ROUNDS_TO_END * self.players:
            return self._finish(END_IDLE, None)
        if self.bag_size() == 0:  # every bag: in Solitaire, both
            # An empty rack means its player has played their last tile: the one who just moved, or
            # in Solitaire a side that went empty while the other side's bag still held tiles, whose
            # last tile has just been drawn. Either way the game ends at once (rules.md 5 and 6).
            out = next((p for p, rack in enumerate(self.racks) if not rack), None)
            if out is not None:
                return self._finish(END_OUT, out)
            if not any(has_legal_play(self.board, r) for r in self.racks):
                return self._finish(END_BLOCKED, None)
        return self

    def _finish(self, reason: EndReason, went_out: int | None) -> GameState:
        deductions = tuple(sum(t.value for t in rack) for rack in self.racks)
        final = tuple(s - d for s, d in zip(self.scores, deductions, strict=True))
        best = max(final)
        winners = tuple(p for p, s in enumerate(final) if s == best)
        return replace(self, outcome=Outcome(reason, went_out, deductions, final, winners))

    def resign(self, player: int) -> GameState:
        """`player` gives the game up: it ends at once, every other player wins (sharing the win), the
        scores stand as they are (no rack is counted), and "Joker" may no longer be called. The rules do
        not know it (rules.md 5): it is the table's, and a record keeps it apart from the actions."""
        if not 0 <= player < self.players:
            raise IllegalMove(f"there is no player {player + 1}")
        if self.is_over:
            raise IllegalMove("the game is over")
        others = tuple(p for p in range(self.players) if p != player)
        outcome = Outcome(EndReason.RESIGNED, None, (0,) * self.players, self.scores, others)
        return replace(self, outcome=outcome, unclaimed=0, overclaimed=0)

    def call_joker(self, caller: int) -> GameState:
        """`caller` calls "Joker" on the last play (muggins style): takes the points it left
        unclaimed; or, on an over-declared play, the points claimed beyond its score, which its player
        loses; or, when the declaration was exact (or there is no play to call on), loses 5."""
        if not self.options.joker:
            raise IllegalMove("the Joker rule is not in play in this game")
        if not 0 <= caller < self.players:
            raise IllegalMove(f"there is no player {caller + 1}")
        if self.outcome is not None and self.outcome.resigned is not None:
            raise IllegalMove("the game was given up: nothing is called on it")
        last = self.last_turn
        window_open = last is not None and last.is_play  # open until the next player acts
        if last is not None and last.player == caller and window_open:
            raise IllegalMove("you cannot call Joker on your own play")
        scores = self.scores
        taken = 0
        if window_open and self.unclaimed > 0:
            gain = self.unclaimed
        elif window_open and self.overclaimed > 0 and last is not None:
            gain = taken = self.overclaimed
            scores = _set(scores, last.player, scores[last.player] - taken)
        else:
            gain = -JOKER_PENALTY
        state = replace(
            self,
            scores=_set(scores, caller, scores[caller] + gain),
            calls=(*self.calls, (len(self.turns), JokerCall(caller, gain, taken))),
            log=(*self.log, f"joker {caller}"),
            unclaimed=0 if gain > 0 else self.unclaimed,
            overclaimed=0 if gain > 0 else self.overclaimed,
        )
        if state.outcome is not None:  # a call on the last play of the game changes the final scores
            return replace(state, outcome=None)._finish(self.outcome.reason, self.outcome.went_out)  # type: ignore[union-attr]
        return state

    # --- what a player may see ---

    def view(self, player: int) -> PlayerView:
        """What `player` may know: their own rack, the board, scores, counts; never another rack or
        the order of a bag, nor, while "Joker" may still be called on the last play, its worth (nor
        what it left unclaimed or claimed beyond it: the referee's `unclaimed` and `overclaimed`)."""
        turns = tuple(_public_turn(t, player) for t in self.turns)
        return PlayerView(
            player=player,
            options=self.options,
            names=self.names,
            board=self.board,
            rack=self.racks[player],
            scores=self.scores,
            current=-1 if self.is_over else self.current,
            bag_sizes=tuple(len(b) for b in self.bags),
            rack_sizes=tuple(len(r) for r in self.racks),
            unseen=self.unseen_by(player),
            turns=shown_worths(turns, call_window_open(self.options, turns, self.calls, self.is_over)),
            outcome=self.outcome,
            starter=self.starter,
            calls=self.calls,
        )

    def unseen_by(self, player: int) -> tuple[Tile, ...]:
        """The tiles `player` cannot see (other racks and the bags), sorted: a multiset, no order."""
        pool = Counter(full_set())
        pool -= rack_counter(t for _, t in self.board.tiles())
        pool -= rack_counter(self.racks[player])
        return tuple(sorted(pool.elements()))

    def tile_count(self) -> Counter[Tile]:
        """Every tile of the game in rack form, wherever it is (the test of 104 tiles)."""
        c = rack_counter(t for _, t in self.board.tiles())
        for r in self.racks:
            c += rack_counter(r)
        for b in self.bags:
            c += rack_counter(b)
        return c

    def final_scores(self) -> tuple[int, ...]:
        return self.outcome.final_scores if self.outcome else self.scores

    def __str__(self) -> str:
        head = [
            " | ".join(
                f"{'>' if p == self.current_player else ' '}{name}: {self.scores[p]}"
                for p, name in enumerate(self.names)
            ),
            f"bag: {self.bag_size()} tiles",
        ]
        racks = [f"{name}'s rack: {format_tiles(self.racks[p])}" for p, name in enumerate(self.names)]
        tail = []
        if self.outcome:
            tail.append("game over: " + ", ".join(self.names[w] for w in self.outcome.winners) + " won")
        return "\n".join([*head, str(self.board), *racks, *tail])


def call_window_open(
    options: RuleOptions, turns: Sequence[Turn], calls: Sequence[tuple[int, JokerCall]], over: bool
) -> bool:
    """Whether "Joker" may still be called on the last turn, so that its worth stays hidden from the
    players: under the Joker rule, a play that is the last turn, not called on yet, in a round not
    over. A call settles the play (the points it left or over-claimed are gone, so any later call
    costs 5); the next player's action closes it; so does the end of the round (the table's choice:
    nobody calls once the game is over)."""
    last = turns[-1] if turns else None
    called = any(before == len(turns) for before, _ in calls)
    return options.joker and last is not None and last.is_play and not called and not over


def shown_worths(turns: tuple[Turn, ...], window_open: bool) -> tuple[Turn, ...]:
    """`turns` as the players are shown them: the last one's worth withheld (None) while "Joker" may
    still be called on it (`call_window_open`)."""
    if not window_open:
        return turns
    return (*turns[:-1], replace(turns[-1], true_points=None))


@dataclass(frozen=True)
class PlayerView:
    """A game as one player sees it. Bots are given only this. Under the Joker rule it does not say
    whether the last play was declared right while that may still be called: the last turn's worth
    is withheld (None), and a player counts the play on the board (`last_play_worth`)."""

    player: int
    options: RuleOptions
    names: tuple[str, ...]
    board: Board
    rack: tuple[Tile, ...]
    scores: tuple[int, ...]
    current: int
    bag_sizes: tuple[int, ...]
    rack_sizes: tuple[int, ...]
    unseen: tuple[Tile, ...]
    turns: tuple[Turn, ...]
    outcome: Outcome | None
    starter: int
    calls: tuple[tuple[int, JokerCall], ...] = ()  # the Joker calls: (number of turns before it, call)

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def scorer(self) -> Scorer:
        """How a play scores in this game (`GameState.scorer`): what a bot or a coach scores plays by."""
        return Scorer.of(self.options)

    @property
    def bag_size(self) -> int:
        """Tiles left in this player's own bag (the only bag in a standard game)."""
        return self.bag_sizes[self.player if self.options.solitaire else 0]

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def may_pass(self) -> bool:
        return self.options.exchange == ExchangeRule.ANY_TIME or not has_legal_play(self.board, self.rack)

    @property
    def last_called(self) -> bool:
        """Whether "Joker" has been called on the last turn already (it is settled then)."""
        return any(before == len(self.turns) for before, _ in self.calls)

    def last_play_worth(self) -> int | None:
        """The last turn's worth as this player counts it for themselves, from the board (the play scored
        on the board as it stood before it); None when the last turn was no play."""
        last = self.turns[-1] if self.turns else None
        if last is None or not isinstance(last.move, Play):
            return None
        return self.scorer.laid(self.board, last.move).total


def _public_turn(turn: Turn, viewer: int) -> Turn:
    """Hide which tiles another player exchanged (how many is public)."""
    if isinstance(turn.move, Exchange) and turn.player != viewer:
        return replace(turn, move=Exchange(()))
    return turn


def _set(values: tuple[_T, ...], i: int, value: _T) -> tuple[_T, ...]:
    return (*values[:i], value, *values[i + 1 :])


def new_game(
    players: int = 2,
    options: RuleOptions | None = None,
    seed: int = 0,
    names: Sequence[str] | None = None,
) -> GameState:
    """Shuffle the bag(s) with `seed`, draw for the start, and deal 5 tiles to each player."""
    options = options or RuleOptions()
    if options.solitaire:
        if players != 2:
            raise ValueError("Solitaire is played by two sides, Dark and Light")
        names = tuple(names) if names else SOLITAIRE_NAMES
    elif not 2 <= players <= MAX_PLAYERS:
        raise ValueError(f"Crib Tiles is played by 2 to {MAX_PLAYERS} players, not {players}")
    names = tuple(names) if names else tuple(f"Player {i + 1}" for i in range(players))
    if len(names) != players:
        raise ValueError(f"{players} players need {players} names, not {len(names)}")
    for problem in filter(None, map(name_problem, names)):
        raise ValueError(problem)
    rng = random.Random(seed)
    if options.solitaire:
        side_colours: tuple[Colour, ...] = (Colour.DARK, Colour.LIGHT)
        bags = tuple(_shuffled(colour_set(c), rng) for c in side_colours)
        bag_of: Sequence[int] = (0, 1)
    else:
        bags = (_shuffled(full_set(), rng),)
        bag_of = (0,) * players
    starter, draws = _draw_for_start(bags, players, options.start == Start.HIGH, bag_of)
    bags = tuple(_shuffled(b, rng) for b in bags)  # the drawn tiles went back: shuffle again
    racks: list[tuple[Tile, ...]] = []
    bag_lists = [list(b) for b in bags]
    for p in range(players):
        bag = bag_lists[bag_of[p]]
        racks.append(tuple(reversed(bag[-RACK_SIZE:])))
        del bag[-RACK_SIZE:]
    return GameState(
        options=options,
        seed=seed,
        names=names,
        board=Board.empty(),
        racks=tuple(racks),
        bags=tuple(tuple(b) for b in bag_lists),
        scores=(0,) * players,
        current=starter,
        start_draws=draws,
        starter=starter,
    )

"""What the cribbage table says: the prompt (whose turn, what to do, the question waiting), the side
panel's lines (the deal's moves and what each scored; in the show, each hand counted), each other seat's
line, the keys' line, and a spectator's prompt. Words only: no input, nothing changed."""

from __future__ import annotations

from cribtiles.cribbage.moves import Go
from cribtiles.cribbage.muggins import ClaimKind
from cribtiles.cribbage.options import Phase, Variant
from cribtiles.table.cribbage.public import Act, CribbagePublic, PublicCounted

from ..again import resign_question
from ..chat import CHAT_KEYS
from ..geometry import contains
from ..paint import CREAM, DIM, GOLD
from ..tiles.game_words import stand_in_words
from .paint import InfoLine, SeatView, line_rects
from .table_calls import Calls
from .table_cards import Cards
from .table_end import TakingBack, capital
from .table_state import Hold, Mode, Stage

KEYS = (
    "Left/Right choose · Space picks or plays · Enter confirms · G go · I hint · N new game · Ctrl+R resign"
    " · Esc the title"
)
UNDO_KEYS = " · U undo"
#: The keys' line of a table watched.
WATCH_KEYS = f"You are watching: nothing to play · {CHAT_KEYS} · Esc goes back"
MUGGINS_KEYS = " · digits say your count · M calls muggins"
COUNT_KEYS = " · digits say your count"


class Words:
    """The table's words, as the felt stands now."""

    def __init__(self, stage: Stage, cards: Cards, calls: Calls, taking_back: TakingBack) -> None:
        self.stage = stage
        self.cards = cards
        self.calls = calls
        self.taking_back = taking_back

    def whose(self, player: int) -> str:
        """Whose, in the prompt's words: "your"; the one bot's of two players "its"; else the player's by
        name ("West's", "Ann's": a person online, or one of several, or any seat of a table watched)."""
        stage = self.stage
        pub = stage.pub
        if player == stage.person and not stage.watching:
            return "your"
        if stage.watching:
            return f"{pub.called(player)}'s"
        return "its" if pub.players == 2 and pub.bots[player] else f"{pub.called(player)}'s"

    def keys(self, can_undo: bool, chat: bool) -> str:
        """The keys' line: a replay's (or a spectator's) own, else the table's with what its options add
        (`can_undo`: U may take a move back; `chat`: C opens the chat)."""
        stage = self.stage
        if stage.replaying is not None:
            return stage.replaying[1]
        options = stage.pub.options
        return (
            KEYS
            + (UNDO_KEYS if can_undo else "")
            + (MUGGINS_KEYS if options.muggins or options.play_muggins else "")
            + (COUNT_KEYS if options.manual_count and not options.muggins else "")
            + (f" · {CHAT_KEYS}" if chat else "")
        )

    def watched(self) -> tuple[str, str]:
        """A spectator's prompt and keys (as a replay's are the replay's): who is watched, and the last
        move made, or how the game ended."""
        pub = self.stage.pub
        said = pub.story[-1].words if pub.story else ""
        if pub.is_over and pub.summary is not None:
            said = f"The end: {pub.summary.words}"
        where = "Watching " + " and ".join(pub.names)
        return (f"{where}: {said}" if said else where, WATCH_KEYS)

    def seat(self, player: int, dealer: int) -> SeatView:
        """Another player's seat: their name, whether they deal (and are your partner), their cards left."""
        stage = self.stage
        pub = stage.pub
        partner = not stage.watching and pub.partner(stage.person) == player  # a spectator has no partner
        about = [*stage.session.about(player)] + (["partner"] if partner else [])  # online: "away 3 min"
        about += ["the dealer"] if dealer == player else []
        if stage.mode is not Mode.SHOW:
            left = pub.hand_sizes[player]
            about.append(f"{left} card{'s' if left != 1 else ''}")
        acting = pub.to_move == player  # in the discard everyone chooses at once: those still choosing
        if pub.phase is Phase.DISCARD:
            acting = not stage.seen.discarded_by[player]
        acting = acting and not pub.is_over and pub.players > 2
        return SeatView(player, pub.names[player], " · ".join(about), pub.side_of(player), acting)

    # --- the prompt ---

    def prompt(self) -> tuple[str, bool]:
        """The prompt's words, and whether they say something went wrong."""
        stage = self.stage
        if stage.replaying is not None:
            return stage.replaying[0], False
        if stage.resigning:
            question = resign_question(stage.pub.names, stage.person, False)
            return f"{question} Y or Enter resigns, N or Escape goes back.", True
        question = self.taking_back.question()
        if question:
            return question, False
        if stage.message:
            return stage.message, stage.message_error
        table = stage.pub
        view = stage.seen
        actor = stage.actor
        bot, its = capital(table.called(actor)), table.its(actor)
        crib = self.whose(view.dealer)
        if table.is_over:
            return "", False
        mode = stage.mode
        if mode is Mode.DISCARD:
            chosen = self.cards.chosen
            if view.discards:
                return self._still_choosing(), False
            if len(chosen) == stage.to_crib:
                laid = " and ".join(str(c) for c in chosen)
                return f"Lay {laid} in {crib} crib: Enter or Discard.", False
            how = "click them or drag them" if stage.to_crib == 2 else "click it or drag it"
            crib_cards = "two cards" if stage.to_crib == 2 else "a card"
            return f"Choose {crib_cards} for {crib} crib: {how} to the crib.", False
        if stage.hold is Hold.PLAY_OVER:
            return "The play is over: Enter or The show counts the hands.", False
        if mode is Mode.PLAY:
            calls = self.calls
            claim = calls.offered()
            if claim is not None:
                said = f"{bot} said {claim.declared} for {its} {claim.cards[-1]}: M calls muggins"
                if calls.count_starts_again():
                    return f"{said}; then the count starts again at 0: laying your card lets it stand.", False
                if calls.lays_on():
                    return f"{said}; playing on lets it stand.", False
                return f"{said}, Enter lets it stand.", False
            if stage.my_turn:
                if Go() in view.legal:
                    return f"No card of yours fits the count of {view.count}: say Go (G or the button).", False
                if calls.claiming():
                    return "Your turn: type what your card scores (nothing typed: 0), then lay it.", False
                return "Your turn: click a card or drag it to the play.", False
            return f"{bot} is to play...", False
        return self._show_prompt()

    def _still_choosing(self) -> str:
        """Whom the discard waits for, once your crib cards are laid: "Ann is choosing their crib cards...",
        "West and East are choosing their crib cards..."."""
        stage = self.stage
        pub = stage.pub
        waiting = [p for p, laid in enumerate(stage.seen.discarded_by) if not laid and p != stage.person]
        cards = "crib cards" if stage.to_crib == 2 else "crib card"
        if len(waiting) == 1:
            return f"{capital(pub.called(waiting[0]))} is choosing {pub.its(waiting[0])} {cards}..."
        names = [pub.called(p) for p in waiting]
        if not names:
            return "The starter is cut..."
        return capital(f"{', '.join(names[:-1])} and {names[-1]} are choosing their crib cards...")

    def _show_prompt(self) -> tuple[str, bool]:
        stage = self.stage
        table = stage.pub
        view = stage.seen
        if stage.holding:
            return "The show is over: Enter or Next deal deals again.", False
        claim = self.calls.offered()
        crib_step = view.show_step == table.players  # the crib is counted last, after every hand
        if claim is not None:
            other, its = capital(table.called(claim.counter)), table.its(claim.counter)
            said = f"{other} says {its} {claim.what} makes {claim.declared}"
            return f"{said}: M calls muggins, Enter lets it stand.", False
        if stage.my_turn:
            what = "your crib" if crib_step else "your hand"
            if self.calls.declaring():
                return f"Count {what}: type the points (or - and +), then Enter.", False
            return f"Count {what}: Enter or Count.", False
        actor = stage.actor
        its = table.its(actor)
        what = f"{its} crib" if crib_step else f"{its} hand"
        if self.calls.went_on != table.ply:
            return f"Enter or Go on: {table.called(actor)} counts {what}.", False
        return f"{capital(table.called(actor))} counts {what}...", False

    # --- the side panel ---

    def lines(self) -> tuple[InfoLine, ...]:
        """The side panel: the deal's moves, newest first, each with what it scored; in the show, the
        hands counted."""
        stage = self.stage
        table = stage.pub
        view = stage.seen
        if stage.mode is Mode.SHOW:
            return self._show_lines()
        whose = "your" if view.dealer == stage.person else f"{table.called(view.dealer)}'s"
        lines = [InfoLine(f"Deal {view.deal_number}: {whose} crib", "", GOLD, 2)]
        for h in reversed([h for h in table.story if h.deal == view.deal_number]):
            scored = sum(e.points or 0 for e in h.events)
            if h.act is not Act.LET_STAND:  # a card let stand needs no line; what pegged on after it does
                colour = CREAM if scored else DIM
                lines.append(InfoLine(h.words, "", colour, -1 if not scored else 0))
                if h.stand_in is not None:  # the table's stand-in moved for them (online): not their own move
                    who = "You" if h.player == stage.person else table.names[h.player]
                    lines.append(InfoLine(stand_in_words(h.stand_in, who, "made that move") + ".", "", DIM, -2))
            for e in (e for e in h.events if e.points != 0):  # a score said aloud that pegged nothing: no line
                points = "" if e.points is None else f"+{e.points}"  # said aloud, not yet answered: points to come
                lines.append(InfoLine(e.words, points, player_colour(table.side_of(e.player)), -1, e.cards, 1))
        if table.options.variant is Variant.THREE and view.phase is Phase.DISCARD:  # why the crib holds a card
            lines.append(InfoLine("The crib has a card from the pack; each lays one more.", "", DIM, -2))
        if view.deal_number == 1 and table.options.variant is Variant.FIVE_CARD:  # pegged before the first card
            pone = (view.dealer + 1) % table.players
            who = "You" if pone == stage.person else capital(table.called(pone))
            lines.append(InfoLine(f"{who}, not dealing: three for last", "+3", player_colour(pone), -1, (), 1))
        if view.deal_number == 1:  # who deals and why, the first deal through, under what came after it
            cuts = table.cut_words[: len(view.cut_for_deal)]  # a line a round; three for last has its own, above
            lines += [InfoLine(text, "", DIM, -2) for text in cuts]
        return tuple(lines)

    def _show_lines(self) -> tuple[InfoLine, ...]:
        table = self.stage.pub
        lines = [InfoLine("The show", "", GOLD, 2)]
        for i, counted in reversed(list(enumerate(table.counted))):
            lines += counted_lines(table, counted, i)
        if not table.counted:
            lines.append(InfoLine("Each hand is counted with the starter:", "", DIM, -2))
            if table.players == 2:
                lines.append(InfoLine("the non-dealer's first, then the dealer's, then the crib.", "", DIM, -2))
            else:
                lines.append(InfoLine("round from the dealer's left, the dealer's last, then the crib.", "", DIM, -2))
        return tuple(lines)

    def hover(self, lines: tuple[InfoLine, ...]) -> int | None:
        """The panel's line under the mouse, if it lights cards."""
        mouse = self.cards.mouse
        for i, rect in enumerate(line_rects(self.stage.layout, lines)):
            if contains(rect, mouse) and lines[i].cards:
                return i
        return None


def player_colour(player: int) -> tuple[int, int, int]:
    from .. import art

    return art.shade(art.PLAYER_COLOURS[player % 4], 1.35)


def counted_lines(table: CribbagePublic, counted: PublicCounted, index: int) -> list[InfoLine]:
    """A counted hand in the panel: whose, its total (and what was said), then each combination; while
    the count said aloud waits for an answer, only what was said (the cards are there to be counted)."""
    whose = "Your" if counted.owner == table.person else capital(f"{table.called(counted.owner)}'s")
    what = "crib" if counted.crib else "hand"
    total = counted.score.total
    cards = (*counted.cards, counted.score.starter)
    claim = table.claim
    if claim is not None and claim.kind is ClaimKind.SHOW and index == len(table.counted) - 1:
        answerer = (claim.counter + 1) % table.players  # the next player round answers (an opponent)
        waiting = "your answer" if answerer == table.person else "the answer"
        return [
            InfoLine(f"{whose} {what}", str(counted.declared), CREAM, 0, cards, 0, index),
            InfoLine(f"said {counted.declared}: waiting for {waiting}", "", GOLD, -1, (), 1, index),
        ]
    lines = [InfoLine(f"{whose} {what}", str(total), CREAM, 0, cards, 0, index)]
    colour = player_colour(table.side_of(counted.owner))
    for item in counted.score.items:
        from cribtiles.cribbage.show import item_words

        lines.append(InfoLine(item_words(item), f"+{item.points}", colour, -1, item.cards, 1, index))
    if not counted.score.items:
        lines.append(InfoLine("nothing: nineteen, as players say", "0", DIM, -1, (), 1, index))
    if counted.declared != total and not table.options.muggins:  # counted by hand: corrected, nothing lost
        said = f"said {counted.declared}: corrected to {total}, no points lost"
        lines.append(InfoLine(said, "", GOLD, -1, (), 1, index))
    elif counted.declared != total or counted.called:
        off = total - counted.declared
        how = f"{off} missed" if off > 0 else f"{-off} said over" if off < 0 else "right"
        answerer = (counted.owner + 1) % table.players
        caller = "you" if answerer == table.person else table.called(answerer)
        answer = {True: f", muggins called by {caller}", False: ", let stand", None: ""}[counted.called]
        lines.append(InfoLine(f"said {counted.declared}: {how}{answer}", "", GOLD, -1, (), 1, index))
    return lines

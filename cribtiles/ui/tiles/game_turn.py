"""A turn made at the table and told: the person's move or another seat's once it has landed, its
breakdown, pegs and calls, and the rack shown next (behind the curtain when people share the window).
"""

from __future__ import annotations

from cribtiles.rules.errors import IllegalMove
from cribtiles.rules.moves import Exchange, Move, Play
from cribtiles.table.tiles.history import TurnRecord
from cribtiles.table.tiles.joker import Item

from ..geometry import centre
from .game_parts import Parts
from .game_words import did_words, sentence, stand_in_words


def commit(scene: Parts, move: Move, declared: int | None = None, claimed: tuple[Item, ...] = ()) -> None:
    """Make a move at the table: the person's, or another seat's once its tiles have landed. A move the
    table refuses (a table elsewhere moved on, or could not be reached) is told, and nothing changes."""
    session, hand = scene.session, scene.hand
    mover = scene.state.current
    keep = [hand.draft.tiles[i] for i in hand.draft.order] if mover == scene.human else None
    # announced by poll: a bot's, a player's elsewhere, or one a table elsewhere made for this seat
    theirs = scene.others.take(move)
    note = "" if theirs else scene.coaching.note(move)
    try:
        record = session.land() if theirs else session.act(mover, move, declared, claimed)
    except IllegalMove as e:
        scene.toast(sentence(str(e)), 6.0)
        return
    scene.coaching.coach.clear()  # the position is gone
    scene.joker.cancel()
    scene.acts.confirming = None  # a play asked about is gone with it (a move made elsewhere for this seat)
    tell(scene, record)
    before = scene.shown.after_turn(mover)
    if note:  # the mover's to read, at once or when their rack is next uncovered
        scene.coaching.hold(mover, note, later=scene.human != mover)
    if mover == before or scene.human != before:  # a bot's move leaves the person's rack (and tile in hand)
        hand.deal(session.view(scene.human).rack, keep if scene.human == before else None)
        scene.keys.selected = 0
    scene.refresh_preview()
    scene.coaching.show_notes()
    scene.saved()


def tell(scene: Parts, record: TurnRecord) -> None:
    """Show what a turn did: a play's breakdown and its pegs, a pass or an exchange in words."""
    who = scene.name_of(record.player)
    scene.turn_list.past = None  # the game moved on: show it as it is
    if record.score is not None:
        read = scene.anims.score(record)
        scene.help = False  # the new breakdown is what the panel shows now
        scene.joker.tell_calls(scene.anims.pegs, wait=read)  # the bots' calls on it
        scene.app.sounds.click()
    elif isinstance(record.turn.move, Exchange):
        n = record.turn.drawn
        scene.toast(f"{who} exchanged {n} tile{'s' if n != 1 else ''}.")
    else:
        scene.toast(f"{who} passed.")
    why = scene.state.stand_in(record.number)
    if why is not None:  # the table's stand-in moved for them (online): not their own move
        scene.toast(stand_in_words(why, who, did_words(record.turn.move)) + ".")


def fly_in(scene: Parts, move: Move) -> None:
    """Another seat's move: a play's tiles fly in from where its rack is drawn, then it is made."""
    if not (isinstance(move, Play) and scene.app.prefs.pace > 0):
        commit(scene, move)
        return
    from .panel import opponent_tiles

    drawn = opponent_tiles(scene.snapshot(), scene.state.current)
    starts = [centre(r) for r in drawn][-len(move.placements) :]
    scene.anims.fly(move, starts, centre(scene.app.layout.opponents))

"""Taking back a turn at the table (the Undo button, U, Ctrl+Z): the person's last turn and the bots'
replies after it, every controller back to the game as it stands again, and what was taken back told.
"""

from __future__ import annotations

from cribtiles.rules.errors import IllegalMove

from .game_parts import Parts
from .game_words import sentence, took_back_words


def undo_shown(scene: Parts) -> bool:
    """The Undo button shows when the setting and the table allow it and a bot sits at the table."""
    session = scene.session
    return scene.app.prefs.undo and session.coach_allowed and any(s.is_bot for s in session.seats)


def can_undo(scene: Parts) -> bool:
    """... and the person shown may take back their last turn now."""
    return undo_shown(scene) and scene.curtain is None and scene.session.can_undo(scene.human)


def take_back(scene: Parts) -> None:
    """Take back the person's last turn and the bots' replies after it; a bot thinking is stopped,
    the game saved, and a message says what was taken back (or, in words, why nothing may be)."""
    session, human = scene.session, scene.human
    if not scene.app.prefs.undo:
        scene.toast("Undo is off in the settings.")
        return
    if not session.coach_allowed:
        scene.toast("Moves are not taken back at this table: its creator did not allow the coach.")
        return
    if not any(s.is_bot for s in session.seats):
        scene.toast("Plays are taken back only in a game against bots.")
        return
    try:
        taken = session.undo_turns(human)
    except IllegalMove as e:
        scene.toast(f"{str(e)[:1].upper()}{str(e)[1:]}.")
        return
    on_its_way = scene.state.current if scene.anims.pending is not None else None
    try:
        session.undo(human)  # a bot thinking about a reply that will never be made stops
    except IllegalMove as e:  # a table elsewhere moved on, or could not be reached
        scene.toast(sentence(str(e)))
        return
    scene.coaching.taken_back(human)
    scene.others.thinking_since = None
    names = scene.state.names
    whose = "your" if scene.name_of(human) == "You" else f"{names[human]}'s"
    scene.toast(took_back_words(taken, whose, names, None if on_its_way is None else names[on_its_way]))
    went_back(scene)
    scene.saved()
    scene.app.sounds.click()


def went_back(scene: Parts) -> None:
    """Turns were taken back (here, or by a player at a table elsewhere): every controller goes back to
    the game as it stands again."""
    scene.turn_list.past, scene.acts.confirming, scene.ended, scene.keys.selected = None, None, False, 0
    scene.joker.cancel()
    scene.anims.taken_back()
    scene.shown.taken_back()
    scene.hand.reset(scene.session.view(scene.human).rack)
    scene.refresh_preview()

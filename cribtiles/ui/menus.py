"""The screens around the game: the title and what its menu opens (each game's way in asked of the
registry), and the settings, changed there or by their keys at the table, applied and kept.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import pygame

from cribtiles.games import GAMES, OPENED, game_named
from cribtiles.table.settings import SPEEDS, Preferences

from .home_game import HomeScene, HomeSession, OwnGame
from .scene import Scene
from .screens import Item
from .sound import Sounds

if TYPE_CHECKING:  # types only: the History's module is imported once the History is opened
    from .history_scene import HistoryHost
    from .online.side import OnlineSide

    class Window(HistoryHost, Protocol):
        """What the menus ask of the window: its screens, its game, online play, and the window itself."""

        scenes: list[Scene]
        prefs: Preferences
        sounds: Sounds
        session: HomeSession
        game: HomeScene
        own: OwnGame
        online_side: OnlineSide

        def push(self, scene: Scene) -> None: ...

        def close_top(self) -> None: ...

        def back_to_game(self) -> None: ...

        def quit(self) -> None: ...

        def refit(self) -> None:
            """Open the window again as the settings say (full screen or not), and lay it out."""
            ...

        def relayout(self) -> None: ...

        def open_new_game(self) -> None: ...


class Menus:
    """The title screen and the screens it opens, over the window's game; the settings applied."""

    def __init__(self, window: Window) -> None:
        self.window = window

    # --- the title ---

    def open_title(self, first_start: bool = False, greeting: str = "") -> None:
        """The title screen over the game; at the first start it offers the tutorial (once). `greeting`:
        what it says at its top (why the window came to it)."""
        from .title import TitleScene

        window = self.window
        if any(isinstance(s, TitleScene) for s in window.scenes):
            return
        items = self.title_items()
        focus = 0
        if first_start:
            greeting, wanted = window.own.welcome()
            focus = next(i for i, item in enumerate(items) if item.label == wanted)
            window.prefs.tutorial_offered = True
            window.keeper.save_preferences(window.prefs)
        window.push(TitleScene(items, on_back=window.close_top, greeting=greeting, focus=focus))

    def title_items(self) -> list[Item]:
        """The title screen's menu: Continue only while the game at the table is unfinished; each game's
        way in, as the registry's entry for it makes it."""
        window = self.window
        unfinished = window.own.unfinished
        scores = window.own.scores(window.session.state)
        items = [
            Item("Continue", window.back_to_game, key=pygame.K_c, note=f"The game at the table: {scores}"),
            *(kind.part(OPENED)(window) for kind in GAMES.values()),
            *window.online_side.items(),
            Item("Rules", self.open_rules, key=pygame.K_r, note="How Kings Cribbage is played, page by page"),
            *window.own.title_items(),
            Item("History", self.open_history, key=pygame.K_h, note="Every finished game: replay any of them"),
            Item("Statistics", self.open_statistics, key=pygame.K_s, note="Wins, averages and bests, by opponent"),
            Item("Settings", self.open_settings, key=pygame.K_e, note="Sound, speed, full screen, undo, hints"),
            Item("Quit", window.quit, key=pygame.K_q, note=self.quit_note()),
        ]
        return items if unfinished else items[1:]

    def quit_note(self) -> str:
        """What quitting does to the game: never "saved" when its latest save failed."""
        if getattr(self.window.keeper, "unsaved", None) is None:
            return "Your game is saved; it goes on when you come back"
        return "Your game could not be saved: quitting loses its last turns"

    def open_game(self, name: str) -> None:
        """The title's way into the game called `name` (its item's action), wherever it is asked."""
        game_named(name).part(OPENED)(self.window).action()

    # --- what the title opens ---

    def open_rules(self, page: int = 0) -> None:
        from .rules_scene import RulesScene

        self.window.push(RulesScene(self.window, self.window.close_top, page))

    def open_history(self) -> None:
        from .history_scene import HistoryScene

        self.window.push(HistoryScene(self.window, self.window.close_top))

    def open_statistics(self) -> None:
        from .history_scene import StatisticsScene

        self.window.push(StatisticsScene(self.window, self.window.close_top))

    # --- the settings ---

    def table_key(self, event: pygame.event.Event) -> bool:
        """The window's keys at the table and its end card (not on the screens over them, which have
        letters of their own): Escape the title (once nothing at the table is left to cancel), Ctrl+N the
        New game screen, A the speed, M the sound, L the bot's level (on an end card online, L leaves).
        True when `event` was one of them."""
        window, k = self.window, event.key
        top = window.scenes[-1]
        if k == pygame.K_ESCAPE and top is window.game and window.game.nothing_to_cancel():
            self.open_title()
        elif k == pygame.K_n and event.mod & pygame.KMOD_CTRL:  # asks before throwing a game away
            window.open_new_game()
        elif k == pygame.K_a and not event.mod & pygame.KMOD_CTRL:
            self.cycle_speed()
        elif k == pygame.K_m:
            self.toggle_sound()
        elif k == pygame.K_l and window.own.takes_level_key(top):
            window.own.cycle_level()
        else:
            return False
        return True

    def open_settings(self) -> None:
        from .settings_scene import SettingsScene

        self.window.push(SettingsScene(self.window.prefs, self.setting_changed, self.window.close_top))

    def setting_changed(self, name: str) -> None:
        """A setting changed on the Settings screen: apply it at once, and save the settings."""
        window, prefs = self.window, self.window.prefs
        if name == "sound":
            window.sounds.enabled = prefs.sound
            window.sounds.click()
        elif name == "volume":
            window.sounds.set_volume(prefs.volume)
            window.sounds.click()
        elif name == "fullscreen":
            window.refit()
        elif name == "colour_marks":
            from . import art

            art.set_letter_marks(prefs.colour_marks)
            window.relayout()
        window.keeper.save_preferences(prefs)

    def toggle_fullscreen(self) -> None:
        self.window.prefs.fullscreen = not self.window.prefs.fullscreen
        self.window.refit()
        self.window.keeper.save_preferences(self.window.prefs)

    def cycle_speed(self) -> None:
        prefs, names = self.window.prefs, list(SPEEDS)
        prefs.speed = names[(names.index(prefs.speed) + 1) % len(names)] if prefs.speed in names else names[0]
        self.window.keeper.save_preferences(prefs)
        self.window.game.toast(f"Animation speed: {prefs.speed}")

    def toggle_sound(self) -> None:
        prefs = self.window.prefs
        prefs.sound = self.window.sounds.enabled = not prefs.sound
        self.window.keeper.save_preferences(prefs)
        self.window.game.toast("Sound on" if prefs.sound else "Sound off")

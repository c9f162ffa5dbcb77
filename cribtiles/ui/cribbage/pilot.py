"""A cribbage player made of posted events: it plays your seat at the cribbage table as a person would.

It asks a bot for your move, then posts real pygame events: clicks on two cards and on Discard (or a
drag to the crib), a click or a drag to lay a card, G to say go, Enter to count or to go on in the
show. The scene tests, the screenshots and the self-test use it; nothing here makes a move directly.
"""

from __future__ import annotations

import random

import pygame

from cribtiles.bot.cribbage.bots import choose_safely
from cribtiles.bot.cribbage.levels import make_cribbage_bot
from cribtiles.cribbage.moves import Count, Discard, Go, Muggins, PlayCard
from cribtiles.cribbage.show import score_show

from ..geometry import centre
from ..tiles.autopilot import post_click, post_drag, post_key
from .layout import ButtonKind
from .scene import CribbageScene
from .table_state import Mode


class CribbagePilot:
    """Plays the person's seat of `scene`; `step()` posts the events of one action (or none when it
    is not the person's to act), and says whether it posted any."""

    def __init__(self, scene: CribbageScene, level: str = "medium", seed: int = 1, drag: bool = False) -> None:
        self.scene = scene
        self.bot = make_cribbage_bot(level)
        self.rng = random.Random(seed)
        self.drag = drag  # drag cards (to the crib, to the play) rather than click them
        self.steps = 0

    def step(self) -> bool:
        scene = self.scene
        public = scene.pub
        if scene.ended:
            return False
        if scene.holding or (scene.mode is Mode.SHOW and scene.bots_turn and scene.calls.went_on != public.ply):
            post_key(pygame.K_RETURN)  # go on: the next count, or the next deal
            self.steps += 1
            return True
        if not (scene.my_turn or scene.may_lay_away):  # crib cards are laid as soon as they are dealt
            return False
        move = choose_safely(self.bot, scene.seen, self.rng)
        lay = scene.layout
        if isinstance(move, Discard):
            for card in move.cards:
                rect = scene.hand_rects()[scene.hand.index(card)]
                if self.drag:
                    post_drag(centre(rect), centre(lay.crib))
                else:
                    post_click(centre(rect))
                    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(0, 0), rel=(0, 0), buttons=(0, 0, 0)))
            shown = [b.rect for b in scene.snapshot().buttons if b.kind is ButtonKind.DISCARD]  # Undo may be beside it
            post_click(centre(shown[0] if shown else lay.buttons((ButtonKind.DISCARD,))[ButtonKind.DISCARD]))
        elif isinstance(move, PlayCard):
            if move.claim:  # muggins in the play: type what the card is said to score, then lay it
                _type(move.claim)
            rect = scene.hand_rects()[scene.hand.index(move.card)]
            if self.drag:
                post_drag(centre(rect), centre(lay.play))
            else:
                post_click(centre(rect))
        elif isinstance(move, Go):
            post_key(pygame.K_g)
        elif isinstance(move, Count):
            if public.options.counted_by_hand:  # you count your own: type what you say the cards make
                assert public.starter is not None
                crib = public.show_step == public.players  # the crib is counted after every hand
                said = move.declared
                _type(score_show(scene.seen.to_count, public.starter, crib).total if said is None else said)
            post_key(pygame.K_RETURN)
        elif isinstance(move, Muggins):
            post_key(pygame.K_m if move.claim else pygame.K_RETURN)
        self.steps += 1
        return True


def _type(number: int) -> None:
    for digit in str(number):
        post_key(pygame.K_0 + int(digit))

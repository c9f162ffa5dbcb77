"""A wooden click and a chime (a turn that came at a table online), synthesised in code (no sound files),
and a mixer that may not exist.

Without a sound device (a server, CI, SDL_AUDIODRIVER=dummy failing) the game runs silent.
"""

from __future__ import annotations

import contextlib
import math
import random
from array import array

import pygame


def click_samples(rate: int, channels: int, seed: int = 3) -> bytes:
    """A short knock of wood on wood: a damped low resonance, a bright tap and a burst of noise,
    as signed 16-bit samples interleaved for `channels`."""
    rng = random.Random(seed)
    n = int(rate * 0.07)
    out = array("h")
    for i in range(n):
        t = i / rate
        body = math.sin(math.tau * 190 * t) * math.exp(-t * 70) * 0.55
        tap = math.sin(math.tau * 1150 * t + 0.3) * math.exp(-t * 220) * 0.35
        noise = (rng.random() * 2 - 1) * math.exp(-t * 400) * 0.5
        attack = min(1.0, i / (rate * 0.0008))
        v = int(max(-1.0, min(1.0, (body + tap + noise) * attack)) * 20000)
        out.extend([v] * channels)
    return out.tobytes()


def chime_samples(rate: int, channels: int) -> bytes:
    """Two soft bell notes, a fifth apart (A5 then E6), each with a little of its octave, decaying: the
    sound of a turn that came. Signed 16-bit samples interleaved for `channels`."""
    note, length = int(rate * 0.18), int(rate * 0.45)
    mono = [0.0] * (note + length)
    for start, pitch in ((0, 880.0), (note, 1318.5)):
        for i in range(length):
            t = i / rate
            tone = math.sin(math.tau * pitch * t) + 0.3 * math.sin(math.tau * 2 * pitch * t)
            mono[start + i] += tone * math.exp(-t * 7) * min(1.0, i / (rate * 0.004)) * 6000
    out = array("h")
    for v in mono:
        out.extend([max(-32767, min(32767, int(v)))] * channels)
    return out.tobytes()


#: The click's loudness at 100 percent (it is a sharp sound: louder is unpleasant).
FULL = 0.75


class Sounds:
    """The game's sounds; silent when there is no mixer or sound is turned off."""

    def __init__(self, enabled: bool = True, volume: int = 80) -> None:
        self.enabled = enabled
        self.volume = volume
        self._click: pygame.mixer.Sound | None = None
        self._chime: pygame.mixer.Sound | None = None
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init(22050, -16, 2, 512)
            init = pygame.mixer.get_init()
            if init is None:
                return
            rate, size, channels = init
            if abs(size) != 16:
                return
            self._click = pygame.mixer.Sound(buffer=click_samples(rate, channels))
            self._chime = pygame.mixer.Sound(buffer=chime_samples(rate, channels))
            self.set_volume(volume)
        except (pygame.error, ValueError, OSError):
            self._click = self._chime = None

    def set_volume(self, percent: int) -> None:
        """The sounds' loudness, 0 to 100 percent of the click's full strength."""
        self.volume = max(0, min(100, percent))
        for sound in (self._click, self._chime):
            if sound is not None:
                with contextlib.suppress(pygame.error):
                    sound.set_volume(FULL * self.volume / 100)

    @property
    def available(self) -> bool:
        return self._click is not None

    def click(self) -> None:
        if self.enabled and self._click is not None:
            with contextlib.suppress(pygame.error):
                self._click.play()

    def chime(self) -> None:
        """A turn came at a table online (or its time runs short): heard only when sound is on."""
        if self.enabled and self._chime is not None:
            with contextlib.suppress(pygame.error):
                self._chime.play()

"""How the leak checks of online cribbage find a card in what was sent: by its name as a word."""

from __future__ import annotations

import re

from cribtiles.cribbage.cards import Card


def names(text: str, card: Card) -> bool:
    """Whether `text` names `card` as a word: "4H" in `["4H","5D"]` or "laid 4H", never the letters
    inside a longer word, such as a seat's random token ("...kr4Hyvd...")."""
    return re.search(rf"(?<![\w-]){card}(?![\w-])", text) is not None

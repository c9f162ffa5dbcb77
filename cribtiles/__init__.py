"""Crib Tiles: Kings Cribbage, the crossword tile game scored like cribbage."""

__version__ = "0.1.0"

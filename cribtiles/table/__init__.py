"""The game at the table, without pygame: who sits where (people and bots), whose turn it is, the
tiles a person has laid but not played, Joker declarations and calls, every turn's breakdown, the
match and its Servant. The window, the text mode and the arena all drive this one model."""

from .seats import Seat, parse_players, seat_names

__all__ = ["Seat", "parse_players", "seat_names"]

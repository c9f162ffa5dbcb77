"""Classic cribbage's computer players: their discards, their play to 31, their levels, Hard's crib table."""

"""The tile game's computer players: Medium's greedy play, Hard's equity, the Expert's simulation and endgame."""

"""The tile game in the window: its table scene, drag and drop, the Joker's count, review, replay, puzzles, tutorial."""

"""The tile game at the table, without pygame: Joker calls, what a score shows, review, puzzles, tutorial, rules."""

"""Classic cribbage at the table, without pygame: the game and its autosave, ledger, rule book, tutorial, arena."""

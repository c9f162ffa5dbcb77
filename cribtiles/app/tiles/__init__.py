"""The tile game in the application: the text mode and the analyze, replay and review commands."""

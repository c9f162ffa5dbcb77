"""The application around the game: command line, settings, saves, where files live."""

"""The viewer: self-contained HTML pages of games and runs (``gumshoe view``)."""

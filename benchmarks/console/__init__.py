"""The ``gumshoe`` console: the command table, shared options, the demo."""

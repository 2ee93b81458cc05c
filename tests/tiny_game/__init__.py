"""Nim-21, the smallest game on the shared core: a package plus one registry entry.

Two seats take turns removing 1 to 3 counters from a pile of 21; whoever takes the last one
wins. Tests register it (``games.core.registry.register_game``) to show that the console's play
command, the demo and the conformance suite pick a new game up with nothing else written.
"""

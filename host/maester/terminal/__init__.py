"""The terminal: what a person at this computer sees of a game and types into it."""

"""The table: taps turned into commands, and the public view turned into LED segments."""

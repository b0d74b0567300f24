"""The `maester` commands, one module a command (or a few commands that share their options): each
parses its arguments and calls the libraries. cli.py imports a command's module only when it is named."""

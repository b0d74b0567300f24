"""The `maester` command. Each command group lives in its own module with a `register(sub)`."""

import argparse
import sys

from . import __version__

# Modules that add commands; each has register(subparsers) and sets `func` on its parsers.
COMMAND_MODULES = ("maester.sim", "maester.cards_cli", "maester.play", "maester.firmware_cli", "maester.enroll",
                   "maester.tags_cli", "maester.decks_cli", "maester.hwtest", "maester.simboard_cli", "maester.web.launch")  # web last: it adds --web to play, resume, demo


def build_parser():
    parser = argparse.ArgumentParser(
        prog="maester",
        description="Maester: a rules engine and table controller for Game of Thrones tabletop games. "
                    "Simulate games, play in the terminal, resume a saved game, manage card data.",
    )
    parser.add_argument("--version", action="version", version="maester " + __version__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    import importlib
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args) or 0
    except (ValueError, FileNotFoundError) as e:
        print("maester: %s" % e, file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into `head` and friends: not an error
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print("\nmaester: interrupted; a game in progress can be continued with `maester resume`.",
              file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

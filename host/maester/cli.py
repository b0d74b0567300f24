"""The `maester` command. Each command group lives in its own module with a `register(sub)`.

Start-up is kept short (issue 16: `maester --help` in at most 0.15 s): a command's module is
imported only when that command runs or shows its help. `maester --help` lists every command from
the table below without importing any of them; tests/test_cli.py checks the table against what
the modules register.
"""

import argparse
import importlib
import re
import sys

from . import __version__, lazy

# The build that runs (compiled.py), read by --version and before a command runs; not by a --help (start-up).
compiled = lazy.Module("maester.compiled")

# Every command, in the order `--help` lists them: name -> (the module whose register(subparsers)
# adds it and sets `func` on its parser, its one-line help).
COMMANDS = {
    "sim": ("maester.commands.sim", "play whole games with bots and print statistics"),
    "bench": ("maester.commands.sim", "measure the engine's speed, or tap-to-light through a simulated board"),
    "build-fast": ("maester.commands.build_fast", "compile a checkout's engine, bots and rules with Cython again, after a change"),
    "cards": ("maester.commands.cards", "check the card data against your box, enroll or correct a card"),
    "play": ("maester.commands.play", "play a game on your table (or --sim: a simulated one in the terminal)"),
    "resume": ("maester.commands.play", "continue the last game (or --log PATH) from its log"),
    "demo": ("maester.commands.play", "watch bots play a whole game (B'Twixt unless named)"),
    "firmware": ("maester.commands.firmware", "build the board firmware and flash it with mpremote"),
    "doctor": ("maester.commands.firmware", "find boards and show firmware, readers and health"),
    "enroll": ("maester.commands.enroll", "tap every card of a game once to bind its sticker"),
    "tags": ("maester.commands.tags", "write a card's record onto a sticker, or read one, on an NFC reader at your desk"),
    "decks": ("maester.commands.decks", "LCG deck lists: check one against the deck construction rules, import one"),
    "hw": ("maester.commands.hw", "check the hardware of a built table"),
    "sim-board": ("maester.commands.sim_board", "a simulated board in its own process, on a pty (for play --port)"),
    "serve": ("maester.commands.serve", "serve a saved game's seat and table pages in the browser"),
    "replay": ("maester.commands.replay", "step through a game move by move in the browser, or export its replay"),
}
PURE_COMMANDS = ("build-fast",)  # commands that do not load the compiled build: it rebuilds it
WEB = "maester.commands.serve"  # registered after play: it adds --web to play, resume and demo
COMMAND_MODULES = tuple(dict.fromkeys(module for module, _ in COMMANDS.values()))  # all, in order


def modules_for(command):
    """The modules to import to run `command` (None: only to list the commands)."""
    if command not in COMMANDS:
        return ()
    module = COMMANDS[command][0]
    return (module, WEB) if module == "maester.commands.play" else (module,)


def command_named(argv):
    """The command `argv` names: its first word that is not an option (the top level's options
    take no value), or None."""
    for word in argv:
        if word == "--":
            return None
        if not word.startswith("-"):
            return word
    return None


class Version(argparse.Action):
    """`maester --version`: the version and the build that runs (compiled or pure, and why)."""

    def __call__(self, parser, namespace, values, option_string=None):
        compiled.use_default(warn=lambda line: None)  # a stale build's reason is in the summary
        print("maester %s, %s" % (__version__, compiled.summary()))
        parser.exit()


def build_parser(modules=COMMAND_MODULES, listed=True):
    """The parser with the commands of `modules` in full; every other command is listed (with its
    help, so `maester --help` and a mistyped command's message name them all) but not built.
    listed=False leaves the others out (~5 ms): for a command line that names a known command and
    does not ask the top level for its help."""
    parser = argparse.ArgumentParser(
        prog="maester",
        description="Maester: a rules engine and table controller for Game of Thrones tabletop games. "
                    "Simulate games, play in the terminal, resume a saved game, manage card data.",
    )
    parser.add_argument("--version", action=Version, nargs=0, help="show the version and which build runs, then exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help) in COMMANDS.items():
        if name in sub.choices:
            continue  # added with another command of its module
        if module in modules:
            importlib.import_module(module).register(sub)
        if name not in sub.choices and listed:
            sub.add_parser(name, help=help)
    return parser


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    command = command_named(argv)
    top_help = any(w in ("-h", "--help") for w in argv[:argv.index(command)]) if command in argv else True
    if command in COMMANDS and command not in PURE_COMMANDS and not any(w in ("-h", "--help") for w in argv):
        # Before any command module is imported: play's imports the engine, which the build replaces.
        compiled.use_default()
    parser = build_parser(modules_for(command), listed=command not in COMMANDS or top_help)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args) or 0
    except (ValueError, FileNotFoundError) as e:
        print("maester: %s" % one_line(e), file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into `head` and friends: not an error
        sys.stderr.close()
        return 0
    except OSError as e:  # a path that cannot be used (a file where a folder should be, a name too long...)
        print("maester: %s" % one_line(e), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nmaester: interrupted; a game in progress can be continued with `maester resume`.",
              file=sys.stderr)
        return 130


def one_line(error):
    """An error as the terminal shows it: an OS error by its file and its reason, any other by its
    message. A control character in it (a newline in a file name) is shown escaped, and whatever
    cannot be encoded (a lone surrogate from an undecodable name) as its escape."""
    control = r"[\x00-\x08\x0b-\x1f\x7f]"  # a message may hold lines of its own; a file name may not
    if isinstance(error, OSError) and error.strerror and error.filename is not None:
        text = "%s: %s" % (error.filename, error.strerror)
        if error.filename2 is not None:
            text += " (%s)" % error.filename2
        control = r"[\x00-\x1f\x7f]"
    else:
        text = str(error)
    text = re.sub(control, lambda m: repr(m.group())[1:-1], text)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


if __name__ == "__main__":
    sys.exit(main())

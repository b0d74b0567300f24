"""`maester` starts quickly (issue 16, Start-up: `--help` and every command's `--help` within 0.15 s).
What decides it is what a command imports before it parses its arguments, so that is what these
tests check, deterministically, in a fresh interpreter each: no `--help` imports a library or a
part of maester that only the command's work needs. A command's module is imported only when that
command is named, yet `--help` still lists every command with its one-line help.
tests/startup_time.py prints the times themselves."""

import argparse
import importlib
import json
import os
import subprocess
import sys

import pytest

from maester import cli

# What no command's --help may import: each costs milliseconds to tens of them (rich and jsonschema
# were 0.19 s of the old 0.35 s start), and none is needed to parse a command line. A name covers
# its submodules too ("maester.games.lcg" is the LCG's rules); maester.games itself is the list of the
# games, their titles, seats and variants, which a --help shows.
GAME_RULES = tuple("maester.games.%s" % name for name in ("btwixt", "intrigue", "oathbreaker", "lcg", "text"))
HEAVY = ("rich", "jsonschema", "starlette", "uvicorn", "qrcode", "serial", "nfc", "neopixel", "Cython",
         "sqlite3", "asyncio", "multiprocessing", "socket", "ssl", "dataclasses", "logging",
         "maester.engine", "maester.link", "maester.nfc.reader", "maester.terminal", "maester.sim",
         "maester.table.runner", "maester.web.app", "maester_fw.wire") + GAME_RULES
SLOW = ("rich", "jsonschema", "starlette", "uvicorn")  # never, not even where ALLOWED says more

# Known exceptions, and why: commands/play.py, which registers these three, shows the bots' pause
# (engine/bots.py) in its help and reads the engine's core; the engine's core alone is a few milliseconds.
ALLOWED = {name: ("maester.engine",) for name in ("play", "resume", "demo")}


def imported_by(*argv):
    """(exit status, stdout, the HEAVY modules imported) of `maester ARGV` in a fresh interpreter."""
    probe = ("import json, sys\nfrom maester import cli\n"
             "try:\n    code = cli.main(%r)\nexcept SystemExit as e:\n    code = e.code\n"
             "heavy = [h for h in %r if any(m == h or m.startswith(h + '.') for m in sys.modules)]\n"
             "print(json.dumps([code, heavy]), file=sys.stderr)" % (list(argv), HEAVY))
    env = dict(os.environ, MAESTER_HOME=os.environ.get("MAESTER_HOME", "/nonexistent/maester-home"))
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=60)
    code, heavy = json.loads(done.stderr.strip().splitlines()[-1])
    return code, done.stdout, heavy


def test_help_lists_every_command_and_imports_nothing_heavy(tmp_path, monkeypatch):
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path))
    code, out, heavy = imported_by("--help")
    assert code == 0 and heavy == []
    for name, (_, help) in cli.COMMANDS.items():
        assert name in out and " ".join(help.split()[:3]) in " ".join(out.split()), name
    code, out, heavy = imported_by("--version")
    assert code == 0 and out.startswith("maester ") and heavy == []


@pytest.mark.parametrize("command", sorted(cli.COMMANDS))
def test_each_commands_help_imports_only_what_parsing_needs(command, tmp_path, monkeypatch):
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path))
    code, out, heavy = imported_by(command, "--help")
    assert code == 0 and out.startswith("usage: maester %s" % command), out
    assert not set(heavy) & set(SLOW), "%s --help imported %s" % (command, heavy)
    assert set(heavy) <= set(ALLOWED.get(command, ())), "%s --help imported %s" % (command, heavy)


def test_a_lazy_module_is_imported_at_its_first_use_only():
    probe = ("import sys\nfrom maester import lazy\nm = lazy.Module('sqlite3')\nbefore = 'sqlite3' in sys.modules\n"
             "print(before, m.connect is sys.modules['sqlite3'].connect, repr(m))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.stdout.split(None, 2) == ["False", "True", "<lazy module 'sqlite3'>\n"], done.stderr


def test_the_command_table_says_what_the_modules_register():
    # The table is what `maester --help` shows without importing the modules: it must not drift.
    sub = argparse.ArgumentParser().add_subparsers()
    for module in cli.COMMAND_MODULES:
        importlib.import_module(module).register(sub)
    registered = {action.dest: action.help for action in sub._choices_actions}
    assert registered == {name: help for name, (_, help) in cli.COMMANDS.items()}
    for name in cli.COMMANDS:  # naming a command builds its real parser, not the listing's stand-in
        parser = cli.build_parser(cli.modules_for(cli.command_named([name])))
        built = parser._subparsers._group_actions[0].choices[name]
        assert len(built._actions) > 1, name  # more than its -h


def test_a_mistyped_command_names_every_command(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["bnch"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'bnch'" in err and all(repr(name) in err for name in cli.COMMANDS)


def test_play_still_gets_the_web_options_from_the_web_module(capsys):
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    out = capsys.readouterr().out
    assert "--web-port N" in out and "--lan" in out


def test_top_level_help_before_a_command_still_lists_every_command(capsys):
    # A command line naming a known command builds only that command's parser (the others' listing
    # costs ~5 ms); `maester -h doctor` asks the top level, which must still name them all.
    with pytest.raises(SystemExit):
        cli.main(["-h", "doctor"])
    out = capsys.readouterr().out
    assert out.startswith("usage: maester [-h]") and all(name in out for name in cli.COMMANDS)

"""`maester` starts quickly (issue 16, Start-up): `--help`, and every command's `--help`, import
neither rich, jsonschema nor the web server's libraries; a command's module is imported only when
that command is named, yet `--help` still lists every command with its one-line help."""

import argparse
import importlib
import json
import os
import subprocess
import sys

import pytest

from maester import cli

SLOW = ("rich", "jsonschema", "starlette", "uvicorn")  # ~0.19 s of the old 0.35 s start


def imported_by(*argv):
    """(exit status, stdout, the SLOW modules imported) of `maester ARGV` in a fresh interpreter."""
    probe = ("import json, sys\nfrom maester import cli\n"
             "try:\n    code = cli.main(%r)\nexcept SystemExit as e:\n    code = e.code\n"
             "print(json.dumps([code, [m for m in %r if m in sys.modules]]), file=sys.stderr)" % (list(argv), SLOW))
    env = dict(os.environ, MAESTER_HOME=os.environ.get("MAESTER_HOME", "/nonexistent/maester-home"))
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=60)
    code, slow = json.loads(done.stderr.strip().splitlines()[-1])
    return code, done.stdout, slow


def test_help_lists_every_command_and_imports_no_slow_library(tmp_path, monkeypatch):
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path))
    code, out, slow = imported_by("--help")
    assert code == 0 and slow == []
    for name, (_, help) in cli.COMMANDS.items():
        assert name in out and " ".join(help.split()[:3]) in " ".join(out.split()), name


@pytest.mark.parametrize("command", sorted(cli.COMMANDS))
def test_each_commands_help_works_without_the_slow_libraries(command, tmp_path, monkeypatch):
    monkeypatch.setenv("MAESTER_HOME", str(tmp_path))
    code, out, slow = imported_by(command, "--help")
    assert code == 0 and out.startswith("usage: maester %s" % command), out
    assert slow == [], "%s --help imported %s" % (command, slow)


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

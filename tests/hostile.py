"""Hostile input for every command (issue 25, item 13): the cases, and one case run.

The commands and their options come from the command line's own argparse tree (cli.build_parser),
so a command or an option added later is swept without a word here. For each command (a leaf of the
tree) and each of its arguments that takes a value, every hostile value of VALUES is given, in two
command lines: the bare one (the command, its required arguments) and one with every flag the
command has (except --lan: it would serve pages to the whole network; a --no-x form is taken for
--x/--no-x). A required argument that is not the one under test gets its first choice, or a plain
text file.

For reach, DEEP adds a third command line to a few commands: what takes them past their first
check to where they read and write files (a simulated table, a game to resume, a game name).

A case fails when the command
- prints a Python traceback (stdout or stderr), or is killed by a signal;
- hangs: still running at the bound, with no output for HANG_QUIET seconds and no CPU used, unless
  it said it waits until Ctrl-C (a server) and Ctrl-C then stops it (a command that is busy or still
  printing, such as a game it accepted, is stopped at the bound: it is not hung);
- changes a file that was there before it ran (the files of VALUES, the target of their links):
  new files are the command's own, and so is the game log a --log names (resume plays on in it).

Each case runs in a fresh folder of its own, with MAESTER_HOME (and the compiled build build-fast
makes) inside it, stdin at end of file and 2 GB of address space (a command that grows without end
fails with a MemoryError traceback).
"""

import argparse
import os
import random
import resource
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

HANG_QUIET = 3.0  # seconds without output and without CPU, at the bound, that make a hang
MEMORY = 2 << 30  # bytes of address space a command may use

TEXT = "House: Stark\n3x Eddard Stark\nnot much else\n"


def _game_log(root):
    """A real game log (and its record), made once under `root` and copied into each case."""
    path = Path(root) / "fixture-game" / "game.sqlite"
    if not path.exists():
        from maester.engine.session import Session
        path.parent.mkdir(exist_ok=True)
        Session.new("btwixt", {"players": 3, "variants": ["short"]}, 1, log_path=str(path)).close()
    return path


def _fixtures(work, root):
    """The files every case starts with, in `work`."""
    log = _game_log(root)
    for suffix in ("", ".acks"):
        shutil.copyfile(str(log) + suffix, str(work / "game.sqlite") + suffix)
    (work / "a-file.txt").write_text(TEXT)
    (work / "a-dir").mkdir()
    (work / "binary.bin").write_bytes(bytes(random.Random(1).randrange(256) for _ in range(4096)))
    (work / "victim.txt").write_text("someone else's file\n")
    os.symlink(work / "victim.txt", work / "link-to-file")
    os.symlink(work / "nowhere", work / "dangling-link")
    os.symlink(work / "loop", work / "loop")
    os.mkfifo(work / "fifo")
    os.mkfifo(work / "pipe.json")
    os.symlink("/dev/zero", work / "endless.json")
    (work / "empty.txt").write_bytes(b"")


# name -> the argument, made for the case's folder `work` (bytes: not valid UTF-8 on purpose)
VALUES = {
    "missing path": lambda w: str(w / "missing" / "x.sqlite"),
    "new file": lambda w: str(w / "new.sqlite"),
    "text file": lambda w: str(w / "a-file.txt"),
    "empty file": lambda w: str(w / "empty.txt"),
    "binary file": lambda w: str(w / "binary.bin"),
    "directory": lambda w: str(w / "a-dir"),
    "under a file": lambda w: str(w / "a-file.txt" / "x.sqlite"),
    "link to a file": lambda w: str(w / "link-to-file"),
    "dangling link": lambda w: str(w / "dangling-link"),
    "link loop": lambda w: str(w / "loop"),
    "named pipe": lambda w: str(w / "fifo"),
    "named pipe, .json": lambda w: str(w / "pipe.json"),
    "endless, .json": lambda w: str(w / "endless.json"),
    "game log": lambda w: str(w / "game.sqlite"),
    "too long": lambda w: str(w / ("x" * 300 + ".sqlite")),
    "endless": lambda w: "/dev/zero",
    "null device": lambda w: "/dev/null",
    "empty": lambda w: "",
    "zero": lambda w: "0",
    "negative": lambda w: "-1",
    "huge": lambda w: "1" + "0" * 30,
    "huger": lambda w: "9" * 5000,
    "fraction": lambda w: "2.5",
    "nan": lambda w: "nan",
    "infinity": lambda w: "inf",
    "word": lambda w: "abc",
    "unicode": lambda w: "Ærø ☃ 名前",
    "lone surrogate": lambda w: b"\xed\xa0\x80x\xff",  # argv bytes that are no UTF-8: "\udced\udca0..."
    "dash": lambda w: "-x",
    "newline": lambda w: "a\nb",
    "long text": lambda w: "y" * 100000,
}


# command -> (arguments added, {argument: VALUES name} for its required or positional ones)
DEEP = {
    "sim-board": (["--game=btwixt", "--players=4"], {}),
    "hw test": (["--sim"], {}),
    "enroll": (["--sim"], {}),
    "resume": (["--plain", "--no-web", "--delay=0"], {"--log": "game log"}),
    "play": (["--sim", "--no-table", "--no-web", "--plain", "--delay=0"], {}),
    "demo": (["--fast", "--plain", "--no-web", "--no-table"], {}),
    "firmware flash": ([], {"--port": "null device"}),
    "cards add": (["--name=X", "--type=ally", "--power=2", "--ability=none"], {}),
    "tags write": ([], {}),
    "replay": (["--no-browser"], {"log": "game log"}),  # a game's log read, its replay served or exported
}  # (not serve: with a game it serves until stopped, printing nothing, by design)
DEEP_GAME = {"enroll": "btwixt", "cards add": "btwixt", "tags write": "btwixt"}  # their `game`, no choices


# --- the commands, from argparse ------------------------------------------------------------------

def leaf_commands(parser=None, words=()):
    """[(words, parser)]: every command of the tree that runs something (has a `func`)."""
    if parser is None:
        from maester import cli
        parser = cli.build_parser()
    out = []
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if subs:
        for name, sub in subs[0].choices.items():
            out += leaf_commands(sub, words + (name,))
    if words and parser.get_default("func") is not None and not subs:
        out.append((list(words), parser))
    return out


SKIPPED = (argparse._HelpAction, argparse._VersionAction, argparse._SubParsersAction)


def _is_flag(action):
    return action.nargs == 0 or isinstance(action, argparse.BooleanOptionalAction)


def value_actions(parser):
    """The arguments that take a value, each by its first option string or its name."""
    return [a for a in parser._actions if not isinstance(a, SKIPPED) and not _is_flag(a)]


def _key(action):
    return action.option_strings[0] if action.option_strings else action.dest


def _flag_words(parser):
    out = []
    for a in parser._actions:
        if isinstance(a, SKIPPED) or not _is_flag(a) or "--lan" in a.option_strings:
            continue
        if isinstance(a, argparse.BooleanOptionalAction):
            out.append([s for s in a.option_strings if s.startswith("--no-")][0])
        else:
            out.append(a.option_strings[0])
    return out


def _filler(action, work):
    return action.choices[0] if action.choices else VALUES["text file"](work)


def argv_for(case, work):
    """The command line of `case` ("words|variant|argument|value"), in the folder `work`."""
    words, variant, key, value = case.split("|")
    command = words
    words = words.split()
    parser = dict((" ".join(w), p) for w, p in leaf_commands())[command]
    target = next(a for a in value_actions(parser) if _key(a) == key)
    hostile = VALUES[value](work)
    argv = list(words)
    given_deep = {}
    if variant == "flags":
        argv += _flag_words(parser)
    elif variant == "deep":
        extra, given_deep = DEEP[command]
        argv += [w for w in extra if w.split("=")[0] != key]
        given_deep = {k: VALUES[v](work) for k, v in given_deep.items()}
        if command in DEEP_GAME:
            given_deep.setdefault("game", DEEP_GAME[command])
    positionals = []
    for a in value_actions(parser):
        if a is target:
            given = hostile
        elif _key(a) in given_deep:
            given = given_deep[_key(a)]
        elif a.option_strings and a.required:
            given = _filler(a, work)
        elif not a.option_strings and a.nargs not in ("?", "*"):
            given = _filler(a, work)
        else:
            continue
        if a.option_strings:
            # "--opt=VALUE" keeps a value that starts with a dash a value
            argv.append((a.option_strings[-1] + "=").encode() + given if isinstance(given, bytes)
                        else "%s=%s" % (a.option_strings[-1], given))
        else:
            positionals.append(given)
    return argv + (["--"] + positionals if positionals else [])


def all_cases():
    """Every case, as "words|variant|argument|value" strings, in a stable order."""
    out = []
    for words, parser in leaf_commands():
        for action in value_actions(parser):
            for variant in ("bare", "flags", "deep"):
                if variant == "flags" and not _flag_words(parser) or variant == "deep" and \
                        " ".join(words) not in DEEP:
                    continue
                out += ["%s|%s|%s|%s" % (" ".join(words), variant, _key(action), v) for v in VALUES]
    return out


def sample(cases, n, seed):
    """`n` cases drawn with `seed`, every command at least once when n allows."""
    rng = random.Random(seed)
    by_command = {}
    for c in cases:
        by_command.setdefault(c.split("|")[0], []).append(c)
    picked = [rng.choice(cs) for _, cs in sorted(by_command.items())][:n]
    rest = [c for c in cases if c not in picked]
    return sorted(picked + rng.sample(rest, max(0, min(len(rest), n - len(picked)))))


# --- one case, run -------------------------------------------------------------------------------

def _snapshot(work):
    """{name: what it is} for everything in `work` before the command (links not followed)."""
    out = {}
    for p in sorted(work.rglob("*")):
        info = os.lstat(p)
        if stat.S_ISLNK(info.st_mode):
            out[p] = ("link", os.readlink(p))
        elif stat.S_ISREG(info.st_mode):
            out[p] = ("file", stat.S_IMODE(info.st_mode), p.read_bytes())
        else:
            out[p] = ("other", stat.S_IFMT(info.st_mode), stat.S_IMODE(info.st_mode))
    return out


def _cpu_seconds(pgid):
    """The CPU time used so far by the processes of group `pgid` (/proc), in seconds."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # field 5 of stat: the process group
            total += int(fields[11]) + int(fields[12])  # utime + stime, in clock ticks
    return total / os.sysconf("SC_CLK_TCK")


def _stops_as_it_said(proc, out_path):
    """A command that said it waits until Ctrl-C (a server): whether Ctrl-C stops it within 10 s."""
    if "Ctrl-C" not in out_path.read_bytes().decode("utf-8", "replace"):
        return False
    os.killpg(proc.pid, signal.SIGINT)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        return False
    return True


def _limits():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run(case, root, bound):
    """Run `case` in a fresh folder under `root`. Returns (problems, outcome): problems is a list of
    what failed (empty when the case passed); outcome one of "ended", "stopped busy"."""
    work = Path(root) / ("case-%d" % len(list(Path(root).glob("case-*[0-9]"))))
    work.mkdir()
    _fixtures(work, root)
    before = _snapshot(work)
    argv = argv_for(case, work)
    # MAESTER_COMPILED: `build-fast` (issue 26) rebuilds, or under MAESTER_PURE removes, the compiled build
    # of the checkout; in the sweep its build is the case's own, in the case's folder.
    env = dict(os.environ, MAESTER_HOME=str(work / "home"), MAESTER_COMPILED=str(work / "compiled"),
               PYTHONUNBUFFERED="1", COLUMNS="100", LINES="30", TERM="dumb")
    env.pop("MAESTER_CARDS_DB", None)
    out_path, err_path = work.parent / (work.name + ".out"), work.parent / (work.name + ".err")
    problems, outcome = [], "ended"
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        proc = subprocess.Popen([sys.executable, "-m", "maester.cli"] + argv, cwd=work, env=env,
                                stdin=subprocess.DEVNULL, stdout=out, stderr=err, start_new_session=True,
                                preexec_fn=_limits)
        deadline = time.monotonic() + bound
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            if proc.poll() is None:  # at the bound: busy or printing, or hung?
                sizes = (out_path.stat().st_size, err_path.stat().st_size)
                cpu = _cpu_seconds(proc.pid)
                time.sleep(HANG_QUIET)
                quiet = (out_path.stat().st_size, err_path.stat().st_size) == sizes
                idle = _cpu_seconds(proc.pid) - cpu < 0.1
                if proc.poll() is None:
                    outcome = "stopped busy"
                    if quiet and idle and not _stops_as_it_said(proc, out_path):
                        problems.append("hung: no output and no CPU for %.0f s after %.0f s" % (HANG_QUIET, bound))
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)  # the group this case started, and only it
            proc.wait(30)
    text = out_path.read_bytes().decode("utf-8", "replace") + err_path.read_bytes().decode("utf-8", "replace")
    if "Traceback (most recent call last)" in text:
        problems.append("a traceback:\n" + text[-3000:])
    if proc.returncode is not None and proc.returncode < 0 and outcome == "ended":
        problems.append("killed by signal %d" % -proc.returncode)
    after = _snapshot(work)
    logs = [a.split(b"=" if isinstance(a, bytes) else "=", 1)[1] for a in argv
            if (a.startswith(b"--log=") if isinstance(a, bytes) else a.startswith("--log="))]
    own = [os.fsdecode(log) for log in logs]
    changed = [str(p.relative_to(work)) for p, what in before.items()
               if after.get(p) != what and not any(str(p).startswith(o) for o in own if o)]
    if changed:
        problems.append("changed files that were there before: %s" % ", ".join(changed))
    return problems, outcome

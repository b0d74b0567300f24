"""`maester firmware build|flash|repl` and `maester doctor`: put the firmware on a board, then check it.
What each step does, and how: table/firmware.py."""

import json
import sys
from pathlib import Path

from ..argtypes import BOARD_WAIT, seconds, serial_port
from ..table import firmware
from ..table import profile as profiles


def register(sub):
    fw = sub.add_parser("firmware", help="build the board firmware and flash it with mpremote",
                        description="Build the MicroPython firmware (.mpy) and flash it, with the config for "
                                    "a table profile, to a Pico or ESP32-S3 over USB.")
    fw.set_defaults(func=lambda args: fw.print_help() or 2)
    cmds = fw.add_subparsers(dest="firmware_command", metavar="ACTION")

    p = cmds.add_parser("build", help="compile the firmware modules to .mpy",
                        description="Compile the board modules to .mpy with mpy-cross; main.py and boot.py stay source.")
    _add_build_args(p)
    p.set_defaults(func=cmd_build)

    p = cmds.add_parser("flash", help="build, then copy the firmware and config to a board and reset it",
                        description="Build (unless --no-build), write the board config for a table profile, ask the "
                                    "running firmware for the REPL, copy every file with mpremote, reset the board and "
                                    "wait for its HELLO, which must report the firmware and config just written. A "
                                    "flash cut short leaves the board at its REPL; flashing again repairs it. Works "
                                    "on `maester sim-board` too (its port is MicroPython's own REPL then).")
    p.add_argument("--port", required=True, help="the board's serial port, e.g. /dev/ttyACM0 or /dev/maester")
    p.add_argument("--profile", default=profiles.DEFAULT, help="table profile for the board config (default %(default)s)")
    p.add_argument("--board", default="pico", help="the board's pin map: pico, esp32s3 or a JSON file "
                                                   "(hardware/pins/; default %(default)s)")
    p.add_argument("--no-build", action="store_true", help="flash what is already in the build directory")
    p.add_argument("--mpremote", help="the mpremote command to run (default: $MAESTER_MPREMOTE, "
                                      "else `python -m mpremote`, else mpremote on PATH)")
    p.add_argument("--repl-wait", type=seconds(0, 60), default=2.0, metavar="S",
                   help="how long to wait for the firmware to answer the REPL request, 0 to 60 (default %(default)s s)")
    _add_build_args(p)
    p.set_defaults(func=cmd_flash)

    p = cmds.add_parser("repl", help="ask the running firmware to leave its loop for the MicroPython REPL",
                        description="The firmware turns Ctrl-C off, so no byte a host sends can stop it; this sends "
                                    "it the REPL command instead. Then connect with mpremote (`mpremote connect PORT "
                                    "resume repl`) or any serial terminal; Ctrl-D there (a soft reset), or `mpremote "
                                    "connect PORT reset`, starts the firmware again.")
    p.add_argument("--port", required=True, type=serial_port, help="the board's serial port, e.g. /dev/ttyACM0")
    p.add_argument("--repl-wait", type=seconds(0, 60), default=2.0, metavar="S",
                   help="how long to wait for the firmware to answer, 0 to 60 (default %(default)s s)")
    p.set_defaults(func=cmd_repl)

    p = sub.add_parser("doctor", help="find boards and show firmware, readers and health",
                       description="Find Maester boards, connect to each and print its identity, capabilities, LED "
                                   "count, every reader's state and the health counters. Exit status 1 when no board "
                                   "is found or a board does not answer. Connecting resets the board's LEDs.")
    p.add_argument("--port", type=serial_port, help="check this port only (a path; a pty from the simulator works too)")
    p.add_argument("--timeout", type=BOARD_WAIT, default=5.0, metavar="S",
                   help="how long to wait for each board's handshake, %s (default %%(default)s s)" % BOARD_WAIT.span)
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=cmd_doctor)


def _add_build_args(p):
    p.add_argument("--out", type=Path, help="build directory (default $MAESTER_HOME/firmware: ~/.maester/firmware)")
    p.add_argument("--src", type=Path, default=firmware.FIRMWARE_SRC,
                   help="firmware source tree (default: the one maester carries, %(default)s)")


def _fail(e):
    print("maester: %s" % e, file=sys.stderr)
    return 2


def cmd_build(args):
    try:
        firmware.build(args.src, args.out)
    except firmware.FirmwareError as e:
        return _fail(e)
    return 0


def cmd_flash(args):
    try:
        firmware.flash(args.port, args.profile, args.out, args.src, args.no_build, args.mpremote, args.repl_wait,
              board=args.board)
    except firmware.FirmwareError as e:
        return _fail(e)
    return 0


def cmd_repl(args):
    try:
        outcome = firmware.request_repl(args.port, args.repl_wait, say=print)
    except firmware.FirmwareError as e:
        return _fail(e)
    if outcome == "acked":
        print("the board on %s is at the MicroPython REPL: mpremote connect %s repl (or a serial terminal); "
              "Ctrl-D there restarts the firmware" % (args.port, args.port))
        return 0
    return _fail({"no_answer": "no answer from Maester firmware on %s within %.1f s: plain MicroPython is at its "
                               "REPL already; a stuck board needs unplugging (FIRMWARE.md, \"Reaching the REPL\")"
                               % (args.port, args.repl_wait),
                  "unacked": "the firmware answered but did not confirm the REPL command: run this again"}
                 .get(outcome, "the firmware on %s does not take the REPL command (%s)" % (args.port, outcome)))


def _config_line(b):
    c = b["config"]
    if not c["bytes"]:
        return "none stored: the board runs on its built-in defaults"
    text = "%d bytes, crc %s" % (c["bytes"], c["crc"])
    if c["profile"] and c["matches_profile"]:
        return text + ", as flashed for profile %s" % c["profile"]
    if c["profile"]:
        return text + ", differs from profile %s (maester firmware flash --profile %s)" % (c["profile"], c["profile"])
    return text


def print_report(rep, out=print):
    out(rep["maester"])
    if not rep["boards"]:
        out("no board found")
    for i, b in enumerate(rep["boards"], 1):
        usb = ""
        if b["usb_id"]:
            usb = " (USB %s%s)" % (b["usb_id"], ", serial %s" % b["usb_serial"] if b["usb_serial"] else "")
        out("board %d: %s%s" % (i, b["port"], usb))
        if "firmware" in b:
            out("  board      %s" % b["board"])
            out("  firmware   %s (protocol %s)" % (b["firmware"], b["proto"]))
            out("  boot id    %s" % b["boot_id"])
            out("  caps       %s" % (", ".join(b["caps"]) or "none"))
            out("  LEDs       %d pixels" % b["leds"])
            out("  config     %s" % _config_line(b))
        if not b["connected"]:
            out("  no complete handshake within the timeout")
        else:
            out("  readers    %d" % len(b["readers"]))
            for r in b["readers"]:
                state = {"fault": "FAULT (not answering: check wiring, power and chip-select pin)",
                         "crowded": "CROWDED (two cards on it: lift one)"}.get(r["state"], r["state"])
                chip = "  %s" % r["chip"] if r.get("chip") else ""
                out("    %d %-8s %s%s%s" % (r["reader"], r["name"] or "", state, "  card %s" % r["uid"] if r["uid"] else "",
                                          chip))
                if r.get("advice"):
                    out("      %s (set up %d times, %d read errors)" % (r["advice"], r["inits"], r["errors"]))
            counters = firmware.serial_link.COUNTER_NAMES
            out("  health     %s" % ", ".join("%s %d" % (k, b["counters"].get(k, 0)) for k in counters))
        for m in b["messages"]:
            out("  %s: %s" % (m["kind"].replace("_", " "), m["message"]))
    if rep["hints"]:
        out("hints:")
        for h in rep["hints"]:
            out("  - " + h)


def cmd_doctor(args):
    rep = firmware.doctor(args.port, args.timeout)
    if args.json:
        print(json.dumps(rep, indent=2))
    else:
        print_report(rep)
    return 0 if rep["ok"] else 1

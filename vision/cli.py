"""The ``trickvision`` command line: one sub-command per module in ``vision.commands``.

Each command module defines ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``. Modules are imported lazily, so ``trickvision reconstruct`` never loads
OpenCV and a missing optional dependency only affects the command that needs it.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from vision import __version__
from vision.errors import MissingExtraError, TrickvisionError

#: command name -> (module, one-line help). The module is imported only when it runs.
COMMANDS: dict[str, tuple[str, str]] = {
    "reconstruct": ("vision.commands.reconstruct", "reconstruct the play from observed rows"),
    "synth": ("vision.commands.synth", "render synthetic table photos with ground truth"),
    "analyze": ("vision.commands.analyze", "read the rows in a photo and report the tricks"),
    "demo": ("vision.commands.demo", "analyse the bundled sample photo with the shipped model"),
    "calibrate": ("vision.commands.calibrate", "make a table calibration for a tilted camera"),
    "video": ("vision.commands.video", "analyse a recorded video of a game"),
    "watch": ("vision.commands.watch", "follow a live camera over the table"),
    "report": ("vision.commands.report", "write every deal's report from a session database"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="trickvision",
        description="Read the rows of played cards at a card table and reconstruct the play.",
    )
    parser.add_argument("--version", action="version", version=f"trickvision {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(_module=module_name)
    return parser


def _load(module_name: str):  # type: ignore[no-untyped-def]
    return importlib.import_module(module_name)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (0 ok, 1 findings/failure, 2 unusable input)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    # First pass: find the command, then let its module add its own arguments.
    if argv and argv[0] in COMMANDS:
        name = argv[0]
        module_name = COMMANDS[name][0]
        try:
            module = _load(module_name)
        except MissingExtraError as exc:
            print(f"trickvision {name}: {exc}", file=sys.stderr)
            return 2
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.startswith("vision."):
                print(f"trickvision {name}: this command is not available yet", file=sys.stderr)
                return 2
            print(f"trickvision {name}: missing dependency {exc.name!r}", file=sys.stderr)
            return 2
        sub = argparse.ArgumentParser(
            prog=f"trickvision {name}", description=COMMANDS[name][1]
        )
        module.add_arguments(sub)
        args = sub.parse_args(argv[1:])
        try:
            return int(module.run(args))
        except TrickvisionError as exc:
            print(f"trickvision {name}: error: {exc}", file=sys.stderr)
            return 2
        except MissingExtraError as exc:
            print(f"trickvision {name}: {exc}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print(f"trickvision {name}: interrupted", file=sys.stderr)
            return 130
        except BrokenPipeError:
            # the reader of our output went away (e.g. `| head`): not an error of ours
            _silence_stdout()
            return 0
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    return 0


def _silence_stdout() -> None:
    """Point stdout at devnull so the interpreter's final flush does not fail again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    raise SystemExit(main())

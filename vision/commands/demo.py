"""``trickvision demo``: analyse the bundled sample photo with the shipped models.

The README's first command: it needs nothing but the installed package and shows what the
project does - the report on the terminal and an annotated picture to look at.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vision.commands.analyze import add_analysis_arguments, analyze_photo
from vision.errors import InputFileError

NAME = "demo"
HELP = "analyse the bundled sample photo with the shipped model"
SAMPLE = "demo_bridge_end.jpg"


def sample_photo() -> Path:
    import vision

    root = Path(vision.__file__).resolve().parent.parent
    path = root / "datasets" / "samples" / SAMPLE
    if not path.is_file():
        raise InputFileError(f"the demo photo {path} is missing (datasets/samples/{SAMPLE})")
    return path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--photo", metavar="PHOTO", help="another photo instead of the sample")
    add_analysis_arguments(parser, out_default="trickvision-demo")
    parser.set_defaults(format="text")


def run(args: argparse.Namespace) -> int:
    photo = Path(args.photo) if args.photo else sample_photo()
    print(f"trickvision demo: analysing {photo}", file=sys.stderr)
    code = analyze_photo(args, photo)
    if args.out:
        print(
            f"trickvision demo: report and annotated photo written to {Path(args.out).resolve()}/",
            file=sys.stderr,
        )
    return 0 if code in (0, 1) else code

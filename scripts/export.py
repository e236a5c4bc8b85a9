"""Export trained ultralytics weights to ONNX and ship them under ``models/``.

    /work/trainenv/bin/python scripts/export.py /work/runs/detector/train/weights/best.pt \
        --name detector --imgsz 640

With ``--dynamic`` the network takes any height and width (multiples of 32): the detector
then letterboxes each image at its own aspect instead of into a square (a 16:9 frame costs
640 x 384 instead of 640 x 640). Writes ``models/<name>.onnx`` (opset 18, simplified with
onnxslim), ``models/<name>.sha256`` (the checksum ``vision.models`` verifies before loading)
and fills the command lines of the model card ``models/<name>.md`` between its
``<!-- commands -->`` markers, so the card always says how the shipped file was made.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from vision.models import file_sha256  # noqa: E402  (the same hash the loader verifies)

START, END = "<!-- commands:start -->", "<!-- commands:end -->"


def write_checksum(model: Path) -> Path:
    """Write ``<stem>.sha256`` in the ``sha256sum`` format next to the model."""
    target = model.with_suffix(".sha256")
    target.write_text(f"{file_sha256(model)}  {model.name}\n")
    return target


def fill_card(card: Path, commands: list[str], checksum: str) -> None:
    """Replace the command block of the model card (create a minimal card if there is none)."""
    block = "\n".join(
        [START, "```bash", *commands, "```", f"SHA-256 of the shipped file: `{checksum}`", END]
    )
    if card.exists():
        text = card.read_text()
    else:
        text = f"# Model card: {card.stem}\n\n## How it was made\n\n{START}\n{END}\n"
    if START in text and END in text:
        text = re.sub(re.escape(START) + r".*?" + re.escape(END), lambda _: block, text, flags=re.S)
    else:
        text = text.rstrip() + "\n\n## How it was made\n\n" + block + "\n"
    card.write_text(text)


def export_model(
    weights: Path,
    models_dir: Path,
    *,
    name: str = "detector",
    imgsz: int = 640,
    train_command: str | None = None,
    data_yaml: Path | None = None,
    dynamic: bool = False,
) -> Path:
    """Export ``weights`` to ``models_dir/<name>.onnx``; returns the shipped path."""
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("YOLO_AUTOINSTALL", "0")
    os.environ.setdefault("YOLO_CONFIG_DIR", str(Path(weights).resolve().parent.parent / "cfg"))
    from ultralytics import YOLO

    model = YOLO(str(weights))
    exported = Path(
        model.export(format="onnx", opset=18, simplify=True, imgsz=imgsz, dynamic=dynamic,
                     batch=1)
    )
    models_dir.mkdir(parents=True, exist_ok=True)
    target = models_dir / f"{name}.onnx"
    shutil.copyfile(exported, target)
    write_checksum(target)
    commands = []
    if train_command:
        commands.append("# training (generates the data set, trains, then runs this export):")
        commands.append(train_command)
    commands.append("# export alone:")
    commands.append(
        shlex.join(
            [
                Path(sys.executable).as_posix(),
                "scripts/export.py",
                str(weights),
                "--name",
                name,
                "--imgsz",
                str(imgsz),
                *(["--dynamic"] if dynamic else []),
            ]
        )
    )
    if data_yaml is not None:
        commands.append(f"# data set: {data_yaml}")
    fill_card(models_dir / f"{name}.md", commands, file_sha256(target))
    size_mib = target.stat().st_size / 2**20
    print(f"[export] {target} ({size_mib:.1f} MiB), sha256 written", flush=True)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("weights", type=Path)
    parser.add_argument("--name", default="detector")
    parser.add_argument("--imgsz", type=int, default=640)
    parser.add_argument("--models-dir", type=Path, default=REPO / "models")
    parser.add_argument("--train-command", default=None)
    parser.add_argument("--dynamic", action="store_true",
                        help="any input height and width (the detector keeps each image's aspect)")
    args = parser.parse_args(argv)
    if not args.weights.exists():
        print(f"export: no such weights file: {args.weights}", file=sys.stderr)
        return 2
    export_model(
        args.weights, args.models_dir, name=args.name, imgsz=args.imgsz,
        train_command=args.train_command, dynamic=args.dynamic,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

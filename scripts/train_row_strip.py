#!/usr/bin/env python
"""Generate row strips, train the row-strip network, export it to ONNX and ship it.

The network (:mod:`vision.detect.strips`) reads a strip cut along one row of cards and marks
where each card's centre lies along it and whether that card lies across the row (won) or
along it (lost). Run with the training environment (torch)::

    /work/trainenv/bin/python scripts/train_row_strip.py --data /work/data/strips \\
        --runs /work/runs/strips --scenes 3200 --val-scenes 200 --epochs 12

Steps (each skipped when its output exists, unless --force):
1. strips: renderer scenes (seeds from 4e9 upwards for training, 4.5e9 for validation; the
   evaluation uses 9e9 upwards) in the evaluation's mix of games, stages and sizes, 35 % hard.
   A photo whose long side is 1600 px or more is halved first, as the photo pipeline decodes
   it. Every true row (face down or face up, in laying order) is cut by
   :func:`vision.detect.strips.cut_strip` along a frame moved, turned, scaled and stretched
   a little (``strip_frame(..., rng)``), as the row reader's rows of imperfect boxes give it.
   Each strip carries its cards' centres along it and whether each lies across the row.
2. train the network below from scratch in torch (2 threads): a score per output cell (a
   card's centre: penalty-reduced focal loss against a Gaussian of 0.1 long side) and, at
   the cells next to each centre, across-or-along (cross entropy).
3. export ONNX (opset 17, any batch and width), copy to ``models/row_strip.onnx`` and write
   its sha256.

``--detected N`` adds the strips of N more scenes cut along the rows the shipped detector
and row reader find there (``data/detected``), labelled with the true cards each holds, and
validation strips made the same way (``data/val_detected``, ``--val-scenes`` scenes from seed
4.7e9), whose count is printed beside the true rows' each epoch.
``--camera N`` does the same for the fixed camera instead: frames drawn at random moments of
N animated deals (``--frames-per-deal``, JPEG-compressed like a stream's), strips cut along the
rows that the camera's own analyser finds in them (``vision.video.pipeline``'s detector and
settings), each matched to the true row lying there by place.
``--init best.pt`` continues an earlier run; ``--seed-offset K`` renders new training scenes
(seeds 4e9 + K + i) into another ``--data`` folder (``--detected-offset K``: the detector's
rows of scenes 4.2e9 + K + i), and ``--more-data DIR[,DIR...]`` trains on that folder's
strips and those of DIR (its true rows and the detector's) together.
"""

from __future__ import annotations

import argparse
import math
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))  # export

TRAIN_SEED = 4_000_000_000
VAL_SEED = 4_500_000_000
#: Scenes whose strips run along the detector's rows (``--detected``), and their validation.
DETECTED_SEED = 4_200_000_000
DETECTED_VAL_SEED = 4_700_000_000
#: Animated deals whose frames give strips along the fixed camera's rows (``--camera``), and
#: their validation; deals per task.
CAMERA_SEED = 4_300_000_000
CAMERA_VAL_SEED = 4_800_000_000
CAMERA_CHUNK = 10
GAMES = ("bridge", "preferans", "lhombre")
STAGES = ("end", "mid", "faceup", "end")
SIZES = ((1920, 1080), (1280, 960), (1280, 720), (640, 480), (1024, 768))
HARD_SHARE = 0.35
CHUNK = 50  # scenes per task (its own seeds: deterministic whatever the pool size)
#: Width of the centre's Gaussian target, in long sides.
SIGMA_LONG = 0.1


def _objects(items: list) -> np.ndarray:
    out = np.empty(len(items), dtype=object)
    for k, item in enumerate(items):
        out[k] = item
    return out


def _chunk(args: tuple[str, int, int]) -> tuple[str, int]:
    from vision.detect.strips import cut_strip, strip_frame
    from vision.table.rows import measure

    out_file, first_seed, n = args
    strips, centres, across = [], [], []
    for i in range(n):
        seed = first_seed + i
        rng = np.random.default_rng(seed)
        scene, image, factor = _scene(seed, rng)
        for quads in _true_rows(scene, factor).values():
            frame = strip_frame(quads, rng)
            strips.append(cut_strip(image, frame))
            centres.append(frame.to_strip(quads.mean(axis=1)).astype(np.float32))
            long_axis = measure(quads).long_axis
            across.append((np.abs(long_axis @ frame.direction) < np.sqrt(0.5)).astype(np.uint8))
    np.savez(out_file, strips=_objects(strips), centres=_objects(centres),
             across=_objects(across))
    return out_file, len(strips)


def _scene(seed: int, rng: np.random.Generator):  # noqa: ANN202
    """A training scene of the usual mix, the image as the pipeline reads it (a photo of
    1600 px or more halved) and that factor."""
    import cv2

    from vision.synth.scene import render_game_scene

    scene = render_game_scene(GAMES[seed % 3], STAGES[(seed // 3) % 4], seed,
                              hard=bool(rng.random() < HARD_SHARE),
                              image_size=SIZES[seed % len(SIZES)])
    image, factor = scene.image, 1.0
    if max(image.shape[:2]) >= 1600:
        image = cv2.resize(image, (image.shape[1] // 2, image.shape[0] // 2),
                           interpolation=cv2.INTER_AREA)
        factor = 0.5
    return scene, image, factor


def _true_rows(scene, factor: float) -> dict[str, np.ndarray]:  # noqa: ANN001
    """Each seat's true row: its cards' corners (N, 4, 2) in laying order."""
    rows: dict[str, list[dict]] = {}
    for card in scene.truth["cards"]:
        if card["row_position"] is not None and card["seat"]:
            rows.setdefault(card["seat"], []).append(card)
    return {seat: np.array([c["quad"] for c in sorted(cards, key=lambda c: c["row_position"])],
                           dtype=np.float64) * factor
            for seat, cards in rows.items()}


def _labelled_strip(image: np.ndarray, quads: np.ndarray, true: np.ndarray,
                    rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A strip cut along the boxes ``quads`` of a row found in ``image`` (its frame jittered
    half the time), with the strip x of the centres of the true row cards ``true`` that lie
    in it and whether each lies across the row."""
    from vision.detect.strips import STRIP_HEIGHT, cut_strip, strip_frame
    from vision.table.rows import measure

    frame = strip_frame(quads, rng if rng.random() < 0.5 else None)
    middle = true.mean(axis=1)
    x = frame.to_strip(middle)
    off = (middle - frame.origin) @ frame.normal * frame.scale
    inside = (np.abs(off) < STRIP_HEIGHT / 2) & (x >= 0) & (x <= frame.width)
    long_axis = measure(true[inside]).long_axis if inside.any() else np.zeros((0, 2))
    return (cut_strip(image, frame), x[inside].astype(np.float32),
            (np.abs(long_axis @ frame.direction) < np.sqrt(0.5)).astype(np.uint8))


def _save_strips(out_file: str, samples: list[tuple[np.ndarray, np.ndarray, np.ndarray]]
                 ) -> tuple[str, int]:
    """Write (strip, centres, across) samples as one chunk file; (file, how many)."""
    strips, centres, across = (list(column) for column in zip(*samples, strict=True)) \
        if samples else ([], [], [])
    np.savez(out_file, strips=_objects(strips), centres=_objects(centres),
             across=_objects(across))
    return out_file, len(samples)


def _detected_chunk(args: tuple[str, int, int]) -> tuple[str, int]:
    """Strips along the rows the shipped detector and row reader find (without the strips
    themselves), labelled with the true cards of that seat's row that lie in the strip: the
    rows the network meets in use - a box missing, one too many, a row's line bent by a
    misplaced box - rather than true rows jittered."""
    from vision.detect.onnx_detector import CardDetector
    from vision.pipeline import PhotoAnalyzer

    out_file, first_seed, n = args
    detector = CardDetector(threads=1)
    analyzers = {g: PhotoAnalyzer(game=g, detector=detector, identity_reader=False,
                                  row_strips=False) for g in GAMES}
    samples: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    for i in range(n):
        seed = first_seed + i
        rng = np.random.default_rng(seed)
        scene, image, factor = _scene(seed, rng)
        truth = _true_rows(scene, factor)
        reading = analyzers[GAMES[seed % 3]].read(image)
        for seat, cards in reading.rows.items():
            true = truth.get(seat.name)
            if true is None or len(cards) < 2:
                continue
            samples.append(_labelled_strip(image, np.stack([c.quad for c in cards]), true, rng))
    return _save_strips(out_file, samples)


def _matching_true_row(quads: np.ndarray, truth: dict[str, np.ndarray]) -> np.ndarray | None:
    """The true row whose cards lie nearest the boxes ``quads`` of a row found in a frame
    (median distance of each box's middle to the nearest true card's), or None when none
    lies within a card's short side: matched by place, not by the seat the reader gave."""
    middles = quads.mean(axis=1)
    short = float(np.median(np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1)))
    best, best_d = None, math.inf
    for true in truth.values():
        d = np.linalg.norm(middles[:, None] - true.mean(axis=1)[None], axis=2).min(axis=1)
        if float(np.median(d)) < best_d:
            best, best_d = true, float(np.median(d))
    return best if best_d < short else None


def _frame_true_rows(cards: list[dict]) -> dict[str, np.ndarray]:
    """Each seat's row in one animated frame's truth: its row cards' corners in laying
    order (the cards of the trick in play, face up in the middle, are not in a row)."""
    rows: dict[str, list[dict]] = {}
    for card in cards:
        if card["row_position"] is not None and card["seat"] and not card["in_current_trick"]:
            rows.setdefault(card["seat"], []).append(card)
    return {seat: np.array([c["quad"] for c in sorted(row, key=lambda c: c["row_position"])],
                           dtype=np.float64) for seat, row in rows.items()}


def _camera_chunk(args: tuple[str, int, int, int]) -> tuple[str, int]:
    """Strips along the rows the fixed camera's analyser finds (its own detector, settings
    and filters; no row strips, no faces) in frames of animated deals - hands over the rows,
    cards half turned, long tight rows, a stream's JPEG blocks - labelled with the true cards
    of the row that lies there."""
    import cv2

    from vision.synth.video import training_script
    from vision.video.pipeline import PhotoAnalyzerAdapter

    out_file, first_seed, n, per_deal = args
    readers = {g: PhotoAnalyzerAdapter(g, changed_region=False, row_strips=False,
                                       identity_reader=False).inner for g in GAMES}
    samples: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    for i in range(n):
        seed = first_seed + i
        rng = np.random.default_rng([seed, 0x5791])
        script = training_script(seed, rng, GAMES)
        picks = rng.choice(script.n_frames, size=min(per_deal, script.n_frames), replace=False)
        for index in sorted(int(x) for x in picks):
            frame = next(script.frames(start=index, stop=index + 1))
            ok, jpeg = cv2.imencode(".jpg", frame.image,
                                    [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(45, 86))])
            image = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
            truth = _frame_true_rows(frame.cards)
            reading = readers[script.game].read(image)
            for cards in reading.rows.values():
                if len(cards) < 2:
                    continue
                quads = np.stack([c.quad for c in cards])
                true = _matching_true_row(quads, truth)
                if true is None:
                    continue
                samples.append(_labelled_strip(image, quads, true, rng))
    return _save_strips(out_file, samples)


def generate(data: Path, n_train: int, n_val: int, procs: int, seed_offset: int = 0,
             detected: int = 0, detected_offset: int = 0, camera: int = 0,
             frames_per_deal: int = 8) -> None:
    from small_model_options import render_split

    for split, n, base in (("train", n_train, TRAIN_SEED + seed_offset), ("val", n_val, VAL_SEED)):
        render_split(data, split, base, n, CHUNK, _chunk, (), procs, unit="strips")
    if detected:
        render_split(data, "detected", DETECTED_SEED + detected_offset, detected, CHUNK,
                     _detected_chunk, (), procs, unit="strips")
        render_split(data, "val_detected", DETECTED_VAL_SEED, n_val, CHUNK, _detected_chunk,
                     (), procs, unit="strips")
    if camera:
        # the camera's rows take the place of the photo detector's (one or the other)
        render_split(data, "detected", CAMERA_SEED + detected_offset, camera, CAMERA_CHUNK,
                     _camera_chunk, (frames_per_deal,), procs, unit="strips")
        render_split(data, "val_detected", CAMERA_VAL_SEED, max(1, n_val // frames_per_deal),
                     CAMERA_CHUNK, _camera_chunk, (frames_per_deal,), procs, unit="strips")


def load(folder: Path) -> tuple[list, list, list]:
    strips, centres, across = [], [], []
    for f in sorted(folder.glob("*.npz")):
        d = np.load(f, allow_pickle=True)
        strips += list(d["strips"])
        centres += list(d["centres"])
        across += list(d["across"])
    return strips, centres, across


def build_net(width: float = 1.0):  # noqa: ANN201
    """2-D convolutions down to 4 rows at half the strip's width, one convolution folding the
    rows into a sequence, dilated 1-D residual blocks along it (they see about three long
    sides either way: the row's rhythm), and a 1x1 head of two channels per cell: card-centre
    score and across-the-row, both as logits."""
    import torch
    from torch import nn

    c1, c2, c3, c4, c5 = (int(round(k * width)) for k in (24, 32, 48, 64, 96))

    def conv(cin: int, cout: int, stride: int | tuple[int, int]) -> nn.Sequential:
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False),
                             nn.BatchNorm2d(cout), nn.ReLU(inplace=True))

    class Residual(nn.Module):
        def __init__(self, channels: int, dilation: int) -> None:
            super().__init__()
            self.body = nn.Sequential(
                nn.Conv1d(channels, channels, 5, padding=2 * dilation, dilation=dilation),
                nn.BatchNorm1d(channels), nn.ReLU(inplace=True),
                nn.Conv1d(channels, channels, 1), nn.BatchNorm1d(channels))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.relu(x + self.body(x))

    class RowStripNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            # height 60 -> 30 -> 30 -> 15 -> 8 -> 4; width halved once
            self.image = nn.Sequential(conv(3, c1, 2), conv(c1, c2, 1), conv(c2, c3, (2, 1)),
                                       conv(c3, c4, (2, 1)), conv(c4, c4, (2, 1)))
            self.fold = nn.Sequential(nn.Conv2d(c4, c5, (4, 3), padding=(0, 1), bias=False),
                                      nn.BatchNorm2d(c5), nn.ReLU(inplace=True))
            self.sequence = nn.Sequential(*[Residual(c5, d) for d in (1, 2, 4, 8, 1)])
            self.head = nn.Conv1d(c5, 2, 1)
            with torch.no_grad():
                self.head.bias[0] = -4.0  # few cells are centres

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.head(self.sequence(self.fold(self.image(x)).squeeze(2)))

    return RowStripNet()


def batch(index: np.ndarray, strips: list, centres: list, across: list,
          rng: np.random.Generator | None):  # noqa: ANN201
    """Inputs and targets of one batch: strips (augmented when ``rng``), centre scores, the
    across targets and where they count, and the cells inside each strip."""
    import torch

    from vision.detect.strips import LONG_SIDE_PX, STRIDE, to_batch

    sigma = SIGMA_LONG * LONG_SIDE_PX / STRIDE
    chosen, spots, flags = [], [], []
    for i in index:
        s, x, a = strips[i], centres[i].astype(np.float64), across[i]
        if rng is not None:
            if rng.random() < 0.5:  # the row laid the other way
                s, x = s[:, ::-1], s.shape[1] - x
            if rng.random() < 0.5:
                s = s[::-1]
            gain, shift = rng.uniform(0.7, 1.3), rng.uniform(-40, 40)
            s = np.clip(s.astype(np.float32) * gain + shift, 0, 255).astype(np.uint8)
            if rng.random() < 0.3:
                s = s[..., rng.permutation(3)]
        chosen.append(np.ascontiguousarray(s))
        spots.append(x / STRIDE)
        flags.append(a)
    x = to_batch(chosen)
    cells = x.shape[3] // STRIDE
    grid = np.arange(cells) + 0.5
    score = np.zeros((len(index), cells), np.float32)
    won = np.zeros_like(score)
    counted = np.zeros_like(score)
    inside = np.zeros_like(score)
    for k, (s, centre, flag) in enumerate(zip(chosen, spots, flags, strict=True)):
        inside[k, : math.ceil(s.shape[1] / STRIDE)] = 1
        for c, f in zip(centre, flag, strict=True):
            score[k] = np.maximum(score[k], np.exp(-((grid - c) ** 2) / (2 * sigma**2)))
            j = int(c)
            for jj in (j - 1, j, j + 1):
                if 0 <= jj < cells:
                    won[k, jj], counted[k, jj] = float(f), 1.0
            if 0 <= j < cells:
                score[k, j] = 1.0
    t = torch.from_numpy
    return t(x), t(score), t(won), t(counted), t(inside)


def losses(out, score, won, counted, inside):  # noqa: ANN001, ANN201
    import torch
    import torch.nn.functional as F  # noqa: N812

    p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    centre = (score >= 1.0).float()
    positive = -((1 - p) ** 2) * torch.log(p) * centre
    negative = -((1 - score) ** 4) * p**2 * torch.log(1 - p) * (1 - centre)
    focal = ((positive + negative) * inside).sum() / centre.sum().clamp(min=1)
    across = (F.binary_cross_entropy_with_logits(out[:, 1], won, reduction="none")
              * counted).sum() / counted.sum().clamp(min=1)
    return focal, across


def count_accuracy(net, strips: list, centres: list) -> float:  # noqa: ANN001
    """Share of strips whose peaks are as many as their true cards."""
    import torch

    from vision.detect.strips import read_cells, to_batch

    net.eval()
    right = 0
    with torch.no_grad():
        for s, c in zip(strips, centres, strict=True):
            out = net(torch.from_numpy(to_batch([s])))[0].numpy()
            right += len(read_cells(out, s.shape[1])[0]) == len(c)
    return right / max(1, len(strips))


def train(data: Path, run: Path, epochs: int, threads: int, size: int, lr: float,
          width: float, init: Path | None = None, more: Sequence[Path] = ()) -> Path:
    import torch

    torch.set_num_threads(threads)
    torch.manual_seed(0)
    strips, centres, across = load(data / "train")
    others = [f for m in more for f in (m / "train", m / "detected")]
    for folder in [*others, data / "detected"]:
        if folder.exists():  # other data folders' training strips, the detector's rows
            extra = load(folder)
            strips, centres, across = strips + extra[0], centres + extra[1], across + extra[2]
    val_strips, val_centres, _ = load(data / "val")
    detected_val = load(data / "val_detected")[:2] if (data / "val_detected").exists() else None
    print(f"{len(strips)} training strips, {len(val_strips)} validation strips", flush=True)
    net = build_net(width)
    if init is not None:
        net.load_state_dict(torch.load(init, map_location="cpu"))
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    per_epoch = len(strips) // size
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=epochs * per_epoch,
                                                pct_start=0.15)
    rng = np.random.default_rng(0)
    widths = np.array([s.shape[1] for s in strips])
    run.mkdir(parents=True, exist_ok=True)
    best, t0 = -1.0, time.time()
    for epoch in range(epochs):
        net.train()
        # batches of like widths (little padding), in random order
        order = np.argsort(widths + rng.uniform(0, 64, len(widths)))
        batches = [order[k:k + size] for k in range(0, per_epoch * size, size)]
        rng.shuffle(batches)
        total = 0.0
        for index in batches:
            x, score, won, counted, inside = batch(index, strips, centres, across, rng)
            focal, across_loss = losses(net(x), score, won, counted, inside)
            loss = focal + across_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach())
        accuracy = count_accuracy(net, val_strips, val_centres)
        along_detected = "" if detected_val is None else (
            f" (along the detector's rows {100 * count_accuracy(net, *detected_val):.2f} %)")
        print(f"epoch {epoch + 1}/{epochs}: loss {total / len(batches):.4f}, validation rows "
              f"counted right {100 * accuracy:.2f} %{along_detected}, {time.time() - t0:.0f} s",
              flush=True)
        torch.save(net.state_dict(), run / "last.pt")
        if accuracy >= best:
            best = accuracy
            torch.save(net.state_dict(), run / "best.pt")
    return run / "best.pt"


def export(weights: Path, out: Path, models: Path | None, width: float = 1.0) -> Path:
    import torch

    from vision.detect.strips import STRIP_HEIGHT

    net = build_net(width)
    net.load_state_dict(torch.load(weights, map_location="cpu"))
    net.eval()
    torch.onnx.export(
        net, torch.zeros(1, 3, STRIP_HEIGHT, 256), str(out),
        input_names=["strips"], output_names=["cells"],
        dynamic_axes={"strips": {0: "n", 3: "width"}, "cells": {0: "n", 2: "cells"}},
        opset_version=17, dynamo=False,
    )
    if models is not None:
        from export import write_checksum

        models.mkdir(parents=True, exist_ok=True)
        target = models / "row_strip.onnx"
        shutil.copyfile(out, target)
        print(f"shipped {target} and {write_checksum(target)}", flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    from small_model_options import add_arguments, folders

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser, name="strips", scenes=3200, val_scenes=200, epochs=12, batch=32)
    parser.add_argument("--seed-offset", type=int, default=0,
                        help="added to the training data's seeds")
    parser.add_argument("--init", default="", help="our own earlier best.pt to continue from")
    parser.add_argument("--more-data", default="",
                        help="other data folders (commas) whose training strips (true rows and "
                             "the detector's) are trained on too")
    parser.add_argument("--detected", type=int, default=0, metavar="N",
                        help="also N scenes' strips along the rows the shipped detector finds "
                             "(seeds 4.2e9 upwards), labelled with the true cards in them")
    parser.add_argument("--detected-offset", type=int, default=0, metavar="K",
                        help="added to the seeds of --detected's (or --camera's) scenes")
    parser.add_argument("--camera", type=int, default=0, metavar="N",
                        help="instead of --detected: N animated deals' frames, their strips "
                             "along the rows the fixed camera's analyser finds (seeds 4.3e9 "
                             "upwards), labelled with the true cards in them")
    parser.add_argument("--frames-per-deal", type=int, default=8,
                        help="frames drawn at random moments of each --camera deal")
    args = parser.parse_args(argv)
    if args.detected and args.camera:
        parser.error("--detected and --camera fill the same strips: give one of them")

    data, run = folders(args)
    generate(data, args.scenes, args.val_scenes, args.procs, args.seed_offset, args.detected,
             args.detected_offset, args.camera, args.frames_per_deal)
    if args.only_data:
        return 0
    weights = run / "best.pt"
    if not weights.exists():
        weights = train(data, run, args.epochs, args.threads, args.batch, args.lr, args.width,
                        Path(args.init) if args.init else None,
                        [Path(m) for m in args.more_data.split(",") if m])
    export(weights, run / "row_strip.onnx", Path(args.models) if args.models else None,
           args.width)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

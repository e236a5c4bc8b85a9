#!/usr/bin/env python
"""Generate crops, train the card-axis classifier, export it to ONNX and ship it.

The classifier (:mod:`vision.detect.axis`) takes a 48 px crop around a candidate box of the
shipped detector and says whether the card's long side runs along the box's ``w`` side, along
its ``h`` side, or whether there is no card. Run with the training environment (torch)::

    /work/trainenv/bin/python scripts/train_axis.py --data /work/data/axis \\
        --runs /work/runs/axis --scenes 1200 --val-scenes 150 --epochs 14

Steps (each skipped when its output exists, unless --force):
1. crops: renderer scenes (seeds from 5e9 upwards for training, 5.5e9 for validation; the
   evaluation uses 9e9 upwards) are run through the shipped detector with loose NMS; every
   candidate box is labelled from the truth (the nearest card within 0.35 of its short side,
   or ``no_card`` beyond 0.6). The true rectangles are added jittered and turned by a random
   multiple of 90 degrees, and random boxes on the cloth as ``no_card``. Written as ``.npz``.
   Each card crop also carries where the true card lies (centre offset and side lengths).
   ``--detector MODEL`` crops the candidates of another photo detector (a second look made
   for a new detector before it is shipped).
   ``--steep SHARE`` photographs that share of the scenes with the camera tilted 20-45
   degrees (the styles' own tilt stops at 25).
   ``--video-detector MODEL`` takes one frame of an animated deal per seed instead, cut by
   that detector (the fixed camera's second look; tried, not shipped - see
   ``models/detector_video.md``).
2. train a small CNN (0.1 M parameters at ``--width 1``, 0.2 M at 1.25; a class head and a
   box head) from scratch in torch, 2 threads.
3. export ONNX (opset 17), copy to ``models/card_axis.onnx`` and write its sha256.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

TRAIN_SEED = 5_000_000_000
VAL_SEED = 5_500_000_000
GAMES = ("bridge", "preferans", "lhombre")
STAGES = ("end", "mid", "faceup", "end")
SIZES = ((1920, 1080), (1280, 960), (1280, 720), (640, 480), (1024, 768))
BOX_WEIGHT = 1.0  # box targets are scaled to about unit size (vision.detect.axis.BOX_SCALE)
#: How loosely the detector's candidates are thinned before they are cropped (NMS probiou).
CANDIDATE_IOU = 0.8
CHUNK = 25  # scenes per task (its own seeds: deterministic whatever the pool size)


def _axis_label(box_angle: float, long_angle: float) -> int:
    from vision.detect.axis import ALONG_H, ALONG_W

    d = (long_angle - box_angle) % np.pi
    return ALONG_W if d < np.pi / 4 or d > 3 * np.pi / 4 else ALONG_H


def _scene_samples(scene, detector, rng) -> tuple[list[np.ndarray], list[int], list[np.ndarray]]:
    from vision.detect.axis import NO_CARD, encode_targets
    from vision.table.rows import measure

    truth = scene.truth
    cards = [c for c in truth["cards"] if c["visible_fraction"] >= 0.05]
    geo = measure(np.array([c["quad"] for c in cards], dtype=np.float64).reshape(-1, 4, 2))
    centres, shorts = geo.centers, geo.short_len
    angles = np.arctan2(geo.long_axis[:, 1], geo.long_axis[:, 0])  # of the long side

    def target(b: np.ndarray, k: int) -> np.ndarray:
        return encode_targets(b, centres[k], geo.long_len[k], shorts[k])
    boxes: list[np.ndarray] = []
    labels: list[int] = []
    targets: list[np.ndarray] = []
    none = np.zeros(4)

    raw, box = detector.candidates(scene.image, CANDIDATE_IOU)
    if len(raw.score):
        for b in box.xywhr_to_image(raw.xywhr):
            if len(centres) == 0:
                boxes.append(b)
                labels.append(NO_CARD)
                targets.append(none)
                continue
            d = np.hypot(*(centres - b[:2]).T) / shorts
            k = int(np.argmin(d))
            if d[k] < 0.35:
                boxes.append(b)
                labels.append(_axis_label(b[4], angles[k]))
                targets.append(target(b, k))
            elif d[k] > 0.6:
                boxes.append(b)
                labels.append(NO_CARD)
                targets.append(none)
    # jittered true rectangles, turned by a random multiple of 90 degrees
    for k, card in enumerate(cards):
        c, long_side, short_side, angle = centres[k], geo.long_len[k], shorts[k], angles[k]
        if card["visible_fraction"] < 0.15:
            continue
        turn = int(rng.integers(0, 2))
        cx, cy = c + rng.normal(0, 0.12 * short_side, 2)
        w = long_side * rng.uniform(0.85, 1.2)
        h = short_side * rng.uniform(0.85, 1.3)
        if rng.random() < 0.5:
            w, h = h, w  # the crop only depends on the longer side and the angle
        a = angle + turn * np.pi / 2 + np.radians(rng.normal(0, 5))
        boxes.append(np.array([cx, cy, w, h, a]))
        labels.append(_axis_label(a, angle))
        targets.append(target(boxes[-1], k))
    # boxes on the cloth and between cards
    hgt, wid = scene.image.shape[:2]
    typical = float(np.median(geo.long_len)) if cards else 0.15 * min(hgt, wid)
    for _ in range(8):
        p = rng.uniform([0, 0], [wid, hgt])
        if len(centres) and np.min(np.hypot(*(centres - p).T) / shorts) < 0.7:
            continue
        s = typical * rng.uniform(0.8, 1.25)
        boxes.append(np.array([p[0], p[1], s, s * rng.uniform(0.6, 0.8), rng.uniform(0, np.pi)]))
        labels.append(NO_CARD)
        targets.append(none)
    return boxes, labels, targets


def _video_frame(seed: int, rng: np.random.Generator) -> SimpleNamespace:
    """One frame at a random moment of the animated deal ``seed`` (image and card truth)."""
    from vision.synth.video import training_script

    script = training_script(seed, rng, GAMES)
    frame = next(script.frames(start=int(rng.integers(script.n_frames)), stop=None))
    return SimpleNamespace(image=frame.image, truth={"cards": frame.cards})


def _chunk(args: tuple[str, int, int, str, str, float]) -> tuple[str, int]:
    from vision.detect.axis import axis_crops
    from vision.detect.onnx_detector import CardDetector
    from vision.synth.export import STEEP_TILT
    from vision.synth.scene import render_game_scene

    out_file, first_seed, n, video_model, photo_model, steep = args
    detector = CardDetector(video_model or photo_model or None, conf=0.2, threads=1, axis=False)
    rng = np.random.default_rng(first_seed)
    crops, labels, targets = [], [], []
    for i in range(n):
        seed = first_seed + i
        if video_model:
            scene = _video_frame(seed, rng)
        else:
            hard = bool(rng.random() < 0.35)
            size = SIZES[int(rng.integers(len(SIZES)))]
            # a share of the cameras looking at the table from the side (a phone held at an
            # angle): the styles' own tilt stops at 15 (hard: 25) degrees
            tilt = float(np.random.default_rng([seed, 0x5EE9]).uniform(*STEEP_TILT)) \
                if steep and np.random.default_rng([seed, 0x5EE8]).random() < steep else None
            scene = render_game_scene(GAMES[seed % 3], STAGES[(seed // 3) % 4], seed,
                                      hard=hard, image_size=size, tilt_deg=tilt)
        boxes, lab, tgt = _scene_samples(scene, detector, rng)
        if boxes:
            crops.append(axis_crops(scene.image, np.array(boxes)))
            labels.extend(lab)
            targets.extend(tgt)
    x = np.concatenate(crops) if crops else np.zeros((0, 48, 48, 3), np.uint8)
    t = np.array(targets, dtype=np.float32).reshape(-1, 4)
    np.savez_compressed(out_file, x=x, y=np.array(labels, dtype=np.int64), t=t)
    return out_file, len(labels)


def generate(data: Path, n_train: int, n_val: int, procs: int, seed_offset: int = 0,
             video_model: str = "", photo_model: str = "", steep: float = 0.0) -> None:
    from small_model_options import render_split

    for split, n, base in (("train", n_train, TRAIN_SEED + seed_offset), ("val", n_val, VAL_SEED)):
        render_split(data, split, base, n, CHUNK, _chunk, (video_model, photo_model, steep),
                     procs, unit="crops")


def load(folder: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xs, ys, ts = [], [], []
    for f in sorted(folder.glob("*.npz")):
        with np.load(f) as z:
            xs.append(z["x"])
            ys.append(z["y"])
            ts.append(z["t"])
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(ts)


def build_net(width: float = 1.0):
    """Six 3x3 convolutions, global pooling, two heads: 3 class logits and 4 box offsets;
    ``width`` scales every layer's channels."""
    import torch
    import torch.nn as nn

    def block(cin: int, cout: int, stride: int) -> list:
        return [nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

    class AxisNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            c = [max(8, int(round(k * width))) for k in (16, 32, 32, 64, 64, 96)]
            self.features = nn.Sequential(
                *block(3, c[0], 2),
                *block(c[0], c[1], 2),
                *block(c[1], c[2], 1),
                *block(c[2], c[3], 2),
                *block(c[3], c[4], 1),
                *block(c[4], c[5], 2),
                nn.AdaptiveAvgPool2d(1),
                nn.Flatten(),
            )
            self.classes = nn.Linear(c[5], 3)
            self.box = nn.Linear(c[5], 4)

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            f = self.features(x)
            return self.classes(f), self.box(f)

    return AxisNet()


def net_from_onnx(path: Path, width: float, crops: np.ndarray):  # noqa: ANN201
    """The torch network of a card_axis ONNX file (``models/`` keeps no torch weights; the
    training runs die with their machine), to be fine-tuned like ``--init``.

    Export folds each batch norm into its convolution, and an 8-bit file stores the weights
    as integers: the weights are dequantized and each batch norm is put back so that it
    passes the folded convolution's output through - in evaluation exactly, and nearly so on
    training batches, where a batch norm divides by the batch's own statistics: each one gets
    the mean and spread its convolution shows on ``crops`` (N, 48, 48, 3 BGR uint8)."""
    import onnx
    import torch
    from onnx import numpy_helper

    model = onnx.load(str(path))
    values = {t.name: numpy_helper.to_array(t).astype(np.float64) for t in model.graph.initializer}
    for node in model.graph.node:  # dequantize the stored weights and biases
        if node.op_type == "DequantizeLinear" and node.input[0] in values:
            q, scale, zero = (values[n] for n in node.input[:3])
            axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
            shape = [1] * q.ndim
            if scale.ndim and q.ndim:
                shape[axis] = -1
            values[node.output[0]] = (q - zero.reshape(shape)) * scale.reshape(shape)
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    gemms = {n.input[1].split(".")[0]: n for n in model.graph.node if n.op_type == "Gemm"}
    net = build_net(width)
    layers = [m for m in net.features if isinstance(m, torch.nn.Conv2d)]
    norms = [m for m in net.features if isinstance(m, torch.nn.BatchNorm2d)]
    if len(convs) != len(layers) or set(gemms) != {"classes", "box"}:
        raise SystemExit(f"{path}: not a card_axis model of this architecture")
    x = torch.from_numpy(np.ascontiguousarray(crops[..., ::-1].transpose(0, 3, 1, 2))) / 255.0
    net.eval()
    with torch.no_grad():
        for conv, norm, node in zip(layers, norms, convs, strict=True):
            weight = torch.tensor(values[node.input[1]], dtype=torch.float32)
            bias = torch.tensor(values[node.input[2]], dtype=torch.float32)
            if weight.shape != conv.weight.shape:
                raise SystemExit(f"{path}: layer shapes differ ({tuple(weight.shape)} against "
                                 f"{tuple(conv.weight.shape)}): give the --width it was made with")
            conv.weight.copy_(weight)
            y = torch.nn.functional.conv2d(x, weight, None, conv.stride, conv.padding)
            mean, std = y.mean((0, 2, 3)), y.std((0, 2, 3)).clamp_min(1e-3)
            norm.running_mean.copy_(mean)
            norm.running_var.copy_(std**2 - norm.eps)
            norm.weight.copy_(std)
            norm.bias.copy_(mean + bias)
            x = torch.relu(y + bias[None, :, None, None])
        for name, head in (("classes", net.classes), ("box", net.box)):
            node = gemms[name]
            head.weight.copy_(torch.tensor(values[node.input[1]], dtype=torch.float32))
            head.bias.copy_(torch.tensor(values[node.input[2]], dtype=torch.float32))
    return net


def _augment(x, y, t, gen):
    """Random 90-degree turns (swapping along_w/along_h), flips, brightness, contrast, grey;
    the box targets (dx, dy, log long, log short) turn and flip with the crop."""
    import torch

    from vision.detect.axis import ALONG_H, ALONG_W

    n = x.shape[0]
    turn = torch.rand(n, generator=gen) < 0.5
    x = torch.where(turn[:, None, None, None], x.transpose(2, 3).flip(3), x)
    # new[r, c] = old[S-1-c, r]: a point (x, y) about the centre moves to (-y, x)
    t = torch.where(turn[:, None], torch.stack([-t[:, 1], t[:, 0], t[:, 2], t[:, 3]], 1), t)
    swap = turn & (y != 2)
    y = torch.where(swap & (y == ALONG_W), ALONG_H, torch.where(swap & (y == ALONG_H), ALONG_W, y))
    flip_h = torch.rand(n, generator=gen) < 0.5
    x = torch.where(flip_h[:, None, None, None], x.flip(3), x)
    t = torch.where(flip_h[:, None], t * torch.tensor([-1.0, 1, 1, 1]), t)
    flip_v = torch.rand(n, generator=gen) < 0.5
    x = torch.where(flip_v[:, None, None, None], x.flip(2), x)
    t = torch.where(flip_v[:, None], t * torch.tensor([1.0, -1, 1, 1]), t)
    grey = torch.rand(n, generator=gen) < 0.15
    x = torch.where(grey[:, None, None, None], x.mean(1, keepdim=True).expand_as(x), x)
    contrast = 0.6 + 0.8 * torch.rand(n, 1, 1, 1, generator=gen)
    bright = 0.25 * (torch.rand(n, 1, 1, 1, generator=gen) - 0.5)
    mean = x.mean((1, 2, 3), keepdim=True)
    x = ((x - mean) * contrast + mean + bright).clamp(0, 1)
    return x, y, t


def train(
    data: Path, run: Path, epochs: int, threads: int, batch: int, lr: float, width: float = 1.0,
    init: Path | None = None,
) -> Path:
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(threads)
    torch.manual_seed(0)
    xtr, ytr, ttr = load(data / "train")
    xva, yva, tva = load(data / "val")
    print(f"train {len(ytr)} crops {np.bincount(ytr, minlength=3)}, val {len(yva)}", flush=True)
    to_t = lambda a: torch.from_numpy(np.ascontiguousarray(a[..., ::-1].transpose(0, 3, 1, 2)))  # noqa: E731
    xtr_t, xva_t = to_t(xtr), to_t(xva)
    ytr_t, yva_t = torch.from_numpy(ytr), torch.from_numpy(yva)
    ttr_t, tva_t = torch.from_numpy(ttr), torch.from_numpy(tva)
    if init is None:
        net = build_net(width)
    elif init.suffix == ".onnx":  # a shipped model, its weights recovered from the file
        net = net_from_onnx(init, width, xtr[np.random.default_rng(0).permutation(len(xtr))[:4096]])
    else:  # our own earlier weights (e.g. to go on with a new detector's crops)
        net = build_net(width)
        net.load_state_dict(torch.load(init, map_location="cpu"))
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * ((len(ytr) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.1)
    gen = torch.Generator().manual_seed(0)
    run.mkdir(parents=True, exist_ok=True)
    history = []
    best = -1.0
    for epoch in range(epochs):
        net.train()
        t0 = time.time()
        perm = torch.randperm(len(ytr), generator=gen)
        total = 0.0
        for k in range(0, len(perm), batch):
            idx = perm[k : k + batch]
            x = xtr_t[idx].float() / 255.0
            x, y, t = _augment(x, ytr_t[idx], ttr_t[idx], gen)
            logits, box = net(x)
            card = (y != 2).float()[:, None]
            box_loss = (F.smooth_l1_loss(box, t, reduction="none", beta=0.5) * card).sum() / (
                card.sum() * 4 + 1e-6
            )
            loss = F.cross_entropy(logits, y, label_smoothing=0.02) + BOX_WEIGHT * box_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        net.eval()
        with torch.no_grad():
            outs = [net(xva_t[k : k + 1024].float() / 255.0) for k in range(0, len(yva), 1024)]
        pred = torch.cat([o[0] for o in outs]).argmax(1)
        box = torch.cat([o[1] for o in outs])
        acc = float((pred == yva_t).float().mean())
        card = yva_t != 2
        axis_acc = float((pred[card] == yva_t[card]).float().mean())
        box_err = (box[card] - tva_t[card]).abs().mean(0).tolist()
        row = {
            "epoch": epoch + 1,
            "loss": total / len(ytr),
            "val_acc": acc,
            "val_axis_acc_on_cards": axis_acc,
            "val_box_mae": [round(v, 4) for v in box_err],
            "seconds": time.time() - t0,
        }
        history.append(row)
        print(json.dumps(row), flush=True)
        torch.save(net.state_dict(), run / "last.pt")
        if acc > best:
            best = acc
            torch.save(net.state_dict(), run / "best.pt")
    (run / "history.json").write_text(json.dumps(history, indent=2) + "\n")
    return run / "best.pt"


def export(weights: Path, out: Path, models: Path | None, width: float = 1.0) -> Path:
    import torch

    from vision.detect.axis import CROP_SIZE

    net = build_net(width)
    net.load_state_dict(torch.load(weights, map_location="cpu"))
    net.eval()
    dummy = torch.zeros(1, 3, CROP_SIZE, CROP_SIZE)
    torch.onnx.export(
        net,
        dummy,
        str(out),
        input_names=["crops"],
        output_names=["logits", "box"],
        dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}, "box": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    if models is not None:
        models.mkdir(parents=True, exist_ok=True)
        target = models / "card_axis.onnx"
        shutil.copyfile(out, target)
        digest = hashlib.sha256(target.read_bytes()).hexdigest()
        (models / "card_axis.sha256").write_text(f"{digest}  card_axis.onnx\n")
        print(f"shipped {target} sha256 {digest}", flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    from small_model_options import add_arguments, folders

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser, name="axis", scenes=1200, val_scenes=150, epochs=14, batch=256)
    parser.add_argument("--seed-offset", type=int, default=0, help="added to the data seeds")
    parser.add_argument("--init", default="",
                        help="our own earlier best.pt, or a card_axis ONNX file (e.g. the "
                             "shipped one), to continue from")
    parser.add_argument("--video-detector", default="",
                        help="crop frames of animated deals, cut by this detector ONNX (the "
                             "fixed camera's second look) instead of photos")
    parser.add_argument("--detector", default="",
                        help="crop the candidates of this photo detector ONNX (default: the "
                             "shipped one)")
    parser.add_argument("--steep", type=float, default=0.0, metavar="SHARE",
                        help="this share of the scenes photographed from the side: the "
                             "camera tilted 20-45 degrees from straight down")
    args = parser.parse_args(argv)
    if args.detector and args.video_detector:
        parser.error("give --detector or --video-detector, not both")

    data, run = folders(args)
    generate(data, args.scenes, args.val_scenes, args.procs, args.seed_offset,
             args.video_detector, args.detector, args.steep)
    if args.only_data:
        return 0
    weights = run / "best.pt"
    if not weights.exists():
        weights = train(data, run, args.epochs, args.threads, args.batch, args.lr, args.width,
                        Path(args.init) if args.init else None)
    export(weights, run / "card_axis.onnx", Path(args.models) if args.models else None, args.width)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

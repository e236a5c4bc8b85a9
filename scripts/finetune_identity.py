"""Fine-tune the shipped identity classifier on generated corner crops, some turned grey.

    /work/trainenv/bin/python scripts/finetune_identity.py models/identity.onnx \
        /work/runs/identity-grey --crops 20000 --epochs 3 --grey 0.3 --seed 11
    /work/trainenv/bin/python scripts/quantize.py identity \
        /work/runs/identity-grey/identity.onnx --out models/identity.onnx

The classifier learnt suits partly by colour and never saw a grey photo: a monochrome camera
makes it read diamonds as clubs (``scripts/evaluate_identity.py --grey``). Its training runs
did not outlive their machine and only the 8-bit file is shipped, so this starts from that
file: ``scripts/recover_weights.py`` dequantizes its weights into ``yolo11n-cls`` with its
batch norms folded (the rebuilt network names the same class as the 8-bit one for 99.6 % of
generated crops) and trains them a little further - AdamW, cosine schedule, batch 64 - on
freshly generated crops (``vision.identity.synth.sample_crops``, training styles) of which
``--grey`` are turned grey.
With the batch norms folded a small learning rate is needed. ``--scenes N`` adds the corner
crops of N rendered scenes cut along the boxes the photo pipeline really hands the face
reader (:mod:`vision.identity.scene_crops`; rendered once into ``--scene-data``). Writes
``identity.pt`` and the float ``identity.onnx`` to the output folder;
``scripts/quantize.py identity`` makes the 8-bit file that ships.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))  # recover_weights


def crops_for(names: dict[int, str], n: int, seed: int, none_keep: float,  # noqa: ANN201
              view: str = "corners", back_chance: float | None = None,
              glyph_variety: float = 0.0, in_crop: bool = False):
    """``n`` generated colour crops (uint8 BGR) and their class indices: corner crops,
    whole-card crops of cards lying alone (``view="whole"``, the whole-card model's), or
    strip crops of cards half covered by the next card of a row, that card masked
    (``view="strip"``, the strip model's);
    ``back_chance``: the share of cards drawn as a back (default: the generator's);
    ``glyph_variety``: the share of decks whose rank glyphs are bent into new shapes;
    ``in_crop``: corner crops labelled by what of the index shows inside each crop
    (:func:`vision.identity.synth.label_crops`)."""
    from vision.identity.synth import sample_crops, sample_strip_cards, sample_whole_cards

    index = {v: k for k, v in names.items()}
    rng = np.random.default_rng(seed)
    crops: list[np.ndarray] = []
    labels: list[int] = []
    kw: dict[str, float] = {} if back_chance is None else {"back_chance": back_chance}
    if glyph_variety:
        kw["glyph_variety"] = glyph_variety
    while len(crops) < n:
        samples = (sample_whole_cards(rng, **kw) if view == "whole"
                   else sample_strip_cards(rng, **kw) if view == "strip"
                   else sample_crops(rng, none_keep=none_keep, in_crop=in_crop, **kw))
        for c in samples:
            crops.append(c.crop)
            labels.append(index[c.label])
    return np.stack(crops[:n]), np.array(labels[:n])


def _crops_chunk(job: tuple) -> tuple[np.ndarray, np.ndarray]:  # noqa: ANN001
    names, n, seed, none_keep, view, back_chance, glyph_variety, in_crop = job
    return crops_for(names, n, seed, none_keep, view, back_chance, glyph_variety, in_crop)


def drawn_crops(names: dict[int, str], args: argparse.Namespace
                ) -> tuple[np.ndarray, np.ndarray]:
    """The generated crops of a run: one stream of ``args.seed``, or with ``--crop-procs``
    N > 1 N streams of seeds ``args.seed * 1000 + k`` drawn in N processes."""
    job = (args.none_keep, args.view, args.back_chance, args.glyph_variety, args.labels_in_crop)
    if args.crop_procs <= 1:
        return crops_for(names, args.crops, args.seed, *job)
    from multiprocessing import Pool

    share = -(-args.crops // args.crop_procs)
    jobs = [(names, share, args.seed * 1000 + k, *job) for k in range(args.crop_procs)]
    with Pool(args.crop_procs) as pool:
        parts = pool.map(_crops_chunk, jobs)
    crops = np.concatenate([p[0] for p in parts])[: args.crops]
    return crops, np.concatenate([p[1] for p in parts])[: args.crops]


def video_crops(names: dict[int, str], n_deals: int, frames_per_deal: int, seed: int,
                back_share: float = 0.05, view: str = "whole"):  # noqa: ANN201
    """Whole-card crops (``view="corners"``: the two main corner crops) of the face-up cards
    lying alone in frames of animated deals (the fixed camera's view: 25-50 px cards, hands,
    a stream's compression), and ``back_share`` as many lone card backs labelled ``none``;
    boxes jittered as the detector's are off (centre 5 %, size 4 %, turn 2.5 degrees,
    corners 1.5 % of the card's width). Deal seeds :func:`vision.synth.export.scene_seed` of
    ``seed`` - training deals, far from the held-out videos' seeds."""
    from vision.identity.crops import corner_crops, whole_card_crop
    from vision.identity.synth import NONE_LABEL, detector_like
    from vision.synth.export import GAMES, scene_seed
    from vision.synth.video import training_script

    index = {v: k for k, v in names.items()}
    crops: list[np.ndarray] = []
    labels: list[int] = []
    backs: list[np.ndarray] = []
    for v in range(n_deals):
        s = scene_seed(seed, v, "train")
        rng = np.random.default_rng([s, 0x1D])
        script = training_script(s, rng, GAMES)
        # frames with a trick in progress: its cards lie alone, face up
        busy = [i for i in range(0, script.n_frames, 2) if script.state_at(i / script.fps)[1]]
        picks = rng.choice(busy, size=min(frames_per_deal, len(busy)), replace=False) \
            if busy else []
        for i in sorted(int(x) for x in picks):
            frame = next(script.frames(start=i, stop=i + 1))
            ok, buf = cv2.imencode(".jpg", frame.image,
                                   [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(45, 86))])
            image = cv2.imdecode(buf, cv2.IMREAD_COLOR)
            for c in frame.cards:
                if c["visible_fraction"] < 0.97:
                    continue
                quad = np.asarray(c["quad"], dtype=np.float64).reshape(4, 2)
                box = np.roll(detector_like(quad, None, rng), int(rng.integers(4)), axis=0)
                cut = (list(corner_crops(image, box, corners=(0, 2))) if view == "corners"
                       else [whole_card_crop(image, box)])
                if c["face_up"] and c["card"] in index:
                    crops += cut
                    labels += [index[c["card"]]] * len(cut)
                elif not c["face_up"]:
                    backs += cut
    keep = int(back_share * len(crops))
    picked = np.random.default_rng(seed).permutation(len(backs))[:keep]
    crops += [backs[i] for i in picked]
    labels += [index[NONE_LABEL]] * len(picked)
    return np.stack(crops), np.array(labels)


#: Scenes whose boxes the face reader really gets (``--scenes``): seeds from here up, far from
#: every evaluation set (7e9 and up) and the other networks' training scenes (4e9-5.5e9).
SCENE_SEED = 3_600_000_000
SCENE_GAMES = ("bridge", "preferans", "lhombre")
SCENE_SIZES = ((1920, 1080), (1280, 960), (1280, 720), (640, 480))
SCENE_CHUNK = 50


def _scene_chunk(args: tuple) -> tuple[str, int]:  # noqa: ANN001
    """Corner crops along the boxes the photo pipeline hands the face reader in ``n``
    rendered scenes (face-up rows four times in five, a trick in progress otherwise; a
    third hard), labelled from the truth (:mod:`vision.identity.scene_crops`), written to
    ``out_file`` as crops and labels."""
    from vision.identity.scene_crops import QuadRecorder, scene_crops

    out_file, first_seed, n, none_keep, moved_share = args
    return _render_crops(
        out_file, first_seed, n, QuadRecorder(),
        lambda rng: "faceup" if rng.random() < 0.8 else "mid",
        lambda analyzer, recorder, scene, rng: scene_crops(
            analyzer, recorder, scene, rng, none_keep=none_keep, moved_share=moved_share))


#: Scenes for the strip model's crops: seeds from here up (far from the corner crops' too).
STRIP_SCENE_SEED = 3_800_000_000


def _strip_scene_chunk(args: tuple) -> tuple[str, int]:  # noqa: ANN001
    """Strip crops of ``n`` rendered scenes with face-up rows (a third hard), cut along the
    boxes the photo pipeline hands the face reader with the boxes lying on each masked
    (:func:`vision.identity.scene_crops.scene_strip_crops`), written to ``out_file``."""
    from vision.identity.scene_crops import StripRecorder, scene_strip_crops

    out_file, first_seed, n, none_keep, _ = args
    return _render_crops(
        out_file, first_seed, n, StripRecorder(), lambda rng: "faceup",
        lambda analyzer, recorder, scene, rng: scene_strip_crops(
            analyzer, recorder, scene, rng, back_keep=none_keep))


def _render_crops(out_file: str, first_seed: int, n: int, recorder: Any,  # noqa: ANN401
                  stage: Any, cut: Any) -> tuple[str, int]:  # noqa: ANN401
    """Render ``n`` scenes from ``first_seed`` (the game by seed, ``stage(rng)``, a third
    hard, one of the evaluation's sizes), read each up to the face reader (``recorder``
    stands in for it) and write the crops ``cut(analyzer, recorder, scene, rng)`` gives to
    ``out_file``."""
    from vision.detect.onnx_detector import CardDetector
    from vision.pipeline import PhotoAnalyzer
    from vision.synth.scene import render_game_scene

    detector = CardDetector(threads=1)
    analyzers = {g: PhotoAnalyzer(game=g, detector=detector, identity_reader=recorder)
                 for g in SCENE_GAMES}
    crops, labels = [], []
    for i in range(n):
        seed = first_seed + i
        rng = np.random.default_rng(seed)
        game = SCENE_GAMES[seed % 3]
        scene = render_game_scene(game, stage(rng), seed, hard=bool(rng.random() < 0.35),
                                  image_size=SCENE_SIZES[int(rng.integers(len(SCENE_SIZES)))])
        for c in cut(analyzers[game], recorder, scene, rng):
            crops.append(c.crop)
            labels.append(c.label)
    np.savez(out_file, crops=np.stack(crops) if crops else np.zeros((0, 64, 64, 3), np.uint8),
             labels=np.array(labels, dtype=object))
    return out_file, len(crops)


def scene_crops_for(names: dict[int, str], data: Path, n: int, procs: int, none_keep: float,
                    moved_share: float, view: str = "corners"):  # noqa: ANN201
    """The crops of ``n`` scenes (:func:`_scene_chunk`, or :func:`_strip_scene_chunk` for
    the strip view), rendered once into ``data/scenes`` (``data/strip-scenes``) and read
    from there after."""
    from small_model_options import render_split

    split, first_seed, chunk = (("strip-scenes", STRIP_SCENE_SEED, _strip_scene_chunk)
                                if view == "strip" else ("scenes", SCENE_SEED, _scene_chunk))
    render_split(data, split, first_seed, n, SCENE_CHUNK, chunk, (none_keep, moved_share),
                 procs, unit="crops")
    index = {v: k for k, v in names.items()}
    crops, labels = [], []
    for f in sorted((data / split).glob("*.npz")):
        d = np.load(f, allow_pickle=True)
        crops.append(d["crops"])
        labels += [index[str(v)] for v in d["labels"]]
    return np.concatenate(crops), np.array(labels)


def jitter_colour(crop: np.ndarray, rng: np.random.Generator, hue: float, sat: float,
                  val: float) -> np.ndarray:
    """The colour jitter of the original training (ultralytics' hsv_h/s/v gains): hue
    shifted by up to ``hue`` of the circle, saturation and brightness scaled by 1 +- ``sat``
    / ``val`` - unseen inks and papers must not look new to the model."""
    h, s, v = cv2.split(cv2.cvtColor(crop, cv2.COLOR_BGR2HSV))
    gains = rng.uniform(-1, 1, 3) * (hue, sat, val) + 1
    lut = np.arange(256, dtype=np.float32)
    h = cv2.LUT(h, ((lut * gains[0]) % 180).astype(np.uint8))
    s = cv2.LUT(s, np.clip(lut * gains[1], 0, 255).astype(np.uint8))
    v = cv2.LUT(v, np.clip(lut * gains[2], 0, 255).astype(np.uint8))
    return cv2.cvtColor(cv2.merge((h, s, v)), cv2.COLOR_HSV2BGR)


def batch_tensor(crops: np.ndarray, grey: np.ndarray, rng: np.random.Generator | None = None,
                 hsv: tuple[float, float, float] = (0.0, 0.0, 0.0)):  # noqa: ANN201
    """The network's input for a batch of crops, those flagged in ``grey`` turned grey, the
    others colour-jittered by ``hsv`` (when ``rng`` is given)."""
    import torch

    from vision.identity.crops import as_grey, to_tensor

    jitter = rng is not None and any(hsv)
    shown = [as_grey(c) if g else (jitter_colour(c, rng, *hsv) if jitter else c)  # type: ignore[arg-type]
             for c, g in zip(crops, grey, strict=True)]
    return torch.from_numpy(to_tensor(np.stack(shown)))


def teacher_probabilities(net, crops: np.ndarray):  # noqa: ANN001, ANN201
    """The starting model's class probabilities for each crop in colour: what the grey
    crop should still say (distillation keeps the colour answers from drifting)."""
    import torch

    net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(crops), 256):
            x = batch_tensor(crops[i : i + 256], np.zeros(len(crops[i : i + 256]), bool))
            o = net(x)
            o = o[0] if isinstance(o, (tuple, list)) else o
            out.append(o)  # the classify head gives probabilities in eval mode
    return torch.cat(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path,
                        help="the shipped identity.onnx (8-bit) or identity_whole.onnx")
    parser.add_argument("out", type=Path, help="output folder")
    parser.add_argument("--crops", type=int, default=20000)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--grey", type=float, default=0.3, help="share of crops turned grey")
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--view", choices=("corners", "whole", "strip"), default="corners",
                        help="corner crops (identity.onnx), whole cards lying alone "
                             "(identity_whole.onnx), or the strips of row cards that show, "
                             "the next card masked (identity_strip.onnx, started from "
                             "identity_whole.onnx)")
    parser.add_argument("--crop-cache", type=Path, default=None,
                        help="keep the generated crops in this .npz file and take them from it "
                             "when it exists (the same options drew them)")
    parser.add_argument("--crop-procs", type=int, default=1,
                        help="processes drawing the generated crops (1: one stream, as the "
                             "shipped models were trained; more: one seed per process)")
    parser.add_argument("--none-keep", type=float, default=1.0,
                        help="share of `none` crops kept (the training data kept 0.15)")
    parser.add_argument("--hsv", type=float, nargs=3, default=(0.02, 0.3, 0.3),
                        metavar=("H", "S", "V"),
                        help="colour jitter of the colour crops (the original training's)")
    parser.add_argument("--distil", type=float, default=0.0,
                        help="weight of the starting model's colour answers in the loss "
                             "(0: labels only)")
    parser.add_argument("--back-chance", type=float, default=None,
                        help="share of generated cards drawn as a back, labelled `none` "
                             "(default: the generator's: 3 %% corners, 6 %% whole cards)")
    parser.add_argument("--video-deals", type=int, default=0,
                        help="also train on the lone face-up cards of this many animated "
                             "deals' frames (whole view, or their main corners; the fixed "
                             "camera's view)")
    parser.add_argument("--video-frames", type=int, default=40,
                        help="frames drawn from each of those deals")
    parser.add_argument("--video-seed", type=int, default=13,
                        help="seed of those deals (11 made the video detector's frames)")
    parser.add_argument("--threads", type=int, default=2, help="torch threads")
    parser.add_argument("--scenes", type=int, default=0,
                        help="also train on the corner (strip) crops of this many rendered "
                             "scenes, cut along the boxes the photo pipeline gives the face "
                             "reader (seeds 3.6e9 upwards; strips 3.8e9 upwards; not for the "
                             "whole view)")
    parser.add_argument("--scene-data", type=Path, default=Path("/work/data/identity-scenes"),
                        help="where those crops are rendered once and kept (a folder that "
                             "holds them already is used as it is)")
    parser.add_argument("--scene-none-keep", type=float, default=0.3,
                        help="share of their `none` crops kept")
    parser.add_argument("--scene-moved", type=float, default=0.5,
                        help="share of their boxes also cut moved, as the reader moves a box "
                             "it could not read")
    parser.add_argument("--procs", type=int, default=2, help="processes rendering the scenes")
    parser.add_argument("--glyph-variety", type=float, default=0.0,
                        help="share of decks whose rank glyphs are bent and weighted into "
                             "shapes no font of the renderer has (unseen fonts of real decks)")
    parser.add_argument("--arch", default=None, metavar="YAML",
                        help="train a fresh network of this ultralytics model yaml (e.g. "
                             "yolo11s-cls.yaml) from scratch instead of going on from the "
                             "source's weights; the source then names the classes and, with "
                             "--distil, teaches")
    parser.add_argument("--labels-in-crop", action="store_true",
                        help="label each corner crop by what of the index shows inside it: a "
                             "crop whose box cut the index out is not labelled with the card "
                             "(the shipped corner models were trained without this)")
    args = parser.parse_args(argv)
    if not args.source.is_file():
        print(f"finetune_identity: no such model file: {args.source}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("YOLO_AUTOINSTALL", "0")
    os.environ.setdefault("YOLO_CONFIG_DIR", str(args.out.resolve() / "cfg"))
    import torch

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    from recover_weights import RebuildError, rebuild

    try:
        net, _ = rebuild(args.source)  # the 8-bit file's weights, dequantized
    except RebuildError as exc:
        print(f"finetune_identity: {exc}", file=sys.stderr)
        return 2
    source_net = net
    if args.arch is not None:
        # a fresh network of another size, trained from scratch; the source model only
        # names the classes and, with --distil, teaches
        from ultralytics.nn.tasks import ClassificationModel

        net = ClassificationModel(args.arch, nc=len(source_net.names), verbose=False)
        net.names = dict(source_net.names)
    t0 = time.time()
    if args.crop_cache is not None and args.crop_cache.is_file():
        cached = np.load(args.crop_cache)
        crops, y_np = cached["crops"], cached["labels"]
        print(f"[finetune] {len(crops)} crops from {args.crop_cache}", flush=True)
    else:
        crops, y_np = drawn_crops(net.names, args)
        if args.crop_cache is not None:
            np.savez(args.crop_cache, crops=crops, labels=y_np)
    if args.video_deals:
        if args.view == "strip":
            print("finetune_identity: --video-deals needs --view whole or corners",
                  file=sys.stderr)
            return 2
        v_crops, v_y = video_crops(net.names, args.video_deals, args.video_frames,
                                   args.video_seed, view=args.view)
        print(f"[finetune] {len(v_crops)} crops from video frames", flush=True)
        crops, y_np = np.concatenate([crops, v_crops]), np.concatenate([y_np, v_y])
    if args.scenes:
        if args.view == "whole":
            print("finetune_identity: --scenes needs --view corners or strip", file=sys.stderr)
            return 2
        s_crops, s_y = scene_crops_for(net.names, args.scene_data, args.scenes, args.procs,
                                       args.scene_none_keep, args.scene_moved, args.view)
        print(f"[finetune] {len(s_crops)} crops from scenes", flush=True)
        crops, y_np = np.concatenate([crops, s_crops]), np.concatenate([y_np, s_y])
    y = torch.from_numpy(y_np)
    print(f"[finetune] {len(crops)} crops in {time.time() - t0:.0f} s", flush=True)
    teacher = teacher_probabilities(source_net, crops) if args.distil > 0 else None
    rng = np.random.default_rng(args.seed + 1)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.epochs * (len(crops) // 64)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
    net.train()
    for epoch in range(args.epochs):
        order = torch.randperm(len(crops))
        loss_sum, right = 0.0, 0
        for i in range(0, len(crops) - 63, 64):
            b = order[i : i + 64]
            out = net(batch_tensor(crops[b.numpy()], rng.random(len(b)) < args.grey, rng,
                                   tuple(args.hsv)))
            out = out[0] if isinstance(out, (tuple, list)) else out
            loss = torch.nn.functional.cross_entropy(out, y[b])
            if teacher is not None:
                soft = -(teacher[b] * torch.log_softmax(out, 1)).sum(1).mean()
                loss = (1 - args.distil) * loss + args.distil * soft
            opt.zero_grad()
            loss.backward()
            opt.step()
            schedule.step()
            loss_sum += float(loss.detach()) * len(b)
            right += int((out.argmax(1) == y[b]).sum())
        print(f"[finetune] epoch {epoch + 1}: loss {loss_sum / len(crops):.3f}, "
              f"train top-1 {right / len(crops):.3f}, {time.time() - t0:.0f} s", flush=True)
    net.eval()
    weights = args.out / "identity.pt"
    torch.save({"model": net, "train_args": {"task": "classify", "imgsz": 64}}, weights)

    from ultralytics import YOLO

    exported = Path(YOLO(str(weights), task="classify").export(
        format="onnx", imgsz=64, opset=18, simplify=True, dynamic=True))
    target = args.out / "identity.onnx"
    target.write_bytes(exported.read_bytes())
    digest = hashlib.sha256(target.read_bytes()).hexdigest()
    target.with_suffix(".sha256").write_text(f"{digest}  {target.name}\n")  # for the loader
    print(f"[finetune] wrote {weights} and {target} (sha256 {digest[:12]}...)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Quantize a model to 8-bit integers (onnxruntime static quantization).

    /work/trainenv/bin/python scripts/quantize.py card_axis \
        /work/runs/axis-models-v3/card_axis.onnx --val /work/data/axis-big/val
    /work/trainenv/bin/python scripts/quantize.py identity /work/runs/identity-float.onnx
    /work/trainenv/bin/python scripts/quantize.py detector_video \
        /work/runs/recovered/models/detector_video.onnx --frames /work/data/det-video-calib2
    /work/trainenv/bin/python scripts/quantize.py row_strip /work/runs/strips/row_strip.onnx \
        --strips /work/data/strips

Both classifiers run on many crops per photo - the second look on every candidate box (about
100 for a full bridge table), the identity reader on two or four corners of every face-up card
- which made them the largest costs of the pipeline after the detector. Integer convolutions
run 2-3x faster on the CPU. Calibration uses the crops each model sees at inference, cut by the
same code: for ``card_axis`` the shipped detector's candidates on renderer scenes from the
classifier's own training seeds (5e9 + i, ``axis_crops``); for ``identity`` generated card
photos (``vision.identity.synth``, training styles, seed 123); for ``detector_video`` (the
fixed camera's detector, which runs on every analysed frame) the training frames of
``--frames`` (``trickvision synth --format video-obb``: its ``train`` images calibrate, its
``val`` images compare), letterboxed as the detector does (the backbone, the neck and the detection
head's inner convolutions are 8-bit; the head's output convolutions and its decoding stay in
floats); for ``row_strip`` (a strip along every row of every photo)
160 training strips of ``--strips`` (``train_row_strip.py``'s data), four to a batch. Before
anything is written the quantized model is measured against the float one: ``card_axis`` on
held-out validation crops (``--val``, the ``.npz`` files of ``train_axis.py``), ``identity`` on
4,000 freshly generated crops (seed 789), ``detector_video`` on the ``val`` frames (boxes found
by both), ``row_strip`` on the validation strips (rows whose cards it counts right, and counts
that differ; also on the strips along the detector's rows where the data has them). Writes
``models/<name>.onnx`` (or ``--out``) and its ``.sha256``.

Needs the ``train`` extra (``onnx``; ``onnxruntime.quantization`` comes with onnxruntime).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))  # train_axis, export

from vision.detect.axis import ALONG_H, ALONG_W, NO_CARD, axis_crops, crops_to_blob  # noqa: E402
from vision.models import cpu_session  # noqa: E402

GAMES = ("bridge", "preferans", "lhombre")
STAGES = ("end", "mid", "faceup")


def axis_calibration(n_scenes: int) -> list[np.ndarray]:
    """Batches of 64 crops of the shipped detector's candidates."""
    from train_axis import CANDIDATE_IOU, TRAIN_SEED

    from vision.detect.onnx_detector import CardDetector
    from vision.synth.scene import render_game_scene

    detector = CardDetector(axis=False)
    out = []
    for k in range(n_scenes):
        seed = TRAIN_SEED + k
        scene = render_game_scene(GAMES[k % 3], STAGES[(k // 3) % 3], seed,
                                  image_size=(1280, 960), hard=k % 3 == 2)
        raw, box = detector.candidates(scene.image, CANDIDATE_IOU)  # as in training
        if len(raw.score):
            xywhr = box.xywhr_to_image(raw.xywhr)
            out.append(crops_to_blob(axis_crops(scene.image, xywhr)))
    # equal batches: some calibration methods stack them
    crops = np.concatenate(out) if out else np.zeros((0, 3, 48, 48), np.float32)
    return [crops[i : i + 64] for i in range(0, len(crops) - 63, 64)]


def _frames(folder: Path) -> list[np.ndarray]:
    import cv2

    paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".png"))
    if not paths:
        raise SystemExit(f"quantize: no frames (.jpg, .png) in {folder}")
    return [cv2.imread(str(p)) for p in paths]


def detector_blobs(model: Path, folder: Path) -> list[np.ndarray]:
    """The frames of ``folder`` as ``model``'s detector feeds them to the network."""
    from vision.detect.onnx_detector import CardDetector

    detector = CardDetector(model, axis=False)
    return [detector.prepare(image)[0] for image in _frames(folder)]


def detection_head(model: Path, whole: bool = False) -> list[str]:
    """The nodes of the detection head (its last module) kept in floats.

    By default the head's inner convolutions (the first two of each box, class and angle
    branch, ``cvN.s.0`` / ``cvN.s.1``, with their activations) are 8-bit too and only the
    branches' output convolutions and the decoding after them (distribution focal loss,
    boxes, angles) stay in floats: on a 640 x 384 frame the float head took 15 of 34 ms, and
    with its inner convolutions in 8 bits the detector takes 25 instead of 31 ms on one
    thread, with 95.7 % of the float model's validation boxes found (the whole head in floats:
    96.4 %; the output convolutions in 8 bits as well: 94.7 %). ``whole`` keeps the whole head
    in floats (the recipe of the file shipped until 2026-12-06)."""
    import onnx

    return float_head_nodes([n.name for n in onnx.load(str(model)).graph.node], whole)


def float_head_nodes(names: list[str], whole: bool = False) -> list[str]:
    """Of an exported ultralytics detector's node ``names``, those :func:`detection_head`
    keeps in floats."""
    import re

    modules = {n.split("/")[1] for n in names if n.startswith("/model.")}
    head = max(modules, key=lambda name: int(name.split(".")[1]))
    nodes = [n for n in names if n.startswith(f"/{head}/")]
    if whole:
        return nodes
    inner = re.compile(rf"^/{re.escape(head)}/cv\d\.\d+/cv\d\.\d+\.[01]/")
    return [n for n in nodes if not inner.match(n)]


def compare_detector(float_model: Path, int_model: Path, folder: Path) -> dict[str, float]:
    """Boxes (score >= 0.25, after NMS) the float and 8-bit detectors find alike."""
    from vision.detect.obb import probiou_matrix
    from vision.detect.onnx_detector import CardDetector

    a = CardDetector(float_model, axis=False)
    b = CardDetector(int_model, axis=False)
    found = kept = extra = 0
    for image in _frames(folder):
        ra, _ = a.candidates(image, a.iou)
        rb, _ = b.candidates(image, b.iou)
        found += len(ra.score)
        if len(ra.score) and len(rb.score):
            overlap = probiou_matrix(ra.xywhr, rb.xywhr)
            kept += int((overlap.max(axis=1) > 0.8).sum())
            extra += int((overlap.max(axis=0) <= 0.8).sum())
        else:
            extra += len(rb.score)
    return {"float boxes": found, "also found by 8-bit (probiou > 0.8)": kept / max(found, 1),
            "8-bit boxes the float model lacks": extra}


def quantize(source: Path, target: Path, blobs: list[np.ndarray],
             exclude: list[str] | None = None) -> None:
    """8-bit QDQ model of ``source`` calibrated on ``blobs``; the nodes in ``exclude`` (a
    detector's head) stay in floats and the activations' ranges are then taken at the
    99.999th percentile, not the extremes (a detector's activations have rare outliers: with
    the extremes 92 % of the float model's boxes came back instead of 95 %)."""
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    input_name = cpu_session(source).get_inputs()[0].name

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.batches = iter(blobs)

        def get_next(self) -> dict[str, np.ndarray] | None:
            batch = next(self.batches, None)
            return None if batch is None else {input_name: batch}

    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        # symbolic shape inference cannot follow a detector of dynamic height and width
        quant_pre_process(str(source), str(prepared), skip_symbolic_shape=exclude is not None)
        quantize_static(
            str(prepared), str(target), Reader(), quant_format=QuantFormat.QDQ,
            per_channel=True, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
            nodes_to_exclude=exclude or [],
            calibrate_method=CalibrationMethod.MinMax if exclude is None
            else CalibrationMethod.Percentile,
        )


def identity_crops(seed: int, n: int, grey: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``n`` generated corner crops as the classifier's input (turned grey when ``grey``:
    the greyscale model's pictures), and their class indexes."""
    from vision.identity.crops import as_grey, to_tensor
    from vision.identity.synth import CLASS_NAMES, sample_crops

    rng = np.random.default_rng(seed)
    crops: list[np.ndarray] = []
    labels: list[int] = []
    while len(crops) < n:
        for c in sample_crops(rng):
            crops.append(as_grey(c.crop) if grey else c.crop)
            labels.append(CLASS_NAMES.index(c.label))
    return to_tensor(np.stack(crops[:n])), np.array(labels[:n])


def identity_calibration(n_crops: int, grey: bool = False) -> list[np.ndarray]:
    x, _ = identity_crops(123, n_crops, grey)
    return [x[i : i + 64] for i in range(0, len(x) - 63, 64)]


def _probabilities(session, x: np.ndarray) -> np.ndarray:  # noqa: ANN001
    name = session.get_inputs()[0].name
    return np.concatenate([session.run(None, {name: x[i : i + 256]})[0]
                           for i in range(0, len(x), 256)])


def compare_identity(float_model: Path, int_model: Path, grey: bool = False
                     ) -> dict[str, float]:
    """Accuracy of both models on fresh generated crops, and what they read confidently."""
    from vision.identity.synth import CLASS_NAMES

    x, y = identity_crops(789, 4000, grey)
    out: dict[str, float] = {"crops": len(y)}
    preds = {}
    for label, path in (("float", float_model), ("int8", int_model)):
        p = _probabilities(cpu_session(path), x)
        pred, sure = p.argmax(1), p.max(1) >= 0.9
        card = y != CLASS_NAMES.index("none")
        preds[label] = pred
        out[f"{label}_accuracy"] = float((pred == y).mean())
        out[f"{label}_card_accuracy"] = float((pred[card] == y[card]).mean())
        out[f"{label}_sure_right"] = int(((pred == y) & sure).sum())
        out[f"{label}_sure_wrong"] = int(((pred != y) & sure).sum())
    out["agreement"] = float((preds["float"] == preds["int8"]).mean())
    return out


def compare_axis(float_model: Path, int_model: Path, val_dir: Path) -> dict[str, float]:
    """Crop accuracy of both models and how often they agree, on the validation crops."""
    a, b = cpu_session(float_model), cpu_session(int_model)
    name = a.get_inputs()[0].name
    total = right_a = right_b = agree = cards = axis_a = axis_b = 0
    box_diff: list[float] = []
    for f in sorted(val_dir.glob("*.npz")):
        with np.load(f) as z:
            x, y = z["x"], z["y"]
        for i in range(0, len(x), 512):
            blob = crops_to_blob(x[i : i + 512])
            la, ba = a.run(None, {name: blob})[:2]
            lb, bb = b.run(None, {name: blob})[:2]
            pa, pb, yy = la.argmax(1), lb.argmax(1), y[i : i + 512]
            total += len(yy)
            right_a += int((pa == yy).sum())
            right_b += int((pb == yy).sum())
            agree += int((pa == pb).sum())
            card = yy != NO_CARD
            cards += int(card.sum())
            axis_a += int((la[card][:, [ALONG_W, ALONG_H]].argmax(1) == yy[card]).sum())
            axis_b += int((lb[card][:, [ALONG_W, ALONG_H]].argmax(1) == yy[card]).sum())
            box_diff.append(float(np.abs(ba - bb).mean()))
    total = max(total, 1)
    return {
        "crops": total,
        "float_accuracy": right_a / total,
        "int8_accuracy": right_b / total,
        "agreement": agree / total,
        "float_axis_accuracy": axis_a / max(cards, 1),
        "int8_axis_accuracy": axis_b / max(cards, 1),
        "mean_box_head_difference": float(np.mean(box_diff)) if box_diff else 0.0,
    }


def strip_calibration(folder: Path, n: int = 160) -> list[np.ndarray]:
    from train_row_strip import load

    from vision.detect.strips import to_batch

    strips = load(folder)[0][:n]
    return [to_batch(strips[k:k + 4]) for k in range(0, len(strips), 4)]


def compare_strips(float_model: Path, int_model: Path, folder: Path) -> dict[str, float]:
    """Rows whose cards each model counts right, one strip at a time, and how often the two
    count differently."""
    from train_row_strip import load

    from vision.detect.strips import read_cells, to_batch

    strips, centres, _ = load(folder)
    counts: dict[str, list[int]] = {}
    for name, path in (("float", float_model), ("int8", int_model)):
        session = cpu_session(path, 2)
        counts[name] = []
        for strip in strips:
            out = session.run(None, {session.get_inputs()[0].name: to_batch([strip])})[0]
            counts[name].append(len(read_cells(out[0], strip.shape[1])[0]))
    true = [len(c) for c in centres]
    return {
        "validation strips": len(strips),
        "rows counted right, float": float(np.mean(np.equal(counts["float"], true))),
        "rows counted right, 8-bit": float(np.mean(np.equal(counts["int8"], true))),
        "counts differing": int(np.sum(np.not_equal(counts["float"], counts["int8"]))),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", choices=("card_axis", "identity", "detector_video", "row_strip"))
    parser.add_argument("source", type=Path, help="the float ONNX model")
    parser.add_argument("--out", type=Path, default=None, help="default models/<model>.onnx")
    parser.add_argument("--scenes", type=int, default=24, help="card_axis calibration scenes")
    parser.add_argument("--crops", type=int, default=1024, help="identity calibration crops")
    parser.add_argument("--val", type=Path, default=None, help="card_axis validation .npz folder")
    parser.add_argument("--grey", action="store_true",
                        help="identity: calibrate and compare on grey crops (the model for "
                             "greyscale cameras, models/identity_grey.onnx)")
    parser.add_argument("--frames", type=Path, default=None,
                        help="detector_video: a video-obb data set (images/train, images/val)")
    parser.add_argument("--float-head", action="store_true",
                        help="detector_video: keep the whole detection head in floats (the "
                             "default keeps only its output convolutions and decoding)")
    parser.add_argument("--strips", type=Path, default=None,
                        help="row_strip: train_row_strip.py's data folder (train/, val/)")
    args = parser.parse_args(argv)
    out = args.out or REPO / "models" / f"{args.model}.onnx"
    if not args.source.is_file():
        parser.error(f"{args.source}: no such model file")
    if args.source.resolve() == out.resolve():
        parser.error("the output must differ from the float model (keep the source)")
    exclude = None
    if args.model == "card_axis":
        blobs = axis_calibration(args.scenes)
    elif args.model == "identity":
        blobs = identity_calibration(args.crops, args.grey)
    elif args.model == "row_strip":
        if args.strips is None or not (args.strips / "train").is_dir():
            parser.error("row_strip needs --strips DIR with train/ and val/")
        blobs = strip_calibration(args.strips / "train")
    else:
        if args.frames is None or not (args.frames / "images" / "train").is_dir():
            parser.error("detector_video needs --frames DIR with images/train and images/val")
        blobs = detector_blobs(args.source, args.frames / "images" / "train")
        exclude = detection_head(args.source, whole=args.float_head)
    print(f"[quantize] {sum(len(b) for b in blobs)} calibration inputs")
    with tempfile.TemporaryDirectory() as tmp:
        staged = Path(tmp) / out.name
        quantize(args.source, staged, blobs, exclude)
        figures: dict[str, float] = {}
        if args.model == "identity":
            figures = compare_identity(args.source, staged, args.grey)
        elif args.model == "detector_video":
            figures = compare_detector(args.source, staged, args.frames / "images" / "val")
        elif args.model == "row_strip":
            figures = compare_strips(args.source, staged, args.strips / "val")
            if (args.strips / "val_detected").is_dir():  # strips along the detector's rows
                figures |= {f"{k}, along the detector's rows": v for k, v in compare_strips(
                    args.source, staged, args.strips / "val_detected").items()}
        elif args.val is not None:
            figures = compare_axis(args.source, staged, args.val)
        for k, v in figures.items():
            shown = f"{v:.4f}" if isinstance(v, float) else str(v)
            print(f"[quantize] {k}: {shown}")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(staged.read_bytes())
    from export import write_checksum

    print(f"[quantize] wrote {out} and {write_checksum(out)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

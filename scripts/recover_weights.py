"""Rebuild the ultralytics torch weights of a shipped model from its ONNX file.

    /work/trainenv/bin/python scripts/recover_weights.py models/detector_video.onnx \
        /work/runs/recovered/detector_video.pt

Training runs live outside the repository and die with the machine they ran on; the ONNX
file under ``models/`` is what survives. Its initializers keep the names of the fused torch
model (``model.0.conv.weight``, ...: export folds each batch norm into its convolution), so
building the architecture named by the file's ``task`` (``obb``: ``yolo11n-obb.yaml``,
``classify``: ``yolo11n-cls.yaml``) with its classes, fusing it the same way and loading those
tensors gives back the network. A float file comes back exactly (the script checks that both
give the same output); an 8-bit (QDQ) file comes back with its weights dequantized - the
8-bit activations are not part of the torch model, so its output differs a little. The
``.pt`` it writes can be exported again (``scripts/export.py --dynamic``) or trained further
(with its batch norms folded: use a small learning rate; ``scripts/finetune_identity.py``).

``--trainable IMAGES`` writes a detector that ultralytics can train further like one of its
own runs (``scripts/train_detector.py --init-weights``): the batch norms are put back. In
training a batch norm divides by the statistics of the batch, so a norm that merely passed the
folded output through would not; each one is given the mean and spread that its convolution
shows on the images in IMAGES (letterboxed as in training), with scale and shift chosen to
undo them: ``bn(x) = x + b`` exactly in evaluation and nearly so on training batches.
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # vision, when run from a checkout

ARCHITECTURES = {"obb": "yolo11n-obb.yaml", "classify": "yolo11n-cls.yaml"}


class RebuildError(Exception):
    """The ONNX file is not a model of the architecture it names."""


def onnx_tensors(proto: Any) -> dict[str, np.ndarray]:
    """The file's initializers by name; 8-bit weights (``<name>_quantized`` with their scale
    and zero point, per output channel or whole) dequantized under their float name."""
    from onnx import numpy_helper

    t = {i.name: numpy_helper.to_array(i) for i in proto.graph.initializer}
    out = dict(t)
    for name in [n for n in t if n.endswith("_quantized")]:
        base = name.removesuffix("_quantized")
        pre = name + "_" if name + "_scale" in t else base + "_"  # biases / weights
        if pre + "scale" not in t:
            continue
        q = t[name].astype(np.float64)
        scale = t[pre + "scale"].astype(np.float64)
        zero = t[pre + "zero_point"].astype(np.float64)
        if scale.ndim == 1 and q.ndim > 1:  # per output channel
            shape = (-1,) + (1,) * (q.ndim - 1)
            scale, zero = scale.reshape(shape), zero.reshape(shape)
        out[base] = ((q - zero) * scale).astype(np.float32)
    return out


def metadata(proto: Any) -> dict[str, str]:
    return {p.key: p.value for p in proto.metadata_props}


def rebuild(onnx_path: Path) -> tuple[Any, Any]:
    """The fused ultralytics model with the ONNX file's weights, and the loaded file."""
    import onnx
    import torch
    from ultralytics.nn.tasks import ClassificationModel, OBBModel

    proto = onnx.load(str(onnx_path))
    meta = metadata(proto)
    task = meta.get("task", "obb")
    if task not in ARCHITECTURES:
        raise RebuildError(f"{onnx_path}: task {task!r}, expected one of {sorted(ARCHITECTURES)}")
    yaml = ARCHITECTURES[task]
    names = ast.literal_eval(meta.get("names", "{0: 'card_down', 1: 'card_up'}"))
    net = (OBBModel if task == "obb" else ClassificationModel)(yaml, nc=len(names),
                                                              verbose=False)
    net.names = names
    net.fuse(verbose=False)
    tensors = onnx_tensors(proto)
    state = net.state_dict()
    absent = [k for k, v in state.items() if v.is_floating_point() and k not in tensors]
    if absent:
        raise RebuildError(f"{onnx_path} lacks {len(absent)} tensors of {yaml} "
                           f"(e.g. {absent[:3]}): not a model of this architecture")
    for k, v in state.items():
        if k in tensors:
            value = torch.from_numpy(tensors[k].copy())
            if value.numel() != v.numel():
                raise RebuildError(f"{k} has shape {tuple(value.shape)} in {onnx_path}, "
                                   f"{tuple(v.shape)} in {yaml}")
            state[k] = value.reshape(v.shape)
    net.load_state_dict(state)
    net.eval()
    return net, proto


def _letterboxed(paths: list[Path], size: int) -> np.ndarray:
    """(N, 3, size, size) float RGB in [0, 1], letterboxed as the detector's input."""
    import cv2

    from vision.detect.obb import letterbox, to_blob

    blobs = []
    for path in paths:
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if img is None:
            raise RebuildError(f"{path}: not a readable image")
        blobs.append(to_blob(letterbox(img, size)[0]))
    return np.concatenate(blobs)


def unfold_batch_norms(fused: Any, images: np.ndarray, batch: int = 8) -> Any:
    """An unfused copy of the detector ``fused`` (yolo11n-obb) with batch norms whose
    statistics are those each convolution shows on ``images``; same output in evaluation."""
    import torch
    from ultralytics.nn.modules.conv import Conv
    from ultralytics.nn.tasks import OBBModel

    convs = {name: m.conv for name, m in fused.named_modules()
             if isinstance(m, Conv) and not hasattr(m, "bn")}
    sums: dict[str, list[torch.Tensor]] = {}

    def keep(name: str):
        def hook(module: Any, _inputs: Any, output: Any) -> None:
            y = (output - module.bias.view(1, -1, 1, 1)).double()
            n = y.shape[0] * y.shape[2] * y.shape[3]
            s1, s2 = y.sum(dim=(0, 2, 3)), (y * y).sum(dim=(0, 2, 3))
            if name in sums:
                sums[name][0] += s1
                sums[name][1] += s2
                sums[name][2] += n
            else:
                sums[name] = [s1, s2, n]
        return hook

    hooks = [conv.register_forward_hook(keep(name)) for name, conv in convs.items()]
    with torch.no_grad():
        for i in range(0, len(images), batch):
            fused(torch.from_numpy(images[i:i + batch]))
    for h in hooks:
        h.remove()

    net = OBBModel(fused.yaml, nc=len(fused.names), verbose=False)
    net.names = fused.names
    modules = dict(net.named_modules())
    state = net.state_dict()
    given = fused.state_dict()
    for key in state:
        if key in given and given[key].shape == state[key].shape:
            state[key] = given[key].clone()
    for name, conv in convs.items():
        s1, s2, n = sums[name]
        mean = s1 / n
        var = (s2 / n - mean * mean).clamp_min(1e-12)
        eps = modules[name].bn.eps
        state[f"{name}.conv.weight"] = conv.weight.detach().clone()
        state[f"{name}.bn.running_mean"] = mean.float()
        state[f"{name}.bn.running_var"] = var.float()
        state[f"{name}.bn.weight"] = (var + eps).sqrt().float()
        state[f"{name}.bn.bias"] = (mean + conv.bias.double()).float()
    norms = [k for k in state if k.endswith(".bn.weight")]
    if len(norms) != len(convs):
        raise RebuildError(f"{len(norms)} batch norms in the architecture, {len(convs)} folded "
                           "convolutions in the file: not the same network")
    net.load_state_dict(state)
    net.eval()
    return net


def _unfolding_error(folded: Any, net: Any, images: np.ndarray) -> tuple[float, float]:
    """How far the unfolded ``net`` is from ``folded`` on ``images``: the largest relative
    difference of the outputs in evaluation, and the mean relative difference of the
    backbone's output when the batch norms use the batch's statistics (as in training)."""
    import torch

    def backbone(model: Any, x: Any) -> Any:  # layers 0-10 of yolo11 run one after another
        for layer in model.model[:11]:
            x = layer(x)
        return x

    norms = [m for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    momentum = [m.momentum for m in norms]
    x = torch.from_numpy(images)
    with torch.no_grad():
        a, b = folded(x)[0], net(x)[0]
        f = backbone(folded, x)
        net.train()
        for m in norms:
            m.momentum = 0.0  # batch statistics used, running ones left as they are
        g = backbone(net, x)
        for m, value in zip(norms, momentum, strict=True):
            m.momentum = value
        net.eval()
    evaluation = float(((b - a).abs() / a.abs().clamp_min(1.0)).max())
    return evaluation, float((g - f).abs().mean() / f.abs().mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("onnx", type=Path, help="a shipped yolo11n-obb or yolo11n-cls ONNX file")
    parser.add_argument("out", type=Path, help="where to write the .pt checkpoint")
    parser.add_argument("--trainable", type=Path, default=None, metavar="IMAGES",
                        help="a folder of training images (searched recursively): put the "
                             "batch norms back, with statistics from 64 of them (detectors)")
    args = parser.parse_args(argv)
    if args.trainable is not None:
        found = sorted(args.trainable.rglob("*.jpg")) if args.trainable.is_dir() else []
        if not found:
            print(f"recover_weights: --trainable {args.trainable}: expected a folder with "
                  ".jpg training images", file=sys.stderr)
            return 2
    if not args.onnx.is_file():
        print(f"recover_weights: no such ONNX file: {args.onnx}", file=sys.stderr)
        return 2
    args.out.parent.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("YOLO_AUTOINSTALL", "0")
    os.environ.setdefault("YOLO_CONFIG_DIR", str(args.out.parent.resolve() / "cfg"))
    import onnxruntime as ort
    import torch

    try:
        net, proto = rebuild(args.onnx)
    except RebuildError as exc:
        print(f"recover_weights: {exc}", file=sys.stderr)
        return 2

    # the same network? compare with the ONNX file on one random input of its size
    session = ort.InferenceSession(str(args.onnx), providers=["CPUExecutionProvider"])
    inp = session.get_inputs()[0]
    h, w = (d if isinstance(d, int) else 640 for d in inp.shape[2:4])
    x = np.random.default_rng(0).random((1, 3, h, w), dtype=np.float32)
    want = session.run(None, {inp.name: x})[0]
    with torch.no_grad():
        got = net(torch.from_numpy(x))
    got = (got[0] if isinstance(got, (list, tuple)) else got).numpy()
    # relative: a detector's boxes are in input pixels (hundreds), the scores in [0, 1]
    diff = float((np.abs(got - want) / np.maximum(1.0, np.abs(want))).max())
    quantized = any(n.op_type == "DequantizeLinear" for n in proto.graph.node)
    meta = metadata(proto)
    print(f"[recover] largest relative difference from the ONNX output: {diff:.1e}"
          + (" (8-bit file: its activations are rounded, the rebuilt network's are not)"
             if quantized else ""))
    if diff > 1e-4 and not quantized:
        print("recover_weights: the rebuilt network does not reproduce the ONNX file",
              file=sys.stderr)
        return 1
    if args.trainable is not None:
        if meta.get("task", "obb") != "obb":
            print("recover_weights: --trainable is for detectors (task obb)", file=sys.stderr)
            return 2
        picks = [found[int(i)] for i in np.linspace(0, len(found) - 1, min(64, len(found)))]
        images = _letterboxed(picks, max(h, w))
        folded = net
        try:
            net = unfold_batch_norms(folded, images)
        except RebuildError as exc:
            print(f"recover_weights: {exc}", file=sys.stderr)
            return 2
        evaluation, training = _unfolding_error(folded, net, images[:8])
        print(f"[recover] batch norms put back from {len(picks)} images: largest relative "
              f"difference {evaluation:.1e} in evaluation; with batch statistics the "
              f"backbone's output differs by {100 * training:.1f} % on average")
        if evaluation > 1e-3:
            print("recover_weights: the unfolded network does not reproduce the file",
                  file=sys.stderr)
            return 1
    torch.save({"model": net, "train_args": {"task": meta.get("task", "obb"),
                                             "imgsz": max(h, w)},
                "date": meta.get("date"), "version": meta.get("version")}, args.out)
    print(f"[recover] wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

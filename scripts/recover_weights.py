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
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("onnx", type=Path, help="a shipped yolo11n-obb or yolo11n-cls ONNX file")
    parser.add_argument("out", type=Path, help="where to write the .pt checkpoint")
    args = parser.parse_args(argv)
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
    torch.save({"model": net, "train_args": {"task": meta.get("task", "obb"),
                                             "imgsz": max(h, w)},
                "date": meta.get("date"), "version": meta.get("version")}, args.out)
    print(f"[recover] wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

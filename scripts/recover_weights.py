"""Rebuild the ultralytics torch weights of a shipped detector from its ONNX file.

    /work/trainenv/bin/python scripts/recover_weights.py models/detector_video.onnx \
        /work/runs/recovered/detector_video.pt

Training runs live outside the repository and die with the machine they ran on; the ONNX
file under ``models/`` is what survives. Its initializers keep the names of the fused torch
model (``model.0.conv.weight``, ...: export folds each batch norm into its convolution), so
building ``yolo11n-obb.yaml`` with our classes, fusing it the same way and loading those
tensors gives back the exact network (the script checks that both give the same output). The
``.pt`` it writes can be exported again (``scripts/export.py --dynamic``) or fine-tuned (with
its batch norms folded: use a small learning rate).
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("onnx", type=Path, help="a shipped yolo11n-obb ONNX file")
    parser.add_argument("out", type=Path, help="where to write the .pt checkpoint")
    parser.add_argument("--yaml", default="yolo11n-obb.yaml",
                        help="the architecture it was built from")
    args = parser.parse_args(argv)
    if not args.onnx.is_file():
        print(f"recover_weights: no such ONNX file: {args.onnx}", file=sys.stderr)
        return 2
    args.out.parent.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("YOLO_AUTOINSTALL", "0")
    os.environ.setdefault("YOLO_CONFIG_DIR", str(args.out.parent.resolve() / "cfg"))
    import numpy as np
    import onnx
    import onnxruntime as ort
    import torch
    from onnx import numpy_helper
    from ultralytics.nn.tasks import OBBModel

    proto = onnx.load(str(args.onnx))
    tensors = {i.name: numpy_helper.to_array(i) for i in proto.graph.initializer}
    meta = {p.key: p.value for p in proto.metadata_props}
    names = ast.literal_eval(meta.get("names", "{0: 'card_down', 1: 'card_up'}"))
    net = OBBModel(args.yaml, nc=len(names), verbose=False)
    net.names = names
    net.fuse(verbose=False)
    state = net.state_dict()
    absent = [k for k, v in state.items() if v.is_floating_point() and k not in tensors]
    if absent:
        print(f"recover_weights: {args.onnx} lacks {len(absent)} tensors of {args.yaml} "
              f"(e.g. {absent[:3]}): not a model of this architecture", file=sys.stderr)
        return 2
    for k, v in state.items():
        if k in tensors:
            value = torch.from_numpy(tensors[k].copy())
            if value.shape != v.shape:
                print(f"recover_weights: {k} has shape {tuple(value.shape)} in the ONNX file, "
                      f"{tuple(v.shape)} in {args.yaml}", file=sys.stderr)
                return 2
            state[k] = value
    net.load_state_dict(state)
    net.eval()

    # the same network? compare with the ONNX file on one random input of its size
    inp = proto.graph.input[0].type.tensor_type.shape.dim
    h, w = (d.dim_value or 640 for d in inp[2:4])
    x = np.random.default_rng(0).random((1, 3, h, w), dtype=np.float32)
    want = ort.InferenceSession(str(args.onnx), providers=["CPUExecutionProvider"]).run(
        None, {proto.graph.input[0].name: x})[0]
    with torch.no_grad():
        got = net(torch.from_numpy(x))
    got = (got[0] if isinstance(got, (list, tuple)) else got).numpy()
    # relative: the boxes are in input pixels (hundreds), the scores in [0, 1]
    diff = float((np.abs(got - want) / np.maximum(1.0, np.abs(want))).max())
    print(f"[recover] largest relative difference from the ONNX output: {diff:.1e}")
    if diff > 1e-4:
        print("recover_weights: the rebuilt network does not reproduce the ONNX file",
              file=sys.stderr)
        return 1
    torch.save({"model": net, "train_args": {"task": "obb", "imgsz": max(h, w)},
                "date": meta.get("date"), "version": meta.get("version")}, args.out)
    print(f"[recover] wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

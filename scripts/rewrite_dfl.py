"""Rewrite an exported OBB detector's box decoding (DFL) to a form onnxruntime runs faster.

    .venv-train/bin/python scripts/rewrite_dfl.py models/detector_video.onnx

ultralytics exports the distribution focal loss decoding of each box side as Reshape
(b, 4, 16, A) -> Transpose (b, 16, 4, A) -> Softmax over axis 1 -> a 1x1 Conv whose weights
are 0..15 -> Reshape (b, 4, A). onnxruntime's Softmax over an inner axis is slow: on the fixed
camera's detector it took 2.8 of 28 ms a 640 x 384 frame on one thread (its profiler). The
same arithmetic with the bins last - Transpose (b, 4, A, 16), Softmax over the last axis,
MatMul with 0..15 - gives the same numbers (up to float rounding), and the Reshape after it
sees the same values in the same order. Nothing else in the graph changes, so the file's
outputs, its decoding in :mod:`vision.detect.obb` and its model card's figures stay valid.

Before writing, both graphs are run on the same inputs and their outputs compared. Writes the
model in place (or ``--out``) and its ``.sha256``. Needs the ``train`` extra (``onnx``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

#: The largest difference allowed between the outputs of the two graphs (boxes are in
#: input pixels, scores and angles in 0..1 and radians).
TOLERANCE = 1e-3


def rewrite(model):  # type: ignore[no-untyped-def]  # an onnx.ModelProto
    """Rewrite every DFL block of ``model`` in place; returns how many were rewritten."""
    from onnx import helper, numpy_helper

    graph = model.graph
    producer = {out: node for node in graph.node for out in node.output}
    inits = {i.name: i for i in graph.initializer}
    done = 0
    for conv in [n for n in graph.node if n.op_type == "Conv"]:
        soft = producer.get(conv.input[0])
        trans = producer.get(soft.input[0]) if soft is not None else None
        weight = inits.get(conv.input[1]) if len(conv.input) > 1 else None
        if soft is None or soft.op_type != "Softmax" or trans is None or \
                trans.op_type != "Transpose" or weight is None or len(conv.input) > 2:
            continue
        w = numpy_helper.to_array(weight)
        axis = helper.get_attribute_value(next(a for a in soft.attribute if a.name == "axis"))
        perm = list(helper.get_attribute_value(next(a for a in trans.attribute
                                                    if a.name == "perm")))
        if axis != 1 or perm != [0, 2, 1, 3] or w.shape[:2] != (1, w.size) or w.size < 2:
            continue
        # bins last: (b, 4, A, bins), softmax over them, weighted by the conv's weights
        _set_attribute(trans, "perm", [0, 1, 3, 2])
        _set_attribute(soft, "axis", 3)
        weights = conv.input[1] + "_bins_last"
        graph.initializer.append(numpy_helper.from_array(w.reshape(w.size, 1), weights))
        matmul = helper.make_node("MatMul", [conv.input[0], weights], list(conv.output),
                                  name=conv.name + "_bins_last")
        index = list(graph.node).index(conv)
        graph.node.remove(conv)
        graph.node.insert(index, matmul)
        if not any(weight.name in node.input for node in graph.node):
            graph.initializer.remove(weight)
        done += 1
    if done:
        # the recorded shapes of the tensors changed above (and of those after them) no longer
        # hold; they are hints only, and onnxruntime infers them again
        del graph.value_info[:]
    return done


def _set_attribute(node, name: str, value) -> None:  # type: ignore[no-untyped-def]
    """Give ``node`` (an onnx.NodeProto) the attribute ``name`` = ``value``, replacing it."""
    from onnx import helper

    for a in list(node.attribute):
        if a.name == name:
            node.attribute.remove(a)
    node.attribute.append(helper.make_attribute(name, value))


def largest_difference(before: Path, after: bytes, shapes: list[tuple[int, int]]) -> float:
    """The largest absolute difference of the two models' outputs on random and grey inputs
    of the given (height, width)."""
    import onnxruntime as ort

    a = ort.InferenceSession(str(before), providers=["CPUExecutionProvider"])
    b = ort.InferenceSession(after, providers=["CPUExecutionProvider"])
    name = a.get_inputs()[0].name
    rng = np.random.default_rng(0)
    worst = 0.0
    for h, w in shapes:
        for x in (rng.random((1, 3, h, w), dtype=np.float32),
                  np.full((1, 3, h, w), 114 / 255, np.float32)):
            for ya, yb in zip(a.run(None, {name: x}), b.run(None, {name: x}), strict=True):
                worst = max(worst, float(np.abs(ya - yb).max()))
    return worst


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", type=Path, help="an exported OBB detector (.onnx)")
    parser.add_argument("--out", type=Path, default=None, help="default: the model, in place")
    parser.add_argument("--shapes", default="384x640,640x640",
                        help="input sizes HxW to compare the graphs on (a fixed-size model: "
                             "its own size only)")
    args = parser.parse_args(argv)
    import onnx
    from export import write_checksum

    model = onnx.load(str(args.model))
    n = rewrite(model)
    if n == 0:
        print(f"rewrite_dfl: no DFL block of the exported form in {args.model}", file=sys.stderr)
        return 2
    onnx.checker.check_model(model)
    data = model.SerializeToString()
    shapes = [(int(h), int(w)) for h, w in (s.split("x") for s in args.shapes.split(","))]
    worst = largest_difference(args.model, data, shapes)
    print(f"{n} DFL block(s) rewritten; largest output difference {worst:.2e}")
    if worst > TOLERANCE:
        print(f"rewrite_dfl: the outputs differ by {worst:.2e} (> {TOLERANCE:g}); not written",
              file=sys.stderr)
        return 1
    out = args.out or args.model
    out.write_bytes(data)
    print(f"wrote {out} and {write_checksum(out)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""``scripts/rewrite_dfl.py`` turns the exported box decoding (softmax over an inner axis, then
a 1x1 convolution) into the bins-last form, with the same outputs. Needs the ``train`` extra
(``onnx``); skipped without it."""

from __future__ import annotations

import numpy as np
import pytest

from .script_module import load

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
script = load("rewrite_dfl")


def _dfl_graph(bins: int = 16):  # type: ignore[no-untyped-def]
    """(1, 4 * bins, A) distributions -> (1, 4, A) expected distances, as ultralytics exports
    it: Reshape, Transpose (0, 2, 1, 3), Softmax over axis 1, 1x1 Conv with weights 0..bins-1,
    Reshape."""
    from onnx import TensorProto, helper, numpy_helper

    a = 7
    inits = [
        numpy_helper.from_array(np.array([1, 4, bins, a], np.int64), "shape4"),
        numpy_helper.from_array(np.arange(bins, dtype=np.float32).reshape(1, bins, 1, 1), "w"),
        numpy_helper.from_array(np.array([1, 4, a], np.int64), "shape3"),
    ]
    nodes = [
        helper.make_node("Reshape", ["x", "shape4"], ["r"]),
        helper.make_node("Transpose", ["r"], ["t"], perm=[0, 2, 1, 3]),
        helper.make_node("Softmax", ["t"], ["s"], axis=1),
        helper.make_node("Conv", ["s", "w"], ["c"], kernel_shape=[1, 1]),
        helper.make_node("Reshape", ["c", "shape3"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes, "dfl", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4 * bins, a])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, a])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def _run(model, x):  # type: ignore[no-untyped-def]
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {"x": x})[0]


def test_the_rewritten_decoding_gives_the_same_distances_with_the_bins_last() -> None:
    model = _dfl_graph()
    x = np.random.default_rng(1).normal(0, 3, (1, 64, 7)).astype(np.float32)
    before = _run(model, x)
    assert script.rewrite(model) == 1
    ops = [n.op_type for n in model.graph.node]
    assert "Conv" not in ops and "MatMul" in ops
    soft = next(n for n in model.graph.node if n.op_type == "Softmax")
    assert onnx.helper.get_attribute_value(soft.attribute[0]) == 3
    np.testing.assert_allclose(_run(model, x), before, atol=1e-5)


def test_a_graph_without_that_decoding_is_left_alone() -> None:
    model = _dfl_graph()
    soft = next(n for n in model.graph.node if n.op_type == "Softmax")
    soft.attribute[0].i = 2  # softmax over another axis: not the exported decoding
    assert script.rewrite(model) == 0

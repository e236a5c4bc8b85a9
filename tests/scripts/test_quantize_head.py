"""Which nodes of the fixed camera's detector stay in floats when it is quantized: the head's
output convolutions and its decoding, not its inner convolutions (they cost a fifth of the
frame's time in floats)."""

from __future__ import annotations

from .script_module import load

quantize = load("quantize")

# node names as ultralytics exports a yolo11n-obb detector (a few of each kind)
NAMES = [
    "/model.0/conv/Conv",
    "/model.22/cv2/conv/Conv",
    "/model.23/Shape",
    "/model.23/cv2.0/cv2.0.0/conv/Conv",
    "/model.23/cv2.0/cv2.0.0/act/Sigmoid",
    "/model.23/cv2.0/cv2.0.1/conv/Conv",
    "/model.23/cv2.0/cv2.0.2/Conv",
    "/model.23/cv3.1/cv3.1.0/cv3.1.0.0/conv/Conv",
    "/model.23/cv3.1/cv3.1.1/cv3.1.1.1/act/Mul",
    "/model.23/cv3.1/cv3.1.2/Conv",
    "/model.23/cv4.2/cv4.2.1/conv/Conv",
    "/model.23/cv4.2/cv4.2.2/Conv",
    "/model.23/dfl/Softmax",
    "/model.23/dfl/conv/Conv",
    "/model.23/Sigmoid_1",
    "/model.23/Concat_31",
]


def test_inner_head_convolutions_are_quantized_outputs_and_decoding_are_not() -> None:
    kept = quantize.float_head_nodes(NAMES)
    assert kept == [
        "/model.23/Shape",
        "/model.23/cv2.0/cv2.0.2/Conv",
        "/model.23/cv3.1/cv3.1.2/Conv",
        "/model.23/cv4.2/cv4.2.2/Conv",
        "/model.23/dfl/Softmax",
        "/model.23/dfl/conv/Conv",
        "/model.23/Sigmoid_1",
        "/model.23/Concat_31",
    ]


def test_whole_head_keeps_every_head_node_and_nothing_else() -> None:
    kept = quantize.float_head_nodes(NAMES, whole=True)
    assert kept == [n for n in NAMES if n.startswith("/model.23/")]


def test_head_is_the_last_module_whatever_its_number() -> None:
    names = [n.replace("/model.23/", "/model.9/").replace("/model.22/", "/model.8/")
             for n in NAMES]
    assert "/model.9/dfl/Softmax" in quantize.float_head_nodes(names)
    assert all(n.startswith("/model.9/") for n in quantize.float_head_nodes(names))

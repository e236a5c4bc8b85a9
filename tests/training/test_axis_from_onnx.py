"""The shipped card-axis model made trainable again from its ONNX file (needs torch and onnx).

``scripts/train_axis.py --init models/card_axis.onnx`` fine-tunes the shipped second look on a
new detector's boxes after its training run is gone: the rebuilt network must answer as the
8-bit file does, in evaluation and (nearly) with batch statistics in training mode.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.slow
torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

REPO = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("train_axis", REPO / "scripts" / "train_axis.py")
train_axis = importlib.util.module_from_spec(spec)
spec.loader.exec_module(train_axis)


def _crops(n: int = 256) -> np.ndarray:
    """Candidate crops of rendered scenes, cut as the second look cuts them."""
    from vision.detect.axis import axis_crops
    from vision.detect.onnx_detector import CardDetector
    from vision.synth.scene import render_game_scene

    detector = CardDetector(conf=0.2, threads=1, axis=False)
    out = []
    for seed in (11, 12):
        scene = render_game_scene("bridge", "end", seed, image_size=(960, 540))
        raw, letterbox = detector.candidates(scene.image, 0.8)
        out.append(axis_crops(scene.image, letterbox.xywhr_to_image(raw.xywhr)))
    return np.concatenate(out)[:n]


def test_the_shipped_card_axis_model_comes_back_trainable():
    from vision.detect.axis import AxisClassifier

    crops = _crops()
    logits_onnx, _ = AxisClassifier(REPO / "models" / "card_axis.onnx", threads=1).run(crops)
    net = train_axis.net_from_onnx(REPO / "models" / "card_axis.onnx", 1.25, crops)
    x = torch.from_numpy(np.ascontiguousarray(crops[..., ::-1].transpose(0, 3, 1, 2))) / 255.0
    with torch.no_grad():
        net.eval()
        evaluated = net(x)[0].numpy()
        net.train()
        batch = net(x)[0].numpy()
    agree = (evaluated.argmax(1) == logits_onnx.argmax(1)).mean()
    assert agree >= 0.97, agree  # 8-bit activations are not part of the torch network
    assert (batch.argmax(1) == evaluated.argmax(1)).mean() >= 0.95
    with pytest.raises(SystemExit, match="--width"):
        train_axis.net_from_onnx(REPO / "models" / "card_axis.onnx", 1.0, crops)

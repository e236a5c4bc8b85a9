"""Putting batch norms back into a detector rebuilt from its ONNX file (needs the train extra).

``scripts/recover_weights.py --trainable`` is how a shipped detector is trained further after
its training run is gone: the result must compute what the folded network computes, and
ultralytics must take every one of its tensors when it starts a run from it.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.slow
torch = pytest.importorskip("torch")
pytest.importorskip("ultralytics")

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
spec = importlib.util.spec_from_file_location(
    "recover_weights", Path(__file__).resolve().parents[2] / "scripts" / "recover_weights.py")
recover_weights = importlib.util.module_from_spec(spec)
spec.loader.exec_module(recover_weights)


def _trained_like_detector() -> object:
    """A yolo11n-obb with batch norms that are not the identity (as after training)."""
    from ultralytics.nn.tasks import OBBModel

    torch.manual_seed(0)
    net = OBBModel("yolo11n-obb.yaml", nc=2, verbose=False)
    net.names = {0: "card_down", 1: "card_up"}
    for m in net.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            n = m.num_features
            m.running_mean.copy_(torch.randn(n) * 0.5)
            m.running_var.copy_(torch.rand(n) * 2 + 0.2)
            m.weight.data.copy_(torch.rand(n) + 0.5)
            m.bias.data.copy_(torch.randn(n) * 0.2)
    return net.eval()


def test_unfolded_detector_computes_what_the_folded_one_does():
    import copy

    original = _trained_like_detector()
    folded = copy.deepcopy(original).fuse(verbose=False)
    images = np.random.default_rng(1).random((4, 3, 128, 128), dtype=np.float32)
    net = recover_weights.unfold_batch_norms(folded, images, batch=2)
    x = torch.from_numpy(images)
    with torch.no_grad():
        want = original(x)[0]
        got = net(x)[0]
    assert net.training is False
    assert float(((got - want).abs() / want.abs().clamp_min(1.0)).max()) < 1e-3
    norms = [m for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    assert len(norms) == len([m for m in original.modules()
                              if isinstance(m, torch.nn.BatchNorm2d)])
    # every norm's statistics come from the images (not the untrained 0 / 1)
    assert all(float(m.running_var.std()) > 0 for m in norms)


def test_ultralytics_takes_every_tensor_of_the_unfolded_detector():
    from ultralytics.nn.tasks import OBBModel
    from ultralytics.utils.torch_utils import intersect_dicts

    folded = _trained_like_detector().fuse(verbose=False)
    images = np.random.default_rng(2).random((2, 3, 96, 96), dtype=np.float32)
    net = recover_weights.unfold_batch_norms(folded, images)
    fresh = OBBModel("yolo11n-obb.yaml", nc=2, verbose=False)
    taken = intersect_dicts(net.state_dict(), fresh.state_dict())
    assert len(taken) == len(fresh.state_dict())

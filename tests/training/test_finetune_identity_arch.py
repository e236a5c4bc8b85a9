"""``scripts/finetune_identity.py --arch``: a fresh network of another size trained from scratch
on the corner crops, the shipped model naming the classes and teaching (needs the train extra).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.slow
pytest.importorskip("torch")
pytest.importorskip("ultralytics")

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))
spec = importlib.util.spec_from_file_location("finetune_identity",
                                              REPO / "scripts" / "finetune_identity.py")
finetune = importlib.util.module_from_spec(spec)
spec.loader.exec_module(finetune)


def test_a_fresh_network_is_trained_and_exported_with_the_shipped_classes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import onnxruntime as ort

    out = tmp_path / "run"
    rc = finetune.main([str(REPO / "models" / "identity.onnx"), str(out), "--crops", "192",
                        "--epochs", "1", "--grey", "0", "--distil", "0.3", "--threads", "1",
                        "--arch", "yolo11n-cls.yaml", "--labels-in-crop", "--seed", "5"])
    assert rc == 0
    model = ort.InferenceSession(str(out / "identity.onnx"))
    shipped = ort.InferenceSession(str(REPO / "models" / "identity.onnx"))
    names = model.get_modelmeta().custom_metadata_map["names"]
    assert names == shipped.get_modelmeta().custom_metadata_map["names"]
    x = np.random.default_rng(0).random((2, 3, 64, 64), dtype=np.float32)
    probs = model.run(None, {model.get_inputs()[0].name: x})[0]
    assert probs.shape == (2, 53) and np.allclose(probs.sum(axis=1), 1.0, atol=1e-4)

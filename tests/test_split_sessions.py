"""Small classifiers run a batch as parts on two threads: each crop must get what one run
of the whole batch gives it, in the same order."""

from __future__ import annotations

import numpy as np
import pytest

from vision.models import SplitBatchSession, cpu_session, model_exists, model_path


@pytest.mark.parametrize("name", ["identity", "card_axis"])
def test_a_batch_run_in_parts_gives_each_crop_what_one_run_gives(name: str) -> None:
    if not model_exists(name):
        pytest.skip(f"{name} model not shipped")
    path = model_path(name)
    whole, split = cpu_session(path, 2), SplitBatchSession(path, 2)
    inp = whole.get_inputs()[0]
    size = inp.shape[2] if isinstance(inp.shape[2], int) else 64
    rng = np.random.default_rng(3)
    for n in (1, 2, 7, 40):
        x = rng.random((n, 3, size, size), dtype=np.float32)
        expected = whole.run(None, {inp.name: x})
        got = split.run(None, {inp.name: x})
        assert len(got) == len(expected)
        for a, b in zip(got, expected, strict=True):
            assert a.shape == b.shape
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def test_one_worker_runs_the_batch_whole() -> None:
    if not model_exists("card_axis"):
        pytest.skip("card_axis model not shipped")
    session = SplitBatchSession(model_path("card_axis"), workers=1)
    assert session.workers == 1
    inp = session.get_inputs()[0]
    x = np.zeros((5, 3, inp.shape[2], inp.shape[3]), np.float32)
    assert session.run(None, {inp.name: x})[0].shape[0] == 5

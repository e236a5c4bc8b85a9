"""The fixed camera loads its own shipped models where they are installed."""

from __future__ import annotations

import pytest

from vision.models import model_exists, model_path
from vision.video.pipeline import VIDEO_ROW_STRIP, PhotoAnalyzerAdapter


@pytest.mark.skipif(not (model_exists(VIDEO_ROW_STRIP) and model_exists("row_strip")),
                    reason="row-strip models not shipped")
def test_the_camera_counts_rows_again_with_its_own_strips_and_photos_with_theirs():
    from vision.pipeline import PhotoAnalyzer

    camera = PhotoAnalyzerAdapter("bridge")
    assert camera.inner.row_strips.path == model_path(VIDEO_ROW_STRIP)
    photo = PhotoAnalyzer(game="bridge", identity_reader=False)
    assert photo.row_strips.path == model_path("row_strip")
    # turned off by the caller, the camera counts nothing again
    assert PhotoAnalyzerAdapter("bridge", row_strips=False).inner.row_strips is None

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


@pytest.mark.skipif(not model_exists("identity"), reason="identity model not shipped")
def test_the_camera_loads_its_face_reader_before_the_stream(monkeypatch):
    """Loading the face reader inside the first face-up frame's analysis held that frame up
    (about 0.17 s): the camera loads it when it is made, so no frame pays for it."""
    from vision.identity.reader import IdentityReader

    camera = PhotoAnalyzerAdapter("bridge")

    def no_loading_now(self, *args, **kwargs) -> None:  # noqa: ANN001, ANN002, ANN003
        raise AssertionError("the face reader was loaded during the stream")

    monkeypatch.setattr(IdentityReader, "__init__", no_loading_now)
    assert isinstance(camera.inner.identity_reader, IdentityReader)

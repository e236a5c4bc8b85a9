"""Decoding and gating ahead on a second thread gives the sequential pipeline's events."""

from __future__ import annotations

import threading

import pytest

from vision.errors import TrickvisionError
from vision.video.gate import ChangeGate, Decision
from vision.video.pipeline import TruthAnalyzer, VideoPipeline
from vision.video.readahead import ReadAhead
from vision.video.sources import CorruptVideoError, Frame, VideoFileSource
from vision.video.tracker import TableTracker


def _pipeline(g):  # type: ignore[no-untyped-def]
    d = g.script.deal
    tracker = TableTracker(g.script.game, g.script.fps, dealer=d.dealer, contract=d.contract,
                           seats=d.seats)
    return VideoPipeline(TruthAnalyzer(g.truth, g.script.fps), tracker, gate=ChangeGate())


def test_read_ahead_gives_the_same_events_and_decisions(lhombre_game):  # type: ignore[no-untyped-def]
    g = lhombre_game
    plain = _pipeline(g)
    plain.run(VideoFileSource(g.video))
    ahead = _pipeline(g)
    seen: list[Frame] = []
    ahead.run(VideoFileSource(g.video), seen.append, read_ahead=True)
    assert [repr(e) for e in ahead.events] == [repr(e) for e in plain.events]
    assert len(plain.events) > 10  # the four tricks, their cards, the alerts
    assert (ahead.stats.analysed, ahead.stats.same, ahead.stats.moving) == \
        (plain.stats.analysed, plain.stats.same, plain.stats.moving)
    # only the frames the analyser looked at keep their pixels in the queue
    assert [f.index for f in seen] == list(range(len(seen)))
    assert sum(f.image is not None for f in seen) == ahead.stats.analysed


def test_read_ahead_keeps_every_image_when_asked(lhombre_game):  # type: ignore[no-untyped-def]
    seen: list[Frame] = []
    _pipeline(lhombre_game).run(VideoFileSource(lhombre_game.video), seen.append,
                                read_ahead=True, keep_images=True)
    assert seen and all(f.image is not None for f in seen)


def test_a_source_error_comes_after_every_frame_read_before_it(lhombre_game):  # type: ignore[no-untyped-def]
    frames = lhombre_game.source_frames()

    def truncated():  # type: ignore[no-untyped-def]
        yield from frames[:20]
        raise CorruptVideoError("test.mp4 stopped decoding at frame 20", frames_read=20)

    pipeline = _pipeline(lhombre_game)
    with pytest.raises(CorruptVideoError, match="frame 20"):
        pipeline.run(truncated(), read_ahead=True)
    assert pipeline.stats.frames == 20
    assert pipeline.last_t == frames[19].t


def test_a_consumer_that_stops_early_stops_the_worker(lhombre_game):  # type: ignore[no-untyped-def]
    frames = lhombre_game.source_frames()
    before = threading.active_count()
    with ReadAhead(frames, ChangeGate(), depth=2) as ahead:
        for n, (_, decision, gate_s) in enumerate(ahead):
            assert isinstance(decision, Decision) and gate_s >= 0
            if n == 3:
                break
    assert threading.active_count() == before
    with pytest.raises(ValueError, match="depth"):
        ReadAhead(frames, ChangeGate(), depth=0)


def test_one_decoder_thread_decodes_the_same_frames(lhombre_game):  # type: ignore[no-untyped-def]
    default = list(VideoFileSource(lhombre_game.video, sample_fps=4))
    one = list(VideoFileSource(lhombre_game.video, sample_fps=4, decoder_threads=1))
    assert len(one) == len(default) > 0
    assert all((a.image == b.image).all() and a.t == b.t for a, b in zip(one, default, strict=True))
    with pytest.raises(TrickvisionError, match="decoder_threads"):
        VideoFileSource(lhombre_game.video, decoder_threads=0)

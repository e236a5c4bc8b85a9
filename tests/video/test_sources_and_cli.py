"""Sources behind one iterator, clear errors for bad input, and ``trickvision video``."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from vision.cli import main
from vision.errors import InputFileError
from vision.video.gate import ChangeGate, Decision
from vision.video.sources import (
    CorruptVideoError,
    FolderSource,
    SourceError,
    VideoFileSource,
    open_source,
)


def test_file_source_times_sampling_and_loop(lhombre_game):  # type: ignore[no-untyped-def]
    g = lhombre_game
    src = VideoFileSource(g.video)
    assert src.fps == pytest.approx(8.0) and src.frame_count == len(g.frames)
    frames = list(src)
    assert len(frames) == len(g.frames)
    assert frames[10].t == pytest.approx(10 / 8.0) and frames[10].image.shape == (270, 480, 3)
    half = list(VideoFileSource(g.video, sample_fps=4.0))
    assert abs(len(half) - len(g.frames) / 2) <= 2
    looped = []
    for f in open_source(str(g.video), loop=True, start_s=src.duration - 1.0):
        looped.append(f)
        if len(looped) >= 20:
            break
    ts = [f.t for f in looped]
    assert ts == sorted(ts) and ts[-1] > src.duration  # time runs on across the loop
    assert looped[-1].pos < 2.0


def test_folder_of_stills(tmp_path):  # type: ignore[no-untyped-def]
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"f{i:03d}.png"), np.full((40, 60, 3), i * 40, np.uint8))
    (tmp_path / "notes.txt").write_text("not a frame")
    src = open_source(str(tmp_path), folder_fps=2.0)
    assert isinstance(src, FolderSource)
    assert [f.t for f in src] == [0.0, 0.5, 1.0]
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputFileError, match="no images"):
        FolderSource(tmp_path / "empty")


@pytest.mark.parametrize("content,message", [
    (b"", "empty"),
    (b"\x00garbage" * 500, "cannot open"),
])
def test_unreadable_video_exits_2(tmp_path, capsys, content, message):  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.mp4"
    bad.write_bytes(content)
    assert main(["video", str(bad), "--out", str(tmp_path / "o"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and "bad.mp4" in err
    assert main(["video", str(tmp_path / "missing.mp4"), "--quiet"]) == 2
    assert "not found" in capsys.readouterr().err


def _truncated_avi(g, path):  # type: ignore[no-untyped-def]
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), g.script.fps, (480, 270))
    for f in g.frames:
        w.write(f.image)
    w.release()
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * 0.6)])


def test_truncated_video_keeps_earlier_events_and_exits_2(lhombre_game, tmp_path, capsys):  # type: ignore[no-untyped-def]
    g = lhombre_game
    avi = tmp_path / "cut.avi"
    _truncated_avi(g, avi)
    with pytest.raises(CorruptVideoError, match="stopped decoding"):
        for _ in VideoFileSource(avi):
            pass
    out = tmp_path / "o"
    rc = main(["video", str(avi), "--out", str(out), "--quiet", "--analyzer", "truth",
               "--truth", str(g.truth_json)])
    assert rc == 2
    err = capsys.readouterr().err
    assert "stopped decoding" in err and "kept" in err
    lines = (out / "events.jsonl").read_text().splitlines()
    assert len(lines) >= 6  # the first tricks, found before the damage
    assert (out / "report.json").exists()


def test_video_command_reproduces_the_rendered_play(lhombre_game, tmp_path, capsys):  # type: ignore[no-untyped-def]
    g = lhombre_game
    out = tmp_path / "out"
    rc = main(["video", str(g.video), "--out", str(out), "--analyzer", "truth",
               "--truth", str(g.truth_json)])
    captured = capsys.readouterr()
    assert rc == 0, captured.err
    assert "ETA" in captured.err  # the progress bar
    assert "ALERT revoke" in captured.out and "ALERT wrong_orientation" in captured.out
    summary = json.loads((out / "summary.json").read_text())
    assert summary["score"]["tricks_right"] == 4 and summary["score"]["invented"] == []
    assert summary["analysed"] < summary["frames"] / 3
    events = [json.loads(x) for x in (out / "events.jsonl").read_text().splitlines()]
    assert len(events) == summary["events"]
    report = json.loads((out / "report.json").read_text())
    assert [t["winner"] for t in report["tricks"]] == [t.winner.name for t in
                                                       g.script.deal.tricks[:4]]
    assert any(i["kind"] == "wrong_orientation" for i in report["issues"])


def test_thorough_video_reading_looks_as_often_as_the_live_camera(lhombre_game, tmp_path):  # type: ignore[no-untyped-def]
    """``--thorough`` reads a recording with the live camera's looks and confirmation: more
    of the frames analysed, the same play."""
    g = lhombre_game
    analysed = {}
    for extra in ([], ["--thorough"]):
        out = tmp_path / ("thorough" if extra else "default")
        assert main(["video", str(g.video), "--out", str(out), "--analyzer", "truth",
                     "--truth", str(g.truth_json), "--quiet", *extra]) == 0
        summary = json.loads((out / "summary.json").read_text())
        assert summary["score"]["tricks_right"] == 4 and summary["score"]["missed"] == []
        analysed[bool(extra)] = summary["analysed"]
    assert analysed[True] > 1.5 * analysed[False]


def test_annotated_video_has_every_frame_with_its_cards_drawn(lhombre_game, tmp_path):  # type: ignore[no-untyped-def]
    g = lhombre_game
    out = tmp_path / "out"
    assert main(["video", str(g.video), "--out", str(out), "--analyzer", "truth", "--truth",
                 str(g.truth_json), "--annotate", "--quiet"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    cap = cv2.VideoCapture(str(out / "annotated.mp4"))
    frames = []
    while True:
        ok, image = cap.read()
        if not ok:
            break
        frames.append(image)
    cap.release()
    # every frame the pipeline saw, not only the analysed ones (the read-ahead keeps them all)
    assert len(frames) == summary["frames"] > summary["analysed"]
    original = [f for f in VideoFileSource(g.video, sample_fps=15.0)]
    assert frames[-1].shape == original[-1].image.shape
    # outlines drawn over the cards: the annotated frames differ from the video's own
    assert float(np.abs(frames[-1].astype(int) - original[-1].image).mean()) > 1.0


def test_unknown_options_are_clear_errors(lhombre_game, tmp_path, capsys):  # type: ignore[no-untyped-def]
    g = lhombre_game
    assert main(["video", str(g.video), "--contract", "4X", "--quiet",
                 "--out", str(tmp_path / "o")]) == 2
    assert "invalid contract" in capsys.readouterr().err
    assert main(["video", str(g.video), "--game", "poker", "--quiet"]) == 2
    assert "unknown game" in capsys.readouterr().err
    binary = tmp_path / "frames.jsonl.gz"  # a binary file given as the truth file
    binary.write_bytes(b"\x1f\x8b\x08\x00\xb3garbage")
    assert main(["video", str(g.video), "--truth", str(binary), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "is not JSON text" in err and "Traceback" not in err
    with pytest.raises(InputFileError, match="not found"):
        open_source(str(tmp_path / "x.mp4"))
    with pytest.raises(InputFileError, match="folder"):
        VideoFileSource(tmp_path)
    with pytest.raises(SourceError, match="camera 7"):
        open_source(7)


@pytest.mark.parametrize("fast_shrink", [False, True])
def test_gate_still_table_costs_almost_nothing(fast_shrink):  # type: ignore[no-untyped-def]
    gate = ChangeGate(settle_s=0.2, keepalive_s=2.0, max_blind_s=0.5, fast_shrink=fast_shrink)
    rng = np.random.default_rng(0)
    base = np.full((360, 640, 3), 90, np.uint8)
    decisions = []
    for i in range(50):  # 5 s of a still table with sensor noise at 10 fps
        noisy = np.clip(base + rng.normal(0, 3, base.shape), 0, 255).astype(np.uint8)
        decisions.append(gate.check(noisy, i / 10))
    assert decisions[0] is Decision.ANALYSE
    # first frame, its re-check 0.3 s later, then a keep-alive every 2 s
    assert [i for i, d in enumerate(decisions) if d is Decision.ANALYSE] == [0, 3, 23, 43]
    assert decisions.count(Decision.MOVING) == 0
    # a card is laid: motion, then settled -> analysed, and checked once more
    moved = base.copy()
    t = 5.0
    out = []
    for k in range(3):
        img = base.copy()
        cv2.rectangle(img, (100 + 40 * k, 100), (160 + 40 * k, 190), (255, 255, 255), -1)
        out.append(gate.check(img, t))
        t += 0.1
    cv2.rectangle(moved, (180, 100), (240, 190), (255, 255, 255), -1)
    for _ in range(8):
        out.append(gate.check(moved, t))
        t += 0.1
    assert out[:3] == [Decision.MOVING] * 3
    assert out[3:].count(Decision.ANALYSE) == 2 and out[-1] is Decision.SAME


@pytest.mark.parametrize("fps,first_look", [(8.0, 1), (30.0, 4)])
def test_stillness_counts_from_the_last_frame_that_moved(fps, first_look):  # type: ignore[no-untyped-def]
    """A card is laid (two frames of motion), then lies still: `watch` looks at the first
    still frame of an 8 fps camera - the 0.125 s since the last frame that moved is
    stillness enough - and at the fourth of a 30 fps one, as it did before stillness was
    counted from the last moving frame (which left an 8 fps camera waiting a frame more)."""
    from vision.video.gate import LIVE

    gate = ChangeGate(**LIVE)
    base = np.full((360, 640, 3), 90, np.uint8)
    t = 0.0
    for _ in range(int(3 * fps)):  # a still table, looked at and checked again
        gate.check(base, t)
        t += 1 / fps
    laid = []
    for x in (100, 180):  # the card moves in, then stays
        img = base.copy()
        cv2.rectangle(img, (x, 100), (x + 60, 190), (255, 255, 255), -1)
        laid.append(img)
    assert gate.check(laid[0], t) is Decision.MOVING
    assert gate.check(laid[1], t + 1 / fps) is Decision.MOVING
    still = [gate.check(laid[1], t + k / fps) for k in range(2, 8)]
    assert still.index(Decision.ANALYSE) + 1 == first_look


@pytest.mark.parametrize("fourcc,ext", [("mp4v", ".mp4"), ("MJPG", ".avi"), ("FFV1", ".mkv")])
def test_containers_read_the_same_way(tmp_path, fourcc, ext):  # type: ignore[no-untyped-def]
    path = tmp_path / f"clip{ext}"
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*fourcc), 5.0, (64, 48))
    for i in range(12):
        w.write(np.full((48, 64, 3), 20 * i, np.uint8))
    w.release()
    frames = list(open_source(str(path)))
    assert len(frames) == 12 and frames[-1].t == pytest.approx(11 / 5.0)
    assert frames[0].image.shape == (48, 64, 3)


def test_gate_settings_follow_the_mode_unless_given():
    """`watch` looks sooner after motion than `video` (0.12 s against 0.13 s of stillness
    from the last frame that moved: at 8 fps the first still frame against the second);
    --settle, when given, applies to either."""
    import argparse

    from vision.video.gate import LIVE, OFFLINE
    from vision.video.options import add_deal_arguments, make_gate

    p = argparse.ArgumentParser()
    add_deal_arguments(p)
    default = p.parse_args([])
    assert make_gate(default, "live").settle_s == LIVE["settle_s"] == 0.12
    assert make_gate(default, "offline").settle_s == OFFLINE["settle_s"] == 0.13
    given = p.parse_args(["--settle", "0.5"])
    assert make_gate(given, "live").settle_s == make_gate(given, "offline").settle_s == 0.5

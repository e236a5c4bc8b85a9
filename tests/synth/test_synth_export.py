"""OBB and crop exports, and the ``trickvision synth`` command."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.cli import main
from vision.errors import TrickvisionError
from vision.synth.export import export_crops, export_obb_dataset, scene_seed
from vision.synth.video import FRAME_SIZES, export_video_obb_dataset


def test_obb_export_writes_normalised_labels(tmp_path: Path) -> None:
    yaml = export_obb_dataset(tmp_path / "obb", 3, 2, seed=5, imgsz=320)
    text = yaml.read_text()
    assert "train: images/train" in text and "val: images/val" in text
    assert "0: card_down" in text and "1: card_up" in text
    for split, n in (("train", 3), ("val", 2)):
        images = sorted((tmp_path / "obb" / "images" / split).glob("*.jpg"))
        labels = sorted((tmp_path / "obb" / "labels" / split).glob("*.txt"))
        assert len(images) == len(labels) == n
        for img_path, lab in zip(images, labels, strict=True):
            img = cv2.imread(str(img_path))
            assert max(img.shape[:2]) == 320
            rows = [line.split() for line in lab.read_text().splitlines()]
            assert rows, lab
            for r in rows:
                assert len(r) == 9 and r[0] in ("0", "1")
                v = np.array(r[1:], float)
                assert ((v >= 0) & (v <= 1)).all()
                q = v.reshape(4, 2) * [img.shape[1], img.shape[0]]
                assert cv2.contourArea(q.astype(np.float32)) > 50


def test_video_frames_export_labels_every_visible_card(tmp_path: Path) -> None:
    yaml = export_video_obb_dataset(tmp_path / "vid", 2, 3, 1, seed=4)
    assert "train: images/train" in yaml.read_text()
    counts = {"0": 0, "1": 0}
    for split, n in (("train", 6), ("val", 3)):
        images = sorted((tmp_path / "vid" / "images" / split).glob("*.jpg"))
        labels = sorted((tmp_path / "vid" / "labels" / split).glob("*.txt"))
        assert [p.stem for p in images] == [p.stem for p in labels] and len(images) == n
        for img_path, lab in zip(images, labels, strict=True):
            img = cv2.imread(str(img_path))
            assert (img.shape[1], img.shape[0]) in FRAME_SIZES
            for r in (line.split() for line in lab.read_text().splitlines()):
                counts[r[0]] += 1
                v = np.array(r[1:], float)
                assert len(v) == 8 and ((v >= 0) & (v <= 1)).all()
                q = v.reshape(4, 2) * [img.shape[1], img.shape[0]]
                assert cv2.contourArea(q.astype(np.float32)) > 100
    assert counts["0"] > 0 and counts["1"] > 0  # rows face down, tricks face up


def test_video_frames_export_rejects_bad_counts(tmp_path: Path) -> None:
    with pytest.raises(TrickvisionError, match="frames per video"):
        export_video_obb_dataset(tmp_path / "vid", 1, 0, 0, seed=4)


def test_train_and_val_never_share_a_seed() -> None:
    train = {scene_seed(s, i, "train") for s in range(3) for i in range(500)}
    val = {scene_seed(s, i, "val") for s in range(3) for i in range(500)}
    assert not train & val and len(train) == len(val) == 1500


def test_obb_export_is_deterministic(tmp_path: Path) -> None:
    export_obb_dataset(tmp_path / "a", 2, 0, seed=9, imgsz=256)
    export_obb_dataset(tmp_path / "b", 2, 0, seed=9, imgsz=256)
    for name in ("train_000000", "train_000001"):
        a = (tmp_path / "a" / "labels" / "train" / f"{name}.txt").read_text()
        b = (tmp_path / "b" / "labels" / "train" / f"{name}.txt").read_text()
        assert a == b


def test_crops_are_upright_card_images(tmp_path: Path) -> None:
    index = export_crops(tmp_path / "crops", 2, 0, seed=3, imgsz=320)
    lines = index.read_text().splitlines()
    assert lines[0] == "split,path,card,visible_fraction,game,seed"
    assert len(lines) > 10
    split, path, card, frac, _, _ = lines[1].split(",")
    img = cv2.imread(str(tmp_path / "crops" / path))
    assert img.shape == (140, 100, 3)
    assert Path(path).parent.name == card and 0 <= float(frac) <= 1


def test_cli_writes_scenes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "s"
    assert main(["synth", "--game", "lhombre", "--stage", "end", "--n", "2", "--seed", "7",
                 "--size", "320", "--out", str(out)]) == 0
    assert len(list(out.glob("*.jpg"))) == 2 and len(list(out.glob("*.json"))) == 2
    assert "2/2" in capsys.readouterr().err  # the progress bar


@pytest.mark.parametrize("args,message", [
    (["--game", "poker"], "unknown game"),
    (["--stage", "beginning"], "unknown stage"),
    (["--overlap", "150"], "--overlap"),
    (["--overlap", "30", "150"], "--overlap"),
    (["--n", "-1"], "--n"),
    (["--format", "video-obb", "--frames", "0"], "--frames"),
])
def test_cli_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], args,
                               message) -> None:
    assert main(["synth", "--out", str(tmp_path / "o"), *args]) == 2
    assert message in capsys.readouterr().err


def test_cli_output_folder_that_is_a_file(tmp_path: Path, capsys) -> None:
    f = tmp_path / "file.txt"
    f.write_text("x")
    assert main(["synth", "--out", str(f), "--n", "1"]) == 2
    assert "is a file" in capsys.readouterr().err


def test_cli_obb_and_crops_formats(tmp_path: Path) -> None:
    assert main(["synth", "--format", "obb", "--n", "1", "--n-val", "1", "--size", "256",
                 "--seed", "2", "--quiet", "--out", str(tmp_path / "obb")]) == 0
    assert (tmp_path / "obb" / "data.yaml").is_file()
    assert len(list((tmp_path / "obb" / "labels" / "val").glob("*.txt"))) == 1
    assert main(["synth", "--format", "crops", "--game", "bridge", "--n", "1", "--n-val", "0",
                 "--size", "320", "--quiet", "--out", str(tmp_path / "crops")]) == 0
    assert "bridge" in (tmp_path / "crops" / "index.csv").read_text()


def test_steep_and_turned_cameras_are_drawn_only_where_asked() -> None:
    from vision.synth.export import _scene_for

    plain = [_scene_for(s, 640, ("bridge",), ("end",), None, 0.0, 0.0) for s in range(6)]
    same = [_scene_for(s, 640, ("bridge",), ("end",), None, 0.0, 0.0, steep_fraction=0.0,
                       turned_fraction=0.0) for s in range(6)]
    assert all((a.image == b.image).all() for a, b in zip(plain, same, strict=True))
    steep = [_scene_for(s, 640, ("bridge",), ("end",), None, 0.0, 0.0, steep_fraction=1.0,
                        turned_fraction=1.0) for s in range(6)]
    for a, b in zip(plain, steep, strict=True):
        assert 20.0 <= b.style.camera.tilt_deg <= 45.0
        assert a.style.camera.roll_deg != b.style.camera.roll_deg
        assert abs(b.style.camera.roll_deg - a.style.camera.roll_deg) <= 45.0

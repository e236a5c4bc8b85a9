"""The text report says which face-up row cards were left unread and why, as the JSON does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vision.cli import main
from vision.commands.analyze import unread_faces
from vision.models import model_exists

SAMPLES = Path(__file__).resolve().parents[2] / "datasets" / "samples"


def test_each_unread_face_is_listed_in_row_order_with_its_reason() -> None:
    data = {"rows": {
        "N": [{"card": "S2"}, {"card": None, "unreadable_reason": "card too small: 14 px wide"}],
        "E": [{"card": None}],  # face down: no face to read
        "S": [{"card": None, "unreadable_reason": "unsure: best guess D8 at 0.62"}],
    }}
    assert unread_faces(data) == [
        "faces not read (2):",
        "  N card 2: card too small: 14 px wide",
        "  S card 1: unsure: best guess D8 at 0.62",
    ]
    assert unread_faces({"rows": {"N": [{"card": "S2"}]}}) == []


@pytest.mark.skipif(not model_exists("identity"), reason="identity model not shipped")
def test_the_text_report_lists_the_faces_the_json_report_leaves_unread(capsys):  # type: ignore[no-untyped-def]
    photo = str(SAMPLES / "bridge_faceup_3.jpg")
    main(["analyze", photo, "--game", "bridge", "--format", "json"])
    rows = json.loads(capsys.readouterr().out)["rows"]
    reasons = [e["unreadable_reason"] for es in rows.values() for e in es
               if e.get("unreadable_reason")]
    assert reasons, "the sample was chosen for its unread faces"
    main(["analyze", photo, "--game", "bridge", "--format", "text"])
    text = capsys.readouterr().out
    assert f"faces not read ({len(reasons)}):" in text
    assert all(reason in text for reason in reasons)

"""Rows, seats, order and orientation from hand-made card rectangles."""

from __future__ import annotations

import numpy as np
import pytest

from vision.record import Orientation
from vision.seats import Seat
from vision.table.geometry import Calibration, TableFrame
from vision.table.rows import (
    RowReader,
    RowSettings,
    measure,
    overlap_depth,
    principal_axis,
    which_on_top,
)

from .conftest import BRIDGE, CENTRE, LONG, TOWARD, card_quad, draw, make_row, make_table

LETTER = {Orientation.WON: "W", Orientation.LOST: "L", Orientation.UNKNOWN: "?"}


def rows_as_text(reading) -> dict[Seat, str]:
    return {s: "".join(LETTER[c.orientation] for c in row) for s, row in reading.rows.items()}


def check_against_truth(reading, truth) -> None:
    for card, (seat, pos, ch) in zip(reading.cards, truth, strict=True):
        assert card.seat is seat
        assert card.row_position == pos
        assert LETTER[card.orientation] == ch


def test_bridge_table_read_exactly(bridge_table):
    quads, truth = bridge_table
    reading = RowReader().read(quads, np.zeros(len(quads), bool), np.full(len(quads), 0.9))
    assert rows_as_text(reading) == BRIDGE
    check_against_truth(reading, truth)
    assert all(c.orientation_confidence > 0.9 for c in reading.cards)
    assert reading.notes == []


def test_input_order_does_not_matter(bridge_table):
    quads, truth = bridge_table
    perm = np.random.default_rng(3).permutation(len(quads))
    reading = RowReader().read(quads[perm], np.zeros(len(quads), bool), np.ones(len(quads)))
    assert rows_as_text(reading) == BRIDGE


def test_corner_order_of_a_quad_does_not_matter(bridge_table):
    quads, _ = bridge_table
    rolled = np.roll(quads, 1, axis=1)  # TR BR BL TL: first edge is now a long one
    reading = RowReader().read(rolled, np.zeros(len(quads), bool), np.ones(len(quads)))
    assert rows_as_text(reading) == BRIDGE


@pytest.mark.parametrize("south", ["left", "right", "top"])
def test_turned_camera_with_south_option(bridge_table, south):
    quads, truth = bridge_table
    # turn the whole picture so that South sits at ``south``
    c = CENTRE
    turn = {"left": np.array([[0, -1], [1, 0]]), "right": np.array([[0, 1], [-1, 0]]),
            "top": np.array([[-1, 0], [0, -1]])}[south]
    turned = (quads - c) @ turn.T + c
    frame = TableFrame(south=south)
    reading = RowReader(frame).read(turned, np.zeros(len(quads), bool), np.ones(len(quads)))
    assert rows_as_text(reading) == BRIDGE
    check_against_truth(reading, truth)


@pytest.mark.parametrize("south", [45, 135, 200, "315", "-30", 30.5])
def test_camera_turned_any_angle_with_south_in_degrees(bridge_table, south):
    # a phone photo taken from a corner of the table: South at ``south`` degrees clockwise
    # from the bottom of the picture
    quads, truth = bridge_table
    a = np.radians(float(south))
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])  # bottom -> South
    turned = (quads - CENTRE) @ turn.T + CENTRE
    reading = RowReader(TableFrame(south=south)).read(
        turned, np.zeros(len(quads), bool), np.ones(len(quads)))
    assert rows_as_text(reading) == BRIDGE
    check_against_truth(reading, truth)
    off = min(float(south) % 360, -float(south) % 360)
    if off >= 45:  # read with South at the bottom, cards go to the wrong players
        wrong = RowReader(TableFrame(south="bottom")).read(
            turned, np.zeros(len(quads), bool), np.ones(len(quads)))
        assert any(c.seat is not seat or c.row_position != pos
                   for c, (seat, pos, _) in zip(wrong.cards, truth, strict=True))


def test_each_rows_way_across_the_picture_follows_the_table():
    # South at the bottom: South's row runs left to right, West's down the picture (his left
    # is the top), North's right to left, East's up
    frame = TableFrame()
    at = np.array([320.0, 240.0])
    expected = {Seat.S: [1.0, 0.0], Seat.W: [0.0, 1.0], Seat.N: [-1.0, 0.0], Seat.E: [0.0, -1.0]}
    for seat, way in expected.items():
        assert np.allclose(frame.along_in_image(seat, at), way)
    for seat in Seat:
        way = frame.along_in_image(seat, at)
        assert np.linalg.norm(way) == pytest.approx(1.0)
        assert abs(way @ TOWARD[seat]) < 1e-9  # along the row: square to the player
    # South on the left of the picture: his row runs up and down it
    left = TableFrame(south="left").along_in_image(Seat.S, at)
    assert abs(left[0]) < 1e-9 and abs(left[1]) == pytest.approx(1.0)


def test_south_names_are_quarter_turns_and_bad_values_say_what_is_expected():
    from vision.errors import TrickvisionError
    from vision.table.geometry import south_angle

    for name, degrees in (("bottom", 0), ("left", 90), ("top", 180), ("right", 270)):
        assert np.array_equal(TableFrame(south=name).matrix, TableFrame(south=degrees).matrix)
        assert south_angle(name) == degrees
    assert south_angle("-90") == 270.0 and south_angle(405) == 45.0
    for bad in ("sideways", "nan", "inf", ""):
        with pytest.raises(TrickvisionError, match="angle in degrees"):
            TableFrame(south=bad)


def _tilt() -> np.ndarray:
    """A homography of a camera tilted ~20 degrees (far side shrinks, cards foreshortened)."""
    return np.array([[1.0, 0.05, -20.0], [0.0, 0.95, 30.0], [0.0, 0.00012, 1.0]])


def _project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    flat = pts.reshape(-1, 2)
    homog = np.column_stack([flat, np.ones(len(flat))]) @ h.T
    return (homog[:, :2] / homog[:, 2:]).reshape(pts.shape)


def test_tilted_camera_without_calibration(bridge_table):
    quads, truth = bridge_table
    tilted = _project(_tilt(), quads)
    reading = RowReader().read(tilted, np.zeros(len(quads), bool), np.ones(len(quads)))
    assert rows_as_text(reading) == BRIDGE


def test_tilted_camera_with_calibration_restores_the_table(bridge_table):
    quads, truth = bridge_table
    h = _tilt()
    tilted = _project(h, quads)
    table_corners = np.array([[300, 0], [1620, 0], [1620, 1080], [300, 1080]], float)
    calib = Calibration.from_corners(_project(h, table_corners), aspect=1320 / 1080)
    frame = TableFrame(calibration=calib)
    back = frame.to_table(tilted)
    geo = measure(back)
    # rectified cards are rectangles of the true aspect again
    assert np.allclose(geo.aspect, 88 / 60, rtol=0.02)
    reading = RowReader(frame).read(tilted, np.zeros(len(quads), bool), np.ones(len(quads)))
    check_against_truth(reading, truth)


def test_calibration_round_trip(tmp_path):
    calib = Calibration.from_corners(np.array([[10, 10], [500, 20], [520, 400], [0, 390]]))
    calib.save(tmp_path / "c.json")
    again = Calibration.load(tmp_path / "c.json")
    np.testing.assert_allclose(again.homography, calib.homography)
    (tmp_path / "bad.json").write_text('{"homography": [[1, 0], [0, 1]]}')
    from vision.errors import TrickvisionError

    with pytest.raises(TrickvisionError, match="3x3"):
        Calibration.load(tmp_path / "bad.json")


def test_card_at_45_degrees_is_unknown():
    quads, _ = make_table({Seat.S: "WLWLW", Seat.N: "LWLWL", Seat.E: "WWLLW", Seat.W: "LLWWL"})
    # replace S's third card by one lying diagonally
    c = quads[2].mean(axis=0)
    quads[2] = card_quad(c, np.array([1.0, 1.0]))
    reading = RowReader().read(quads, np.zeros(len(quads), bool), np.ones(len(quads)))
    card = reading.rows[Seat.S][2]
    assert card.orientation is Orientation.UNKNOWN
    assert card.orientation_confidence < 0.5
    assert reading.rows[Seat.S][1].orientation is Orientation.LOST


def test_square_box_is_unknown_and_weak_detection_is_unknown():
    quads, _ = make_table({Seat.S: "WLWLW", Seat.N: "LWLWL", Seat.E: "WWLLW", Seat.W: "LLWWL"})
    c = quads[0].mean(axis=0)
    quads[0] = np.array([c + [-35, -35], c + [35, -35], c + [35, 35], c + [-35, 35]])
    conf = np.ones(len(quads))
    conf[6] = 0.1  # N's second card barely detected
    reading = RowReader().read(quads, np.zeros(len(quads), bool), conf)
    assert reading.rows[Seat.S][0].orientation is Orientation.UNKNOWN
    assert reading.cards[6].orientation is Orientation.UNKNOWN


def test_three_handed_table_and_current_trick():
    quads, truth = make_table({Seat.W: "WLLW", Seat.N: "LWLL", Seat.E: "LLWL"})
    # the trick in progress: face-up cards in front of W and N, nearer the centre
    trick_w = card_quad(CENTRE + [-200, 0], np.array([1.0, 0.0]))
    trick_n = card_quad(CENTRE + [0, -180], np.array([0.0, 1.0]))
    all_quads = np.concatenate([quads, [trick_w, trick_n]])
    face_up = np.array([False] * len(quads) + [True, True])
    reading = RowReader().read(all_quads, face_up, np.ones(len(all_quads)))
    assert rows_as_text(reading) == {Seat.W: "WLLW", Seat.N: "LWLL", Seat.E: "LLWL"}
    assert set(reading.current_trick) == {Seat.W, Seat.N}
    assert reading.current_trick[Seat.W].row_position is None


def test_a_card_laid_onto_the_near_edge_of_its_players_row_is_his_card_of_the_trick():
    # S lays his card just in front of his face-down row, over the near edge of its last
    # card: the overlap chains it into the row, yet it is his card of the trick in progress
    patterns = {Seat.N: "WLLWWL", Seat.E: "LWWLLW", Seat.S: "WLLWWL", Seat.W: "LWWLLW"}
    quads, truth = make_table(patterns)
    last_s = make_row(Seat.S, patterns[Seat.S])[-1]
    laid = card_quad(last_s.mean(axis=0) - [0.0, 60.0], np.array([0.0, 1.0]))
    all_quads = np.concatenate([quads, [laid]])
    face_up = np.array([False] * len(quads) + [True])
    reading = RowReader().read(all_quads, face_up, np.ones(len(all_quads)))
    assert rows_as_text(reading) == patterns
    assert set(reading.current_trick) == {Seat.S}
    assert reading.current_trick[Seat.S] is reading.cards[-1]
    assert reading.cards[-1].row_position is None


def test_a_side_row_of_a_three_handed_table_is_a_row_when_the_others_begin_far_left():
    """Preferans early in a deal, North, South and West playing: each row begins at its
    player's left, so South's lies left of the table's middle and North's right of it. Taken
    from South's row alone, the middle moved towards West, whose row then looked like a pile
    in the middle (held-out photos named it East's or left it out)."""
    def row(seat: Seat, pattern: str, start: float, distance: float) -> list[np.ndarray]:
        v = np.array(TOWARD[seat], float)
        u = np.array([v[1], -v[0]])  # the player's left -> right
        return [card_quad(CENTRE + v * distance + u * (start + 40.0 * k),
                          v if ch == "W" else u) for k, ch in enumerate(pattern)]

    patterns = {Seat.N: "LWLLW", Seat.S: "WLWLL", Seat.W: "LLWWL"}
    quads = np.array(row(Seat.N, patterns[Seat.N], -420, 300)
                     + row(Seat.S, patterns[Seat.S], -420, 300)
                     + row(Seat.W, patterns[Seat.W], -150, 200))
    reading = RowReader(players=3).read(quads, np.zeros(len(quads), bool), np.ones(len(quads)))
    assert rows_as_text(reading) == patterns


def test_a_row_bent_round_the_corner_of_a_three_handed_table_keeps_its_end():
    """Preferans: N's last two cards bend round the table's corner onto the empty W side,
    the second lying only on the first. They are the end of N's row, not a fourth player's
    stray cards (a held-out photo's N row lost its last card so)."""
    quads, _ = make_table({Seat.N: "LLWLLWLL", Seat.E: "LWLLWLLWLL", Seat.S: "WLLWLLWLLL"},
                          distance=300)
    last = quads[7].mean(axis=0)
    bent = [card_quad(last + np.array([-0.3 * LONG, 0.5 * LONG * (j + 1)]), np.array([0.0, 1.0]))
            for j in range(2)]
    quads = np.concatenate([quads[:8], np.array(bent), quads[8:]])
    reading = RowReader(players=3).read(quads, np.zeros(len(quads), bool),
                                        np.full(len(quads), 0.9), image_size=(1920, 1080))
    assert {s: len(r) for s, r in reading.rows.items()} == {Seat.N: 10, Seat.E: 10, Seat.S: 10}
    assert reading.rows[Seat.N][-2:] == [reading.cards[8], reading.cards[9]]
    assert not any("not a row" in n for n in reading.notes)


def test_face_up_rows_stay_rows():
    quads, truth = make_table({Seat.W: "WLLWL", Seat.S: "LWLLW", Seat.E: "LLWLW"})
    reading = RowReader().read(quads, np.ones(len(quads), bool), np.ones(len(quads)))
    check_against_truth(reading, truth)
    assert reading.current_trick == {}


def test_a_face_up_row_is_read_face_up_but_a_face_down_row_keeps_its_odd_card():
    """Rows are turned over whole: a card read face down among a face-up row is a face taken
    for a back (its identity is then read); a face-down row keeps a card read face up (in a
    video, the card being turned into it)."""
    quads, truth = make_table({Seat.W: "WLLWL", Seat.S: "LWLLW", Seat.E: "LLWLW"})
    face_up = np.array([True] * 5 + [True, False, True, True, True] + [False] * 5)
    face_up[12] = True
    reading = RowReader().read(quads, face_up, np.ones(len(quads)))
    check_against_truth(reading, truth)
    assert all(c.face_up for c in reading.rows[Seat.S])
    assert [c.face_up for c in reading.rows[Seat.E]] == [False, False, True, False, False]
    trusting = RowReader(settings=RowSettings(face_up_share=0))
    keep = trusting.read(quads, face_up, np.ones(len(quads)))
    assert [c.face_up for c in keep.rows[Seat.S]] == [True, False, True, True, True]


def test_a_face_down_row_whose_backs_were_boxed_as_faces_is_still_a_row():
    """Preferans, N, E and W playing, rows face down: most of W's boxes came out face up (plain
    backs in a grey picture look like faces to the detector). One thin line along the table's
    edge is a row, not an exposed hand: it is read as W's row (held-out hard photo 7001000055
    had it left out as "cards outside the rows" and W's tricks given to nobody)."""
    patterns = {Seat.N: "LLWLLWLLW", Seat.E: "LWLLWLLWL", Seat.W: "WLLWLLWLL"}
    quads, truth = make_table(patterns, distance=300)
    face_up = np.array([False] * 18 + [True, True, False, True, True, False, True, True, True])
    reading = RowReader(players=3).read(quads, face_up, np.full(len(quads), 0.9))
    assert rows_as_text(reading) == patterns
    assert not any("outside the rows" in n for n in reading.notes)


def test_an_exposed_hand_in_columns_among_face_down_rows_is_left_out():
    """Bridge in play: dummy's cards lie face up in suit columns in front of him, pointing at
    the table's middle, among face-down rows. They are no row (whatever their number or the
    turn of the line through them) and are left out as cards outside the rows."""
    quads, _ = make_table({Seat.N: "WLLW", Seat.E: "LWWL", Seat.S: "WLLW", Seat.W: "LWWL"},
                          distance=420)
    toward_n = np.array(TOWARD[Seat.N], float)
    dummy = [card_quad(CENTRE + toward_n * (300 - 0.3 * LONG * k) + [(j - 1.5) * 70.0, 0],
                       toward_n) for j in range(4) for k in range(3)]
    all_quads = np.concatenate([quads, np.array(dummy)])
    face_up = np.array([False] * len(quads) + [True] * len(dummy))
    reading = RowReader().read(all_quads, face_up, np.full(len(all_quads), 0.9))
    assert rows_as_text(reading) == {Seat.N: "WLLW", Seat.E: "LWWL", Seat.S: "WLLW",
                                     Seat.W: "LWWL"}
    assert any("12 card(s) lie outside the rows" in n for n in reading.notes)


def test_one_row_and_no_cards_are_noted():
    quads = np.array(make_row(Seat.S, "WLW"))
    reading = RowReader().read(quads, np.zeros(3, bool), np.ones(3), image_size=(1920, 1080))
    assert list(reading.rows) == [Seat.S]
    assert any("only one row" in n for n in reading.notes)
    empty = RowReader().read(np.zeros((0, 4, 2)), np.zeros(0, bool), np.zeros(0))
    assert empty.rows == {} and "no cards found" in empty.notes


def test_overlap_depth_separates_neighbours_from_strangers():
    row = np.array(make_row(Seat.S, "WWW", overlap=0.5))
    far = card_quad(np.array([100.0, 100.0]), np.array([0.0, 1.0]))
    depth = overlap_depth(np.concatenate([row, [far]]))
    assert depth[0, 1] == pytest.approx(30.0)  # half of the 60 px short side
    assert depth[0, 3] == 0 and depth[1, 3] == 0
    assert np.allclose(depth, depth.T)


def test_occlusion_tells_the_top_card():
    row = np.array(make_row(Seat.S, "WLW"))
    image = draw(row)  # drawn in order: each card on top of the previous
    top, clarity = which_on_top(image, row[:-1], row[1:])
    assert top.tolist() == [1, 1]
    assert (clarity > 0.25).all()


def test_row_laid_from_the_right_is_read_in_laying_order():
    """Clear borders show that every card lies under its right neighbour: reversed."""
    quads = np.array(make_row(Seat.S, "WLWWLLW"))
    others, _ = make_table({Seat.N: "LWLLW", Seat.E: "WLWWL", Seat.W: "LWLLW"})
    # draw South's row right-to-left: the right-most card is the first one laid
    image = draw(np.concatenate([others, quads[::-1]]))
    all_quads = np.concatenate([others, quads])
    reading = RowReader().read(all_quads, np.zeros(len(all_quads), bool),
                               np.ones(len(all_quads)), image=image)
    assert rows_as_text(reading)[Seat.S] == "WLLWWLW"
    assert any("row S" in n for n in reading.notes)


def test_principal_axis_matches_the_eigen_decomposition() -> None:
    rng = np.random.default_rng(5)
    for _ in range(50):
        pts = rng.normal(size=(rng.integers(3, 15), 2)) * rng.uniform(0.1, 5, 2)
        pts = pts @ np.linalg.qr(rng.normal(size=(2, 2)))[0] + rng.normal(size=2) * 100
        direction, major, minor = principal_axis(pts)
        d = pts - pts.mean(axis=0)
        evals, evecs = np.linalg.eigh(d.T @ d)
        assert np.isclose(major, evals[-1]) and np.isclose(minor, evals[0])
        assert np.isclose(abs(direction @ evecs[:, -1]), 1.0)


def test_a_box_straddling_two_row_cards_is_dropped_but_an_unsure_real_card_is_kept():
    from vision.table.rows import RowSettings

    row = make_row(Seat.S, "LLWLL")
    phantom = (row[0] + row[1]) / 2  # across the visible halves of cards 1 and 2
    quads = np.array(row[:1] + [phantom] + row[1:])
    sure = np.full(len(quads), 0.99)
    unsure_phantom = sure.copy()
    unsure_phantom[1] = 0.1
    n = len(quads)

    def lengths(q, certainty, settings):  # type: ignore[no-untyped-def]
        reading = RowReader(settings=settings).read(
            q, np.zeros(len(q), bool), np.full(len(q), 0.9), axis_certainty=certainty,
            image_size=(1920, 1080))
        return len(reading.rows[Seat.S]), "".join(LETTER[c.orientation]
                                                  for c in reading.rows[Seat.S])

    on = RowSettings(phantom_certainty=0.3)
    assert lengths(quads, unsure_phantom, RowSettings())[0] == n
    assert lengths(quads, unsure_phantom, on) == (5, "LLWLL")
    # a sure box there is believed (the reader never drops a card it is sure of)
    assert lengths(quads, sure, on)[0] == n
    # a real card the second look is unsure of leaves a two-step gap: kept
    real = np.array(row)
    unsure_real = np.full(5, 0.99)
    unsure_real[2] = 0.1
    assert lengths(real, unsure_real, on)[0] == 5


def test_early_in_a_deal_a_short_row_does_not_place_the_middle():
    """Rows start at the player's left: after two tricks, W's two cards lie north of the
    middle. Taken for the middle's height, they put N's lone card on E's side."""
    patterns = {Seat.N: "L", Seat.E: "W", Seat.S: "WL", Seat.W: "LW"}
    quads = []
    for seat, pattern in patterns.items():
        toward = np.array(TOWARD[seat], float)
        to_his_left = -np.array([toward[1], -toward[0]])
        quads += [q + 250.0 * to_his_left for q in make_row(seat, pattern)]
    quads = np.array(quads)
    reading = RowReader().read(quads, np.zeros(len(quads), bool), np.ones(len(quads)))
    assert rows_as_text(reading) == {Seat.N: "L", Seat.E: "W", Seat.S: "WL", Seat.W: "LW"}


@pytest.mark.parametrize("degrees", [0.0, 12.0, -25.0, 38.0])
def test_the_tables_turn_is_read_from_its_cards(bridge_table, degrees):
    from vision.table.geometry import table_turn

    quads, _ = bridge_table
    a = np.radians(degrees)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    found = table_turn((quads - CENTRE) @ turn.T + CENTRE)
    assert found is not None
    assert abs(found[0] - degrees) < 1.0 and found[1] > 0.95
    assert table_turn(quads[:2]) is None  # too few cards to say


def test_a_row_bent_onto_the_empty_side_does_not_push_a_short_row_off_the_table():
    """L'hombre, North, East and West playing (the detector's boxes of a hard rendered photo,
    seed 9001000032): North's row lies under a hand, two cards of it found; East's first
    three cards bend towards the empty South side. Every card there lies on East's row, so it
    is East's row's start, and North's two cards stay a row (South had been given East's
    start, and North left out as the fourth side's few cards)."""
    boxes = [
        [1283, 452, 1298, 575, 1215, 585, 1200, 463], [572, 569, 577, 437, 665, 441, 659, 573],
        [653, 596, 673, 729, 586, 742, 566, 610], [1295, 502, 1312, 624, 1226, 636, 1209, 514],
        [539, 329, 676, 344, 666, 430, 530, 415], [554, 556, 689, 562, 684, 649, 550, 642],
        [1203, 516, 1203, 398, 1284, 398, 1284, 516], [539, 408, 671, 396, 679, 483, 547, 495],
        [567, 628, 575, 498, 664, 503, 656, 633], [1242, 326, 1310, 435, 1238, 480, 1170, 370],
        [1197, 262, 1258, 372, 1187, 411, 1126, 302], [1157, 700, 1198, 573, 1282, 600, 1240, 727],
        [1176, 594, 1270, 680, 1213, 744, 1118, 657], [783, 263, 813, 139, 896, 159, 866, 283],
        [1293, 552, 1307, 661, 1229, 671, 1216, 561], [908, 111, 976, 244, 889, 289, 821, 155],
        [1192, 570, 1316, 597, 1298, 680, 1173, 653], [532, 371, 665, 355, 675, 444, 543, 460],
    ]
    quads = np.array(boxes, dtype=np.float64).reshape(-1, 4, 2)
    confidence = np.linspace(0.96, 0.61, len(quads))
    reading = RowReader(players=3).read(quads, np.zeros(len(quads), bool), confidence,
                                        image_size=(1920, 1080))
    assert {s: len(r) for s, r in reading.rows.items()} == {Seat.N: 2, Seat.E: 9, Seat.W: 7}
    assert not any("not a row" in n for n in reading.notes)

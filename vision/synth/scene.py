"""One synthetic photo of a game, with its ground truth (contract 3 of the project notes).

>>> scene = render_game_scene("bridge", "end", seed=7)      # doctest: +SKIP
>>> scene.image.shape, len(scene.truth["cards"])             # doctest: +SKIP
((480, 640, 3), 52)

The truth carries the observation and the reconstruction report of the simulated deal, so a
scene can be fed straight to ``trickvision reconstruct`` and compared.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.errors import InputFileError, TrickvisionError
from vision.games import find_game
from vision.seats import Seat
from vision.simulate import IRREGULARITIES, SimulatedDeal, simulate_deal
from vision.synth.layout import STAGES, CardPlacement, layout_rows
from vision.synth.render import render_scene
from vision.synth.style import StyleError, TableStyle, sample_table_style

SCHEMA = 1


@dataclass
class Scene:
    """A rendered scene: the image, its ground truth dict, and what produced them."""

    image: np.ndarray
    truth: dict[str, Any]
    deal: SimulatedDeal
    placements: list[CardPlacement]
    style: TableStyle
    game: str
    stage: str
    seed: int
    extras: dict[str, Any] = field(default_factory=dict)

    def save(self, directory: str | Path, stem: str, *, ext: str = ".jpg") -> Path:
        """Write ``<stem>.jpg`` (at the style's JPEG quality) and ``<stem>.json``."""
        return write_scene(self, directory, stem, ext=ext)


def _validate(game: str, stage: str) -> str:
    g = find_game(game)  # raises UnknownGameError with the list of games
    if stage not in STAGES:
        raise StyleError(f"unknown stage {stage!r} (expected one of {', '.join(STAGES)})")
    return g.name


def observation_dict(deal: SimulatedDeal, with_cards: bool) -> dict[str, Any]:
    """The deal's observation as contract-4 JSON (the core's serializer when present)."""
    obs = deal.observation(with_cards=with_cards)
    try:
        from vision.notation import json_format
    except ImportError:  # pragma: no cover - the core's serializer is part of the package
        json_format = None  # type: ignore[assignment]
    if json_format is not None:
        return json_format.observation_to_dict(obs)
    d: dict[str, Any] = {"schema": 1, "game": obs.game}
    if obs.dealer is not None:
        d["dealer"] = obs.dealer.name
    if obs.first_leader is not None:
        d["first_leader"] = obs.first_leader.name
    if obs.contract is not None:
        c = obs.contract
        d["contract"] = {"trump": c.trump.value if c.trump is not None else "NT",
                         "declarer": c.declarer.name if c.declarer is not None else None,
                         "kind": c.kind.value}
    d["rows"] = {s.name: [{"orientation": e.orientation.value,
                           "card": str(e.card) if e.card is not None else None}
                          for e in entries] for s, entries in obs.rows.items()}
    return d


def report_dict(deal: SimulatedDeal, with_cards: bool) -> dict[str, Any] | None:
    """The reconstruction report of the deal's observation (None until the core has it)."""
    try:
        from vision.notation.json_format import report_to_dict
        from vision.reconstruct import reconstruct
    except ImportError:
        return None
    return report_to_dict(reconstruct(deal.observation(with_cards=with_cards)))


def render_game_scene(
    game: str,
    stage: str,
    seed: int,
    *,
    style: TableStyle | None = None,
    image_size: tuple[int, int] | None = None,
    hard: bool = False,
    held_out_faces: bool = False,
    held_out: bool = False,
    overlap: tuple[float, float] | None = None,
    irregularities: Iterable[str] = (),
    n_tricks: int | None = None,
    dealer: Seat | None = None,
    seats: tuple[Seat, ...] | None = None,
    loose: Iterable[str] = (),
    with_report: bool = True,
    roll_deg: float = 0.0,
    tilt_deg: float | None = None,
) -> Scene:
    """Simulate a deal of ``game`` and photograph it at ``stage`` ("mid", "end", "faceup").

    Deterministic for a given ``seed`` and options. ``style`` fixes the look (else one is
    drawn; ``hard`` widens every range; ``held_out`` draws the deck only from designs never
    used for training, ``held_out_faces`` only the faces). ``irregularities`` (see
    :data:`vision.simulate.IRREGULARITIES`) are injected into the simulated play/rows.
    ``n_tricks`` sets how many tricks are complete in a "mid" scene (default: random).
    ``loose`` adds cards outside the rows: ``"talon"`` (a face-down pile of the undealt cards,
    no seat) and ``"dummy"`` (bridge "mid": dummy's hand face up in suit columns); their
    truth entries have ``row_position`` None and ``group`` "talon" / "dummy".
    ``roll_deg`` turns the camera that much more about its axis (clockwise as the picture is
    seen: South's row moves toward the bottom left), as a phone held askew does; ``tilt_deg``
    sets how far the camera looks away from straight down (the style's direction kept).
    """
    name = _validate(game, stage)
    irregularities = tuple(irregularities)
    for kind in irregularities:
        if kind not in IRREGULARITIES:
            raise TrickvisionError(
                f"unknown irregularity {kind!r} (expected one of {', '.join(IRREGULARITIES)})")
    ss = np.random.SeedSequence([int(seed), 0x7C4D])
    r_style, r_deal, r_layout, r_render = (np.random.default_rng(s) for s in ss.spawn(4))
    if style is None:
        style = sample_table_style(r_style, game=name, image_size=image_size, hard=hard,
                                   held_out_faces=held_out_faces, held_out=held_out,
                                   overlap=overlap)
    if roll_deg or tilt_deg is not None:
        cam = style.camera
        style = replace(style, camera=replace(
            cam, roll_deg=cam.roll_deg + roll_deg,
            tilt_deg=cam.tilt_deg if tilt_deg is None else float(tilt_deg)))
    g = find_game(name)
    if stage == "mid":
        if n_tricks is None:
            n_tricks = int(r_deal.integers(1, g.hand_size))
    elif n_tricks is None:
        n_tricks = g.hand_size
    deal = simulate_deal(name, seed=int(r_deal.integers(2**62)), dealer=dealer, seats=seats,
                         n_tricks=n_tricks, irregularities=irregularities)
    placements = layout_rows(deal, style, r_layout, stage, loose=loose)
    image, cards = render_scene(placements, style, r_render)
    with_cards = stage == "faceup"
    truth: dict[str, Any] = {
        "schema": SCHEMA,
        "image": None,
        "width": int(image.shape[1]),
        "height": int(image.shape[0]),
        "game": name,
        "stage": stage,
        "seed": int(seed),
        "style": style.describe(),
        "cards": cards,
        "dealer": deal.dealer.name,
        "seats": [s.name for s in deal.seats],
        "irregularities": list(deal.applied),
        "tricks": [{"number": t.number, "leader": t.leader.name, "winner": t.winner.name,
                    "plays": [[s.name, str(c)] for s, c in t.plays]} for t in deal.tricks],
        "current_trick": [[s.name, str(c)] for s, c in deal.current_trick],
        "observation": observation_dict(deal, with_cards),
        "report": report_dict(deal, with_cards) if with_report else None,
    }
    return Scene(image=image, truth=truth, deal=deal, placements=placements, style=style,
                 game=name, stage=stage, seed=int(seed))


def write_scene(scene: Scene, directory: str | Path, stem: str, *, ext: str = ".jpg") -> Path:
    """Write the image and ``<stem>.json``; returns the image path."""
    d = Path(directory)
    if d.exists() and not d.is_dir():
        raise InputFileError(f"output folder {str(d)!r} is a file (expected a folder)")
    d.mkdir(parents=True, exist_ok=True)
    path = d / f"{stem}{ext}"
    params = [cv2.IMWRITE_JPEG_QUALITY, int(scene.style.jpeg_quality)] if ext == ".jpg" else []
    if not cv2.imwrite(str(path), scene.image, params):
        raise InputFileError(f"could not write {str(path)!r}")
    truth = dict(scene.truth)
    truth["image"] = path.name
    (d / f"{stem}.json").write_text(json.dumps(truth, separators=(",", ":")) + "\n")
    return path

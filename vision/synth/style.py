"""How one synthetic table looks: everything that stays fixed while cards come and go.

A :class:`TableStyle` is drawn once per scene (or once per video) from a seeded generator and
holds every look parameter: table surface, card back, card size, face style, lighting,
shadows, glare, camera, blur, noise, JPEG quality, clutter and hands. Keeping the whole look in
one frozen object is what lets the video renderer draw many frames of the same table: the same
style gives the same camera, background and card images, and the drawn textures are cached on
the style itself (``style.cache``, excluded from equality).

The variety is the point: models trained on these scenes are judged on real photos and on
other renderers' decks, so every parameter is drawn from a wide range.
"""

from __future__ import annotations

import functools
import math
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np

from vision.errors import TrickvisionError

#: Physical card sizes (short, long) in millimetres.
CARD_SIZES_MM: dict[str, tuple[float, float]] = {"bridge": (57.0, 89.0), "poker": (63.0, 88.0)}

#: Image sizes (width, height) drawn for scenes when none is asked for.
IMAGE_SIZES: tuple[tuple[int, int], ...] = (
    (640, 480), (640, 640), (800, 600), (960, 720), (1024, 768), (1280, 720), (1280, 960),
    (1600, 900), (1920, 1080),
)

#: Maximum row length (tricks) per game; used to size the cards so a full row fits.
ROW_LENGTHS: dict[str, int] = {"bridge": 13, "preferans": 10, "lhombre": 9}

TABLE_KINDS: tuple[str, ...] = ("baize", "cloth", "wood", "pattern", "plain")
BACK_PATTERNS: tuple[str, ...] = (
    "solid", "lattice", "dots", "stripes", "checker", "rings", "waves", "diamonds",
)
#: Back designs never drawn for training: evaluation on them approximates an unseen deck.
HELD_OUT_BACK_PATTERNS: tuple[str, ...] = ("medallion", "scroll")


class StyleError(TrickvisionError):
    """A style parameter is outside what the renderer can draw (e.g. overlap 150 %)."""


@dataclass(frozen=True)
class BackStyle:
    """The design printed on the backs of the deck."""

    pattern: str = "solid"
    colour: tuple[int, int, int] = (40, 40, 160)  # BGR, the ground
    ink: tuple[int, int, int] = (230, 230, 230)  # BGR, the pattern
    border: float = 0.0  # white margin as a fraction of the card width (0 = full bleed)
    border_colour: tuple[int, int, int] = (245, 245, 245)
    frame: bool = False  # a thin line around the pattern area
    logo: bool = False  # a central oval with a letter
    period: float = 0.12  # pattern period as a fraction of the card width
    angle: float = 45.0  # pattern angle in degrees
    thickness: float = 0.3  # ink fraction of one period


@dataclass(frozen=True)
class CameraStyle:
    """Where the camera looks from: tilt (perspective), roll, lens distortion, framing."""

    tilt_deg: float = 0.0  # angle between the optical axis and the table normal
    tilt_dir_deg: float = 0.0  # direction of the tilt in the image plane
    roll_deg: float = 0.0  # in-plane rotation (South stays at the bottom: small)
    focal: float = 1.2  # focal length as a multiple of the image width
    k1: float = 0.0  # radial distortion (negative = barrel)
    margin: float = 0.04  # free border around the table region after framing, fraction of size


@dataclass(frozen=True)
class TableStyle:
    """The complete look of one table; see the module docstring."""

    seed: int = 0
    game: str = "bridge"
    image_size: tuple[int, int] = (640, 480)
    # table surface
    table_kind: str = "baize"
    table_colour: tuple[int, int, int] = (60, 110, 40)
    table_colour2: tuple[int, int, int] = (50, 90, 30)
    texture_strength: float = 0.3
    # cards
    back: BackStyle = field(default_factory=BackStyle)
    card_format: str = "bridge"
    corner_radius: float = 0.06  # fraction of the card width
    edge_shade: float = 0.25  # darkening of the card outline (0 = none)
    face: Any = None  # a vision.synth.faces.FaceStyle; None = placeholder faces
    card_long_px: float = 60.0  # card long side on the (pre-camera) canvas
    # layout
    table_centre: tuple[float, float] = (320.0, 240.0)
    row_distance: float = 180.0  # distance from the table centre to each row's centre line
    row_length: float = 300.0  # expected length of a full row (used to place its start)
    overlap: tuple[float, float] = (0.35, 0.65)  # range of the fraction each card covers
    row_curve: float = 0.05  # sag of a row as a fraction of its length
    row_jitter: float = 0.04  # per-card offset across the row, fraction of the card length
    angle_jitter: float = 3.0  # per-card rotation, degrees (standard deviation)
    row_angle: float = 2.0  # whole-row rotation, degrees (standard deviation)
    sloppy: float = 0.0  # chance that a card lies clearly off its row line, askew
    trick_distance: float = 0.55  # current trick: distance from centre, fraction of row_distance
    # light and photometry
    light_gradient: float = 0.2  # brightness change across the image
    light_angle: float = 0.0
    vignette: float = 0.15
    colour_gain: tuple[float, float, float] = (1.0, 1.0, 1.0)
    brightness: float = 1.0
    shadow: float = 0.35  # shadow darkness
    shade: float = 0.0  # soft low-frequency shadows over the scene (0 = none)
    card_sheen: float = 0.0  # per-card brightness spread (sheen, wear)
    shadow_offset: tuple[float, float] = (2.0, 3.0)  # px on the canvas
    glare: float = 0.0  # glare strength (0 = none)
    glare_pos: tuple[float, float] = (0.5, 0.5)  # fraction of the image
    glare_radius: float = 0.2  # fraction of the image diagonal
    camera: CameraStyle = field(default_factory=CameraStyle)
    blur: float = 0.0  # Gaussian sigma in px
    motion_blur: float = 0.0  # length in px (0 = none)
    noise: float = 0.0  # noise standard deviation (grey levels)
    jpeg_quality: int = 90
    grey: bool = False  # a monochrome camera
    table_edge: float = 0.0  # > 0: the table ends this many card lengths beyond the rows
    edge_sides: int = 0  # bit mask of the sides where the edge shows (N=1, E=2, S=4, W=8)
    floor_colour: tuple[int, int, int] = (40, 40, 45)
    rim_colour: tuple[int, int, int] = (30, 60, 100)
    clutter: int = 0  # number of objects lying on the table
    hands: int = 0  # number of hands/arms reaching over the table
    hard: bool = False
    cache: dict = field(default_factory=dict, compare=False, repr=False, hash=False)

    def __post_init__(self) -> None:
        lo, hi = self.overlap
        if not (0.0 <= lo <= hi < 1.0):
            raise StyleError(
                f"overlap must satisfy 0 <= low <= high < 1 (fractions of a card), "
                f"got {self.overlap!r}"
            )
        w, h = self.image_size
        if not (64 <= w <= 8192 and 64 <= h <= 8192):
            raise StyleError(f"image size must be 64..8192 px per side, got {self.image_size!r}")
        if self.card_format not in CARD_SIZES_MM:
            raise StyleError(f"card format must be one of {sorted(CARD_SIZES_MM)}, "
                             f"got {self.card_format!r}")

    @property
    def card_size(self) -> tuple[float, float]:
        """(short, long) side of a card in canvas pixels."""
        s_mm, l_mm = CARD_SIZES_MM[self.card_format]
        return (self.card_long_px * s_mm / l_mm, self.card_long_px)

    def with_(self, **changes: Any) -> TableStyle:
        """A copy with some parameters changed (and an empty texture cache)."""
        return replace(self, cache={}, **changes)

    def describe(self) -> dict[str, Any]:
        """JSON-ready summary for the ground truth file."""
        d = asdict(replace(self, face=None, cache={}))
        d.pop("cache", None)
        d["face"] = None if self.face is None else _face_summary(self.face)
        return _jsonable(d)


def _face_summary(face: Any) -> dict[str, Any]:
    keys = ("font", "jumbo", "four_colour", "corner_indices", "centre", "court", "held_out")
    return {k: getattr(face, k) for k in keys if hasattr(face, k)}


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (np.floating, float)):
        return round(float(value), 4)
    if isinstance(value, (np.integer,)):
        return int(value)
    return value


# --------------------------------------------------------------------------------------------
# Sampling
# --------------------------------------------------------------------------------------------

_CLOTH_COLOURS = (  # BGR
    (55, 110, 35), (40, 95, 30), (90, 120, 40), (110, 70, 25), (120, 90, 40), (40, 40, 120),
    (50, 50, 140), (60, 60, 60), (100, 100, 100), (150, 150, 150), (40, 80, 110), (70, 50, 90),
    (30, 30, 30), (170, 160, 140), (200, 200, 200), (60, 130, 150),
)
_WOOD_COLOURS = ((40, 80, 130), (30, 60, 100), (60, 110, 160), (25, 45, 75), (80, 130, 170))
_BACK_COLOURS = (
    (40, 40, 170), (150, 60, 20), (30, 100, 30), (20, 20, 20), (120, 40, 110), (20, 110, 190),
    (160, 120, 30), (60, 60, 200), (190, 130, 60), (40, 150, 120), (90, 30, 30), (200, 200, 200),
)


def _colour_jitter(rng: np.random.Generator, c: tuple[int, int, int], amount: float
                   ) -> tuple[int, int, int]:
    j = rng.normal(0, amount, 3)
    return tuple(int(np.clip(v + d, 0, 255)) for v, d in zip(c, j, strict=True))  # type: ignore[return-value]


def sample_back_style(rng: np.random.Generator, *, held_out: bool = False) -> BackStyle:
    """A random back design; ``held_out`` draws only :data:`HELD_OUT_BACK_PATTERNS`."""
    colour = _colour_jitter(rng, _BACK_COLOURS[int(rng.integers(len(_BACK_COLOURS)))], 18)
    if rng.random() < 0.6:
        ink = (int(rng.integers(200, 256)),) * 3
        ink = _colour_jitter(rng, ink, 6)  # type: ignore[arg-type]
    else:
        other = _BACK_COLOURS[int(rng.integers(len(_BACK_COLOURS)))]
        ink = _colour_jitter(rng, other, 25)
    patterns = HELD_OUT_BACK_PATTERNS if held_out else BACK_PATTERNS
    pattern = patterns[int(rng.integers(len(patterns)))]
    return BackStyle(
        pattern=pattern,
        colour=colour,
        ink=ink,
        border=float(rng.uniform(0.04, 0.1)) if rng.random() < 0.55 else 0.0,
        border_colour=_colour_jitter(rng, (245, 245, 245), 6),
        frame=bool(rng.random() < 0.4),
        logo=bool(rng.random() < 0.3),
        period=float(rng.uniform(0.05, 0.2)),
        angle=float(rng.choice([0.0, 45.0, 30.0, 60.0, 90.0, float(rng.uniform(0, 180))])),
        thickness=float(rng.uniform(0.15, 0.5)),
    )


#: Scenes draw their deck's face style from a fixed pool of this many styles (per
#: held-out flag), so drawn faces can be cached across scenes (drawing one costs ~3 ms).
FACE_POOL_SIZE = 48


@functools.lru_cache(maxsize=2)
def face_pool(held_out: bool = False) -> tuple[Any, ...]:
    """The pool of face styles (deterministic); empty when no face module is available."""
    try:
        from vision.synth import faces
    except ImportError:  # the face module is optional
        return ()
    return tuple(faces.sample_face_style(np.random.default_rng([i, 0xFACE, int(held_out)]),
                                         held_out=held_out) for i in range(FACE_POOL_SIZE))


def sample_table_style(
    rng: np.random.Generator,
    *,
    game: str = "bridge",
    image_size: tuple[int, int] | None = None,
    hard: bool = False,
    held_out_faces: bool = False,
    held_out: bool = False,
    overlap: tuple[float, float] | None = None,
) -> TableStyle:
    """Draw a random table look.

    ``held_out`` draws the deck (faces and back design) only from styles never used for
    training (``held_out_faces`` only the faces): evaluating on them approximates a real deck.
    ``hard`` widens every range (strong tilt, blur, noise, glare, hands over the rows).
    ``image_size`` fixes the output size; otherwise one of :data:`IMAGE_SIZES` is drawn.
    ``overlap`` fixes the range of the fraction of each card its successor covers.
    """
    seed = int(rng.integers(2**31))
    if image_size is None:
        image_size = IMAGE_SIZES[int(rng.integers(len(IMAGE_SIZES)))]
    w, h = int(image_size[0]), int(image_size[1])
    m = min(w, h)
    kind = TABLE_KINDS[int(rng.choice(5, p=[0.3, 0.25, 0.25, 0.15, 0.05]))]
    if kind == "wood":
        c1 = _colour_jitter(rng, _WOOD_COLOURS[int(rng.integers(len(_WOOD_COLOURS)))], 12)
    else:
        c1 = _colour_jitter(rng, _CLOTH_COLOURS[int(rng.integers(len(_CLOTH_COLOURS)))], 15)
    c2 = _colour_jitter(rng, c1, 25)
    card_format = "bridge" if rng.random() < 0.6 else "poker"
    if overlap is None:
        lo = float(rng.uniform(0.3, 0.5))
        overlap = (lo, float(rng.uniform(max(lo, 0.5), 0.7)))
    n_max = ROW_LENGTHS.get(game, 13)
    # Size the cards so a full row of mean overlap fits with rows not meeting in the corners.
    s_mm, l_mm = CARD_SIZES_MM[card_format]
    mean_extent = 0.5 * (1.0 + s_mm / l_mm)  # along the row, in card lengths
    ov = 0.5 * (overlap[0] + overlap[1])
    row_units = (n_max - 1) * (1.0 - ov) * mean_extent + mean_extent
    fill = float(rng.uniform(0.72, 0.95)) if not hard else float(rng.uniform(0.5, 0.95))
    half = 0.5 * m * fill
    card_long = half / (row_units / 2.0 + 1.25)
    row_distance = half - 0.62 * card_long
    cx = w / 2 + float(rng.normal(0, 0.02 * w))
    cy = h / 2 + float(rng.normal(0, 0.02 * h))
    pool = face_pool(held_out_faces or held_out)
    face = pool[int(rng.integers(len(pool)))] if pool else None
    tilt_max = 25.0 if hard else 15.0
    tilt = float(rng.uniform(0, tilt_max)) if rng.random() < 0.75 else 0.0
    camera = CameraStyle(
        tilt_deg=tilt,
        tilt_dir_deg=float(rng.uniform(0, 360)),
        roll_deg=float(rng.normal(0, 4.0 if hard else 2.0)),
        focal=float(rng.uniform(0.8, 1.6)),
        k1=float(rng.uniform(-0.12, 0.08)) if (hard or rng.random() < 0.4) else 0.0,
        margin=float(rng.uniform(0.02, 0.08)),
    )
    glare = float(rng.uniform(0.2, 0.6)) if rng.random() < (0.45 if hard else 0.2) else 0.0
    blur = float(rng.uniform(0.0, 2.2 if hard else 1.0))
    light_angle = float(rng.uniform(0, 2 * math.pi))
    return TableStyle(
        seed=seed,
        game=game,
        image_size=(w, h),
        table_kind=kind,
        table_colour=c1,
        table_colour2=c2,
        texture_strength=float(rng.uniform(0.1, 0.6)),
        back=sample_back_style(rng, held_out=held_out),
        card_format=card_format,
        corner_radius=float(rng.uniform(0.03, 0.1)),
        edge_shade=float(rng.uniform(0.05, 0.4)),
        face=face,
        card_long_px=card_long,
        table_centre=(cx, cy),
        row_distance=row_distance,
        row_length=row_units * card_long,
        overlap=overlap,
        row_curve=float(rng.uniform(0.0, 0.06 if not hard else 0.1)),
        row_jitter=float(rng.uniform(0.01, 0.05 if not hard else 0.08)),
        angle_jitter=float(rng.uniform(1.0, 4.0 if not hard else 7.0)),
        row_angle=float(rng.uniform(0.5, 3.0 if not hard else 5.0)),
        sloppy=float(rng.uniform(0.0, 0.04 if not hard else 0.12)),
        trick_distance=float(rng.uniform(0.4, 0.6)),
        light_gradient=float(rng.uniform(0.0, 0.45 if hard else 0.25)),
        light_angle=light_angle,
        vignette=float(rng.uniform(0.0, 0.35)),
        colour_gain=(float(rng.uniform(0.85, 1.15)), 1.0, float(rng.uniform(0.85, 1.15))),
        brightness=float(rng.uniform(0.65, 1.2) if hard else rng.uniform(0.8, 1.1)),
        shadow=float(rng.uniform(0.1, 0.5)),
        shade=float(rng.uniform(0.1, 0.45)) if rng.random() < 0.3 else 0.0,
        card_sheen=float(rng.uniform(0.0, 0.08)),
        shadow_offset=(float(rng.normal(0, 0.03)) * card_long, float(rng.normal(0, 0.03)) *
                       card_long),
        glare=glare,
        glare_pos=(float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 0.9))),
        glare_radius=float(rng.uniform(0.08, 0.3)),
        camera=camera,
        blur=blur,
        motion_blur=float(rng.uniform(2, 7)) if (hard and rng.random() < 0.25) else 0.0,
        noise=float(rng.uniform(0, 12 if hard else 5)),
        jpeg_quality=int(rng.integers(35 if hard else 60, 96)),
        grey=bool(rng.random() < 0.04),
        table_edge=float(rng.uniform(0.4, 2.5)) if rng.random() < 0.3 else 0.0,
        edge_sides=int(rng.integers(1, 16)),
        floor_colour=_colour_jitter(rng, (45, 45, 50), 25),
        rim_colour=_colour_jitter(rng, _WOOD_COLOURS[int(rng.integers(len(_WOOD_COLOURS)))],
                                  15),
        clutter=int(rng.integers(0, 5)),
        hands=int(rng.integers(1, 3)) if (hard and rng.random() < 0.5) else
        (1 if rng.random() < 0.08 else 0),
        hard=hard,
    )


def plain_table_style(
    *,
    game: str = "bridge",
    image_size: tuple[int, int] = (640, 480),
    table_colour: tuple[int, int, int] = (0, 160, 0),
    back_colour: tuple[int, int, int] = (200, 40, 40),
    camera: CameraStyle | None = None,
    overlap: tuple[float, float] = (0.4, 0.6),
    face: Any = None,
) -> TableStyle:
    """A clean, noise-free look: one flat table colour, one flat back colour, no effects.

    Tests use it to check the ground truth pixel by pixel; ``camera`` may add a tilt.
    """
    base = sample_table_style(np.random.default_rng(0), game=game, image_size=image_size,
                              overlap=overlap)
    return base.with_(
        table_kind="plain", table_colour=table_colour, table_colour2=table_colour,
        texture_strength=0.0,
        back=BackStyle(pattern="solid", colour=back_colour, ink=back_colour, border=0.0),
        edge_shade=0.0, face=face if face is not None else base.face,
        table_centre=(image_size[0] / 2, image_size[1] / 2),
        row_curve=0.0, row_jitter=0.0, angle_jitter=0.0, row_angle=0.0, sloppy=0.0,
        light_gradient=0.0, vignette=0.0, colour_gain=(1.0, 1.0, 1.0), brightness=1.0,
        shadow=0.0, shade=0.0, card_sheen=0.0, glare=0.0, camera=camera or CameraStyle(),
        blur=0.0, motion_blur=0.0,
        noise=0.0, jpeg_quality=95, grey=False, table_edge=0.0, clutter=0, hands=0,
        hard=False,
    )

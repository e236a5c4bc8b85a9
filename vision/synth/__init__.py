"""Synthetic card-table photos with exact ground truth: the training data for every model.

Layers (each reusable on its own, e.g. by the video renderer):

- :mod:`vision.synth.style` - :class:`TableStyle`, the whole look of one table
  (:func:`sample_table_style`, :func:`plain_table_style`);
- :mod:`vision.synth.layout` - :class:`CardPlacement` and :func:`layout_rows` (rows per seat,
  the current trick) following the project's image convention;
- :mod:`vision.synth.render` - :func:`render_scene`: table, cards, hands, camera, photometry,
  and the per-card ground truth (quads, visible polygons);
- :mod:`vision.synth.scene` - :func:`render_game_scene`: a simulated deal photographed at a
  stage, with the full ground truth JSON;
- :mod:`vision.synth.export` - OBB detection sets, identity crops, scene folders.
"""

from vision.synth.layout import (
    STAGES,
    CardPlacement,
    card_quad,
    layout_current_trick,
    layout_row,
    layout_rows,
)
from vision.synth.render import CameraModel, HandShape, camera_model, render_scene, sample_hands
from vision.synth.scene import Scene, render_game_scene, write_scene
from vision.synth.style import (
    BackStyle,
    CameraStyle,
    StyleError,
    TableStyle,
    plain_table_style,
    sample_table_style,
)

__all__ = [
    "STAGES", "BackStyle", "CameraModel", "CameraStyle", "CardPlacement", "HandShape", "Scene",
    "StyleError", "TableStyle", "camera_model", "card_quad", "layout_current_trick", "layout_row",
    "layout_rows", "plain_table_style",
    "render_game_scene", "render_scene", "sample_hands", "sample_table_style", "write_scene",
]

"""The outline of a card lying alone, traced from its colours against the cloth around it.

A detector box can sit 30 degrees off a card it found (a card just laid, a box drawn from a
blurred frame); its corner crops then show cloth and its whole-card crop half a card, and the
reader names nothing - or, from the whole view, something wrong. A card that no other card
touches stands out from the cloth around it, so its true rectangle can be traced in the
picture: the cloth's colour is taken from a ring around the box, every pixel near the box is
scored by its distance from that colour (Lab), Otsu's threshold separates card from cloth,
and the smallest rectangle around the piece covering most of the box is the card - kept only
when it has a card's proportions and about the box's size and place.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.identity.crops import card_size_px

#: The window searched: the box's circumscribed circle grown by this factor.
SEARCH_GROWTH = 1.6
#: The cloth's colour comes from outside the box grown by this factor.
CLOTH_RING = 1.35
#: A traced rectangle is a card when its long side is this many times its short side ...
ASPECT_RANGE = (1.2, 1.8)
#: ... its area this share of the box's ...
AREA_RANGE = (0.7, 1.4)
#: ... and its centre at most this many card widths from the box's.
MAX_SHIFT = 0.35


def trace_lone_card(image: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """The (4, 2) rectangle of the card a box ``quad`` (4, 2, image px) lies on, traced
    against the cloth around it, or None when no card-like piece is found there."""
    q = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    centre = q.mean(axis=0)
    width, height = card_size_px(q)
    if width < 4:
        return None
    radius = 0.5 * float(np.hypot(width, height)) * SEARCH_GROWTH
    h_img, w_img = image.shape[:2]
    x0, y0 = int(max(0, centre[0] - radius)), int(max(0, centre[1] - radius))
    x1, y1 = int(min(w_img, centre[0] + radius + 1)), int(min(h_img, centre[1] + radius + 1))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    window = image[y0:y1, x0:x1]
    if window.ndim == 2 or window.shape[2] == 1:
        colours = window.reshape(window.shape[0], window.shape[1], 1).astype(np.float32)
    else:
        colours = cv2.cvtColor(np.ascontiguousarray(window[:, :, :3]),
                               cv2.COLOR_BGR2LAB).astype(np.float32)
    grown = ((q - centre) * CLOTH_RING + centre - (x0, y0)).astype(np.int32)
    near = np.zeros(window.shape[:2], np.uint8)
    cv2.fillConvexPoly(near, grown, 1)
    ring = near == 0
    if ring.sum() < 20:
        return None
    cloth = np.median(colours[ring], axis=0)
    distance = np.linalg.norm(colours - cloth, axis=2)
    scaled = np.clip(distance * (255.0 / max(float(distance.max()), 1e-6)), 0, 255)
    _, mask = cv2.threshold(scaled.astype(np.uint8), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    kernel = np.ones((3, 3), np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    # the piece covering most of the box (not the one under its centre: a pip or a picture
    # in the card's middle may have the cloth's colour)
    count, labels = cv2.connectedComponents(mask)
    box = np.zeros(window.shape[:2], np.uint8)
    cv2.fillConvexPoly(box, (q - (x0, y0)).astype(np.int32), 1)
    overlap = np.bincount(labels[box > 0], minlength=count)
    overlap[0] = 0
    if overlap.max() < 0.3 * box.sum():
        return None
    piece = (labels == int(overlap.argmax())).astype(np.uint8)
    ys, xs = np.nonzero(piece)
    if (x0 == 0 and xs.min() == 0) or (y0 == 0 and ys.min() == 0) or \
            (x1 == w_img and xs.max() == x1 - x0 - 1) or (y1 == h_img and ys.max() == y1 - y0 - 1):
        return None  # cut by the picture's edge: its rectangle is not all there
    contours, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    (rx, ry), (rw, rh), angle = cv2.minAreaRect(max(contours, key=cv2.contourArea))
    if min(rw, rh) < 1:
        return None
    aspect = max(rw, rh) / min(rw, rh)
    area = rw * rh / (width * height)
    shift = float(np.hypot(rx + x0 - centre[0], ry + y0 - centre[1]))
    if not (ASPECT_RANGE[0] <= aspect <= ASPECT_RANGE[1] and AREA_RANGE[0] <= area <= AREA_RANGE[1]
            and shift <= MAX_SHIFT * width):
        return None
    return cv2.boxPoints(((rx + x0, ry + y0), (rw, rh), angle)).astype(np.float64)

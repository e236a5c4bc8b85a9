"""Render the committed sample scenes in datasets/samples/ (reproducible).

    .venv/bin/python scripts/render_samples.py [--out datasets/samples]

Writes a few dozen JPEG scenes across the three games and three stages, each with its
ground-truth JSON (contract 3), plus README.md listing them. Includes the README demo photo
``demo_bridge_end.jpg`` (a clean end-of-play bridge table) and, per game, one deal shown both
face down (``<game>_deal_end``) and turned face up in place (``<game>_deal_faceup``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from vision.synth import render_game_scene, sample_table_style
from vision.synth.style import CameraStyle

GAMES = ("bridge", "preferans", "lhombre")
STAGES = ("mid", "end", "faceup")
SIZES = ((640, 480), (800, 600), (960, 720), (1024, 768), (1280, 720))


def _entries() -> list[dict]:
    """Every sample: file stem and the render_game_scene arguments."""
    out: list[dict] = []
    out.append({"stem": "demo_bridge_end", "game": "bridge", "stage": "end", "seed": 2024,
                "clean": True, "image_size": (1280, 960)})
    for k, game in enumerate(GAMES):
        for stage in ("end", "faceup"):
            out.append({"stem": f"{game}_deal_{stage}", "game": game, "stage": stage,
                        "seed": 500 + k, "clean": True, "image_size": (1024, 768)})
    i = 0
    for game in GAMES:
        for stage in STAGES:
            for j in range(3):
                out.append({"stem": f"{game}_{stage}_{j + 1}", "game": game, "stage": stage,
                            "seed": 1000 + i, "hard": j == 2,
                            "image_size": SIZES[i % len(SIZES)]})
                i += 1
    irregular = [("bridge", "faceup", "revoke"), ("preferans", "faceup", "wrong_orientation"),
                 ("lhombre", "end", "short_row"), ("lhombre", "faceup", "out_of_place"),
                 ("bridge", "end", "wrong_orientation"), ("preferans", "end", "long_row")]
    for k, (game, stage, kind) in enumerate(irregular):
        out.append({"stem": f"{game}_{stage}_{kind}", "game": game, "stage": stage,
                    "seed": 2000 + k, "irregularities": (kind,), "image_size": (800, 600)})
    for k, (game, stage) in enumerate((("bridge", "mid"), ("lhombre", "end"),
                                       ("preferans", "mid"))):
        out.append({"stem": f"{game}_{stage}_loose", "game": game, "stage": stage,
                    "seed": 3000 + k, "loose": ("talon", "dummy"), "image_size": (800, 600)})
    return out


def render(entry: dict, out: Path) -> dict:
    import numpy as np

    kwargs = {"image_size": entry["image_size"], "hard": entry.get("hard", False),
              "irregularities": entry.get("irregularities", ()), "loose": entry.get("loose", ())}
    if entry.get("clean"):
        # a calm, well-lit look: no hands, mild tilt, no blur, high JPEG quality
        style = sample_table_style(np.random.default_rng([entry["seed"], 1]), game=entry["game"],
                                   image_size=entry["image_size"])
        style = style.with_(hands=0, blur=0.0, motion_blur=0.0, noise=1.5, glare=0.0,
                            jpeg_quality=90, light_gradient=min(style.light_gradient, 0.1),
                            brightness=1.0, table_kind="baize" if entry["game"] == "bridge"
                            else style.table_kind,
                            camera=CameraStyle(tilt_deg=6.0, tilt_dir_deg=80.0, roll_deg=1.0,
                                               focal=1.2, margin=0.05))
        kwargs["style"] = style
    else:
        kwargs["style"] = None
    scene = render_game_scene(entry["game"], entry["stage"], entry["seed"], **kwargs)
    if not entry.get("clean"):
        scene.style.cache.clear()
    if scene.style.jpeg_quality > 88:
        scene.style = scene.style.with_(jpeg_quality=88)
    path = scene.save(out, entry["stem"])
    t = scene.truth
    return {"file": path.name, "game": t["game"], "stage": t["stage"],
            "size": f"{t['width']}x{t['height']}", "seed": entry["seed"],
            "cards": len(t["cards"]),
            "notes": ", ".join(filter(None, [
                "clean" if entry.get("clean") else "",
                "hard look" if entry.get("hard") else "",
                "loose cards: " + ", ".join(sorted({c["group"] for c in t["cards"]} - {
                    "row", "trick"})) if entry.get("loose") else "",
                " ".join(f"{a['kind']} ({a['seat']} trick {a['trick']})"
                         for a in t["irregularities"])]))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="datasets/samples")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = [render(e, out) for e in _entries()]
    lines = [
        "# Sample scenes",
        "",
        "Synthetic table photos rendered by `vision.synth` (regenerate with",
        "`.venv/bin/python scripts/render_samples.py`). Each `<name>.jpg` has its ground truth in",
        "`<name>.json` (schema: contract 3 of the project notes - every card's full quad, visible",
        "polygon, seat, row position, orientation, face, identity; plus the observation and the",
        "true reconstruction report). `demo_bridge_end.jpg` is the README demo photo; the",
        "`<game>_deal_end` / `<game>_deal_faceup` pairs show one deal face down and turned face up",
        "in place; `*_loose` scenes add cards outside the rows (a talon pile, bridge dummy's",
        "hand), whose truth entries have `group` \"talon\"/\"dummy\" and no row position.",
        "Sub-folders (such as `video/`) hold other sample sets with their own README.",
        "",
        "| file | game | stage | size | seed | cards | notes |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {r['file']} | {r['game']} | {r['stage']} | {r['size']} | {r['seed']} | "
                     f"{r['cards']} | {r['notes']} |")
    (out / "README.md").write_text("\n".join(lines) + "\n")
    total = sum(p.stat().st_size for p in out.iterdir())
    print(f"wrote {len(rows)} scenes to {out} ({total / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()

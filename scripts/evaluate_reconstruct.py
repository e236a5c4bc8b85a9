"""How well reconstruction copes with each irregularity, on simulated deals.

    python scripts/evaluate_reconstruct.py            # 300 seeds per game and case
    python scripts/evaluate_reconstruct.py --n 50

For every game, irregularity (none, wrong_orientation, short_row, long_row, out_of_place,
revoke) and reading (with faces / orientations only) it simulates deals, reconstructs them and
counts: results equal to the truth, deals with undetermined tricks, and whether the
irregularity was reported at the right seat (and trick, where the report names one).

Two more cases are not the players' doing but the camera's, on a clean deal: ``seen_twice``
(three cards, in any rows, read twice - the detector's typical error) and ``twice_and_missed``
(two read twice, one not seen); "found" then means every row touched got its ``row_length``
issue.
"""

from __future__ import annotations

import argparse
import random
import time

from vision.reconstruct import IssueKind, reconstruct
from vision.record import Observation, RowEntry
from vision.seats import Seat
from vision.simulate import simulate_deal

CASES = ("none", "wrong_orientation", "short_row", "long_row", "out_of_place", "revoke")
CAMERA_CASES = {"seen_twice": (3, 0), "twice_and_missed": (2, 1)}
EXPECTED = {
    ("wrong_orientation", True): IssueKind.WRONG_ORIENTATION,
    ("wrong_orientation", False): IssueKind.ORIENTATION_CONFLICT,
    ("short_row", True): IssueKind.ROW_LENGTH, ("short_row", False): IssueKind.ROW_LENGTH,
    ("long_row", True): IssueKind.ROW_LENGTH, ("long_row", False): IssueKind.ROW_LENGTH,
    ("out_of_place", True): IssueKind.OUT_OF_PLACE,
    ("revoke", True): IssueKind.REVOKE,
}


def camera_errors(obs: Observation, seed: int, doubled: int, missed: int) -> set[Seat]:
    """Read ``doubled`` random cards twice and miss ``missed`` others, in place; returns
    the seats whose rows changed length."""
    rng = random.Random(seed)
    before = {s: len(row) for s, row in obs.rows.items()}
    for k in range(doubled + missed):
        seat = rng.choice(sorted(s for s, row in obs.rows.items() if len(row) > 1))
        row = obs.rows[seat]
        pos = rng.randrange(len(row))
        if k < doubled:
            row.insert(pos + 1, RowEntry(orientation=row[pos].orientation, confidence=0.3))
        else:
            del row[pos]
    return {s for s, row in obs.rows.items() if len(row) != before[s]}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=300, help="seeds per game and case (default 300)")
    args = p.parse_args(argv)
    print(f"{'game':<10}{'case':<19}{'faces':<7}{'deals':>6}{'result ok':>10}"
          f"{'undet.':>8}{'found':>7}{'at trick':>9}{'ms/deal':>8}")
    for game in ("bridge", "preferans", "lhombre"):
        for case in CASES:
            for faces in (True, False):
                if case in ("out_of_place", "revoke") and not faces:
                    continue  # only the faces can show these
                deals = ok = undetermined = found = placed = named = 0
                t0 = time.process_time()
                for seed in range(args.n):
                    d = simulate_deal(game, seed=seed,
                                      irregularities=() if case == "none" else (case,))
                    if case != "none" and not d.applied:
                        continue
                    deals += 1
                    r = reconstruct(d.observation(with_cards=faces))
                    ok += r.result == d.result()
                    undetermined += bool(r.undetermined)
                    kind = EXPECTED.get((case, faces))
                    if kind is None:
                        found += not r.issues
                        continue
                    a = d.applied[0]
                    hits = [i for i in r.issues_of(kind)
                            if i.seat in (None, Seat[a["seat"]])]
                    found += bool(hits)
                    with_trick = [i for i in hits if i.trick is not None]
                    named += bool(with_trick)
                    placed += any(i.trick == a["trick"] for i in with_trick)
                ms = 1000 * (time.process_time() - t0) / max(deals, 1)
                where = f"{placed}/{named}" if case != "none" else "-"
                print(f"{game:<10}{case:<19}{'yes' if faces else 'no':<7}{deals:>6}{ok:>10}"
                      f"{undetermined:>8}{found:>7}{where:>9}{ms:>8.1f}")
        for case, (doubled, missed) in CAMERA_CASES.items():
            for faces in (True, False):
                deals = ok = undetermined = found = 0
                t0 = time.process_time()
                for seed in range(args.n):
                    d = simulate_deal(game, seed=seed)
                    obs = d.observation(with_cards=faces)
                    touched = camera_errors(obs, seed, doubled, missed)
                    deals += 1
                    r = reconstruct(obs)
                    ok += r.result == d.result()
                    undetermined += bool(r.undetermined)
                    flagged = {i.seat for i in r.issues_of(IssueKind.ROW_LENGTH)}
                    found += touched <= flagged
                ms = 1000 * (time.process_time() - t0) / max(deals, 1)
                print(f"{game:<10}{case:<19}{'yes' if faces else 'no':<7}{deals:>6}{ok:>10}"
                      f"{undetermined:>8}{found:>7}{'-':>9}{ms:>8.1f}")
    print("\nresult ok: result equal to the truth; undet.: deals with undetermined tricks; "
          "found: the issue reported at the right seat (for 'none': no issue at all); "
          "at trick: right trick / issues that name a trick.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

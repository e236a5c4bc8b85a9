"""Time ``trickvision reconstruct`` on a JSON Lines file of simulated bridge observations.

    python scripts/benchmark_reconstruct.py            # 3,000 deals with faces
    python scripts/benchmark_reconstruct.py --n 500 --no-faces --no-contract

Generates the observations with ``vision.simulate.simulate_deal`` (seeds 0..n-1), writes them
to a temporary JSON Lines file, then runs the CLI path (``trickvision reconstruct FILE``) as a
subprocess, exactly as a user would, and prints the wall-clock time.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from vision.notation.json_format import observation_to_dict
from vision.simulate import simulate_deal


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=3000, help="number of deals (default 3000)")
    p.add_argument("--game", default="bridge")
    p.add_argument("--no-faces", action="store_true", help="orientations only")
    p.add_argument("--no-contract", action="store_true",
                   help="leave out contract, dealer and first leader (forces inference)")
    p.add_argument("--format", default="json", choices=("json", "text", "pbn"))
    args = p.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "observations.jsonl"
        t0 = time.perf_counter()
        with path.open("w", encoding="utf-8") as fh:
            for seed in range(args.n):
                deal = simulate_deal(args.game, seed=seed)
                obs = deal.observation(with_cards=not args.no_faces,
                                       with_contract=not args.no_contract,
                                       with_dealer=not args.no_contract,
                                       with_first_leader=not args.no_contract)
                fh.write(json.dumps(observation_to_dict(obs)) + "\n")
        t_gen = time.perf_counter() - t0
        out = Path(tmp) / "reports.out"
        cmd = [sys.executable, "-m", "vision", "reconstruct", str(path), "--format", args.format,
               "-o", str(out)]
        t0 = time.perf_counter()
        cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = subprocess.run(cmd, capture_output=True, text=True)
        cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t_cli = time.perf_counter() - t0
        t_cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
        if proc.returncode not in (0, 1):
            print(proc.stderr, file=sys.stderr)
            return proc.returncode
        lines = out.read_text(encoding="utf-8").count("\n")
    print(f"generated {args.n} {args.game} observations "
          f"({'orientations only' if args.no_faces else 'with faces'}"
          f"{', no contract' if args.no_contract else ''}) in {t_gen:.2f} s")
    print(f"trickvision reconstruct --format {args.format}: {t_cli:.2f} s wall "
          f"({t_cpu:.2f} s CPU; {1000 * t_cli / max(args.n, 1):.2f} ms per deal; "
          f"{lines} output lines; "
          f"exit {proc.returncode})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

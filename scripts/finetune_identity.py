"""Fine-tune the shipped identity classifier on generated corner crops, some turned grey.

    /work/trainenv/bin/python scripts/finetune_identity.py models/identity.onnx \
        /work/runs/identity-grey --crops 20000 --epochs 3 --grey 0.3 --seed 11
    /work/trainenv/bin/python scripts/quantize.py identity \
        /work/runs/identity-grey/identity.onnx --out models/identity.onnx

The classifier learnt suits partly by colour and never saw a grey photo: a monochrome camera
makes it read diamonds as clubs (``scripts/evaluate_identity.py --grey``). Its training runs
did not outlive their machine and only the 8-bit file is shipped, so this starts from that
file: ``scripts/recover_weights.py`` dequantizes its weights into ``yolo11n-cls`` with its
batch norms folded (the rebuilt network names the same class as the 8-bit one for 99.6 % of
generated crops) and trains them a little further - AdamW, cosine schedule, batch 64 - on
freshly generated crops (``vision.identity.synth.sample_crops``, training styles) of which
``--grey`` are turned grey.
With the batch norms folded a small learning rate is needed. Writes ``identity.pt`` and the
float ``identity.onnx`` to the output folder; ``scripts/quantize.py identity`` makes the
8-bit file that ships.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))  # recover_weights


def crops_for(names: dict[int, str], n: int, grey: float, seed: int):  # noqa: ANN201
    from vision.identity.crops import as_grey, to_tensor
    from vision.identity.synth import sample_crops

    index = {v: k for k, v in names.items()}
    rng = np.random.default_rng(seed)
    crops: list[np.ndarray] = []
    labels: list[int] = []
    while len(crops) < n:
        for c in sample_crops(rng):
            img = c.crop
            if rng.random() < grey:
                img = as_grey(img)
            crops.append(img)
            labels.append(index[c.label])
    return to_tensor(np.stack(crops[:n])), np.array(labels[:n])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="the shipped 8-bit identity.onnx")
    parser.add_argument("out", type=Path, help="output folder")
    parser.add_argument("--crops", type=int, default=20000)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--grey", type=float, default=0.3, help="share of crops turned grey")
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)
    if not args.source.is_file():
        print(f"finetune_identity: no such model file: {args.source}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("YOLO_AUTOINSTALL", "0")
    os.environ.setdefault("YOLO_CONFIG_DIR", str(args.out.resolve() / "cfg"))
    import torch

    torch.set_num_threads(2)
    torch.manual_seed(args.seed)
    from recover_weights import RebuildError, rebuild

    try:
        net, _ = rebuild(args.source)  # the 8-bit file's weights, dequantized
    except RebuildError as exc:
        print(f"finetune_identity: {exc}", file=sys.stderr)
        return 2
    t0 = time.time()
    x_np, y_np = crops_for(net.names, args.crops, args.grey, args.seed)
    x, y = torch.from_numpy(x_np), torch.from_numpy(y_np)
    print(f"[finetune] {len(x)} crops ({args.grey:.0%} grey) in {time.time() - t0:.0f} s",
          flush=True)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.epochs * (len(x) // 64)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
    net.train()
    for epoch in range(args.epochs):
        order = torch.randperm(len(x))
        loss_sum, right = 0.0, 0
        for i in range(0, len(x) - 63, 64):
            b = order[i : i + 64]
            out = net(x[b])
            out = out[0] if isinstance(out, (tuple, list)) else out
            loss = torch.nn.functional.cross_entropy(out, y[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            schedule.step()
            loss_sum += float(loss.detach()) * len(b)
            right += int((out.argmax(1) == y[b]).sum())
        print(f"[finetune] epoch {epoch + 1}: loss {loss_sum / len(x):.3f}, "
              f"train top-1 {right / len(x):.3f}, {time.time() - t0:.0f} s", flush=True)
    net.eval()
    weights = args.out / "identity.pt"
    torch.save({"model": net, "train_args": {"task": "classify", "imgsz": 64}}, weights)

    from ultralytics import YOLO

    exported = Path(YOLO(str(weights), task="classify").export(
        format="onnx", imgsz=64, opset=18, simplify=True, dynamic=True))
    target = args.out / "identity.onnx"
    target.write_bytes(exported.read_bytes())
    print(f"[finetune] wrote {weights} and {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

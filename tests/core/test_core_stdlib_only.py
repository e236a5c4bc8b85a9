"""The domain core must import nothing outside the standard library."""

from __future__ import annotations

import json
import subprocess
import sys

CORE = [
    "vision.cards", "vision.seats", "vision.contract", "vision.record", "vision.errors",
    "vision.games", "vision.simulate", "vision.reconstruct", "vision.deduce",
    "vision.notation.json_format", "vision.notation.pbn", "vision.notation.text",
    "vision.commands.reconstruct", "vision.cli",
]

PROBE = """
import importlib, json, sys
for name in {modules!r}:
    importlib.import_module(name)
from vision.cli import main
import io, contextlib
print(json.dumps(sorted(sys.modules)))
"""


def test_core_imports_only_the_standard_library() -> None:
    proc = subprocess.run([sys.executable, "-c", PROBE.format(modules=CORE)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    loaded = json.loads(proc.stdout)
    tops = {m.split(".")[0] for m in loaded}
    foreign = sorted(t for t in tops if t not in sys.stdlib_module_names
                     and t not in ("vision", "__main__", "_distutils_hack")
                     and not t.startswith("__editable__"))  # pip's editable-install hook
    assert foreign == []
    for heavy in ("numpy", "cv2", "onnxruntime", "torch", "ultralytics"):
        assert heavy not in tops

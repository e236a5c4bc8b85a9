"""Find a shipped model by name and verify its checksum before anything loads it.

Models live in the repository's ``models/`` folder as ``<name>.onnx`` with ``<name>.sha256``
(``sha256sum`` format) and a model card ``<name>.md``. The environment variable
``TRICKVISION_MODELS`` points to another folder (e.g. an installed copy or a newer model).
A model whose checksum is missing or wrong is refused: a truncated download or a model
swapped without its card must not silently produce readings.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import numpy as np

import vision
from vision.errors import TrickvisionError
from vision.workers import worker_pool

ENV_VAR = "TRICKVISION_MODELS"


class ModelError(TrickvisionError):
    """A shipped model is missing, or its file does not match its checksum."""


def models_dir() -> Path:
    """The folder searched for models: ``$TRICKVISION_MODELS`` or the repo's ``models/``."""
    override = os.environ.get(ENV_VAR)
    if override:
        return Path(override).expanduser()
    return Path(vision.__file__).resolve().parent.parent / "models"


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


_verified: dict[tuple[str, int, float], str] = {}


def model_path(name: str, *, verify: bool = True) -> Path:
    """Path of ``<name>.onnx`` in :func:`models_dir`, checked against ``<name>.sha256``."""
    folder = models_dir()
    path = folder / f"{name}.onnx"
    if not path.is_file():
        raise ModelError(
            f"model {name!r} not found: expected {path} (set {ENV_VAR} to the folder that "
            f"holds {name}.onnx)"
        )
    if verify:
        verify_checksum(path)
    return path


def model_exists(name: str) -> bool:
    return (models_dir() / f"{name}.onnx").is_file()


def verify_checksum(path: Path) -> None:
    """Raise :class:`ModelError` unless ``path`` matches the hash in ``<stem>.sha256``."""
    path = Path(path)
    checksum_file = path.with_suffix(".sha256")
    if not checksum_file.is_file():
        raise ModelError(f"model {path.name}: checksum file {checksum_file} is missing")
    text = checksum_file.read_text().strip()
    expected = text.split()[0].lower() if text else ""
    if len(expected) != 64 or any(ch not in "0123456789abcdef" for ch in expected):
        raise ModelError(f"model {path.name}: {checksum_file} does not hold a SHA-256 hash")
    stat = path.stat()
    key = (str(path.resolve()), stat.st_size, stat.st_mtime)
    actual = _verified.get(key) or file_sha256(path)
    if actual != expected:
        raise ModelError(
            f"model {path.name} does not match its checksum ({checksum_file.name} says "
            f"{expected[:12]}..., the file is {actual[:12]}...): the file is damaged or was "
            f"replaced without updating its checksum and model card"
        )
    _verified[key] = actual


def cpu_session(path: Path, threads: int | None = None, *, spin: bool = False):  # noqa: ANN201
    """An onnxruntime CPU session for one of our models.

    The pipeline runs several sessions one after the other (detector, card axis, identity);
    onnxruntime's default of letting idle worker threads spin makes one session's threads
    burn the cores the next one needs (measured: the detector took 81 ms inside the pipeline
    against 44 ms alone), so only a session that carries much work (``spin``) lets its
    threads spin, and only while its own run lasts (``session.force_spinning_stop``): left
    spinning after the detector's run, they slowed the second look, the row strips and the
    suppression that follow it by about a third (2026-12-03: 23 -> 16 ms, 9.6 -> 7.2 ms,
    7.8 -> 6.5 ms a 640x480 photo on two cores).
    """
    import onnxruntime as ort  # type: ignore[import-untyped]  # ships no type information

    options = ort.SessionOptions()
    if threads:
        options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    if not spin:
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    else:
        options.add_session_config_entry("session.force_spinning_stop", "1")
    return ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])


class SplitBatchSession:
    """An onnxruntime session for a small crop classifier that runs each batch as parts side
    by side, one thread each, instead of one batch on several threads.

    Why: onnxruntime's threads gain little inside one batch of these small (8-bit) models -
    the face reader's 71 corner crops took 17.5 ms on one thread and 14.3 ms on two - while
    two halves run at once, one thread each, took 10.2 ms (the card-axis model's 112 crops:
    6.2 ms on two threads, 4.8 ms as two halves); in the pipeline, the face reader's models
    took 26 ms instead of 37 on a 52-card photo. Each crop's output is the same either way
    (up to float rounding).
    Offers the part of :class:`onnxruntime.InferenceSession` the readers use.
    """

    def __init__(self, path: Path, workers: int | None = 2) -> None:
        self.session = cpu_session(path, 1)
        self.workers = max(1, int(workers or 2))

    def get_inputs(self) -> Any:
        return self.session.get_inputs()

    def get_outputs(self) -> Any:
        return self.session.get_outputs()

    def get_modelmeta(self) -> Any:
        return self.session.get_modelmeta()

    def run(self, output_names: Any, feed: dict[str, Any]) -> list[Any]:
        """:meth:`onnxruntime.InferenceSession.run` for a model with one batched input."""
        [(name, x)] = feed.items()
        parts = min(self.workers, len(x))
        if parts <= 1:
            return self.session.run(output_names, feed)
        chunks = np.array_split(x, parts)
        pending = [worker_pool(self.workers - 1).submit(self.session.run, output_names, {name: c})
                   for c in chunks[1:]]
        outs = [self.session.run(output_names, {name: chunks[0]})]
        outs += [p.result() for p in pending]
        return [np.concatenate([o[i] for o in outs]) for i in range(len(outs[0]))]

"""Worker threads for work that lets go of Python's lock - onnxruntime runs, OpenCV decoding -
so that it can run on the second core beside the main thread.

The pipeline is sequential, and the 2-core laptops it is made for leave one core idle
whenever the main thread runs a one-threaded step; these threads fill that gap. One shared
pool per size, made on first use.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

_pools: dict[str | int, ThreadPoolExecutor] = {}
_lock = threading.Lock()


def worker_pool(workers: int = 1) -> ThreadPoolExecutor:
    """The shared pool of ``workers`` threads (for parts of one model run)."""
    return _get(workers, workers)


def in_background(fn: Callable[..., Any], *args: Any) -> Future:
    """Start ``fn(*args)`` on a thread of its own pool (so that it never waits behind the
    parts of a model run); ``.result()`` waits for it."""
    return _get("background", 1).submit(fn, *args)


def _get(key: str | int, workers: int) -> ThreadPoolExecutor:
    with _lock:
        if key not in _pools:
            _pools[key] = ThreadPoolExecutor(workers, thread_name_prefix=f"trickvision-{key}")
        return _pools[key]

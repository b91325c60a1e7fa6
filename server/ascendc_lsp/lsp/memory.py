"""Returning freed memory to the operating system, for the long-lived server.

After a full collection the freed Python objects go back to the allocator, but glibc's malloc keeps the emptied
pages of its arenas (and pymalloc's freed arenas leave holes in the heap it cannot shrink), so the server's RSS
stays at its high-water mark: measured by bench/fuzz.py --trace-heap, the Python heap (tracemalloc) and the live
gc objects were flat across passes while RSS crept. `malloc_trim(0)` hands the free pages of every arena back.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from collections.abc import Callable
from functools import cache


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's malloc_trim, or None where the C library is not glibc (musl, macOS, Windows): then a no-op."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):  # no libc by that name, or one without malloc_trim (musl)
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def release_freed_memory() -> bool:
    """Give the allocator's free pages back to the OS (call it after a full gc.collect()); True when it could."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True

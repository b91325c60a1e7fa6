"""Returning freed memory to the operating system, for the long-lived server.

After a full collection the freed Python objects go back to the allocator, but glibc's malloc keeps the emptied
pages of its arenas (and pymalloc's freed arenas leave holes in the heap it cannot shrink), so the server's RSS
stays at its high-water mark: measured by bench/fuzz.py --trace-heap, the Python heap (tracemalloc) and the live
gc objects were flat across passes while RSS crept. `malloc_trim(0)` hands the free pages of every arena back.

A trim cannot return a page that still holds a live block, and glibc's *dynamic* mmap threshold fills its heap
with exactly such pages: each time a large block (a source text, a model's arrays) that was mmapped is freed, the
threshold rises to that block's size (up to 32 MiB), and from then on blocks that size come from the heap, where
they leave holes among long-lived small blocks (and the heap's top is kept up to twice that size).
`pin_allocator_thresholds` fixes the threshold at glibc's initial 128 KiB (glibc mallopt(3), M_MMAP_THRESHOLD:
setting it disables the dynamic adjustment of both), so a large block the heap has no free chunk for gets its own
mapping and goes back whole when freed. Measured by bench/fuzz.py's mix of inputs in one
process (1,000 inputs, 3 passes): the heap arena's free bytes after trimming grew 5.9 -> 7.1 MiB after the
warm-up pass with the dynamic threshold, and stayed at 1.8 MiB with it pinned.

What is left after both is Python's own small-object allocator (pymalloc): it takes 1 MiB arenas from the OS and
gives one back only when every block in it is free, and a trim does not reach them. A check of a large document
fills dozens of arenas with short-lived objects; a few long-lived bytes allocated meanwhile (a type-cache name, a
cache entry) keep an arena, and its unused 16 KiB pools stay resident (4-5 MiB of them in the fuzz worker), so
the RSS after a trim moves by an arena or two. Running on the C allocator instead (PYTHONMALLOC=malloc) made that
flat (bench/fuzz.py, 2,000 inputs x 3 passes: trimmed peaks 68.4 / 68.6 / 68.8 MiB) but cost edit latency
(bench/lsp_latency.py --split, 200 code edits, 3 interleaved runs each: the incremental check's p50 12.5 -> 14.0
ms and its p99 58-69 -> 124-146 ms, freeing a model's objects being slower), so the server keeps pymalloc.
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


# glibc's mallopt parameter for the mmap threshold (malloc.h), and the value glibc starts with.
_M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD_BYTES = 128 * 1024


@cache
def _mallopt() -> Callable[[int, int], int] | None:
    """glibc's mallopt, or None where the C library is not glibc: then a no-op."""
    if _malloc_trim() is None:
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return None
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return mallopt


def pin_allocator_thresholds() -> bool:
    """Fix glibc's mmap threshold for a long-lived process (call it once, at start-up); True when it could."""
    mallopt = _mallopt()
    return mallopt is not None and mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES) == 1


def release_freed_memory() -> bool:
    """Give the allocator's free pages back to the OS (call it after a full gc.collect()); True when it could."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True

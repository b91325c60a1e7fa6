"""A spec's data (inputs and reference outputs) cached on disk, so its NumPy work is done once per spec.

A kernel changes between runs; the data its spec describes does not. At tens of millions of elements generating
the inputs and running the reference cost more than the emulated kernel itself (bench/emulator.py), so the first
run stores both under `<emulator cache>/data/<key>/` and later runs of the same spec reuse them:
- `<input>.bin`: the exact bytes the kernel reads, copied into each run directory;
- `<output>.ref.npy`: the reference's values in the output's value dtype (float32 for bfloat16); data.compare
  widens them to float64 per chunk, which is exact, so a cached run compares exactly as a fresh one.

The key hashes everything the data depends on: every input's name, shape, dtype, init (and an init file's
contents) and injected values, the seed, the reference code, the tiling fields it can read, the outputs, NumPy's
version and the source of data.py (which generates the inputs). Only specs with at least MIN_BYTES of tensors are
cached; the store is pruned oldest-first beyond MAX_BYTES. Entries are written to a temporary name and renamed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ascendc_lsp.toolchain.emulator import build, data
from ascendc_lsp.toolchain.spec import KernelSpec

MIN_BYTES = 4 << 20  # smaller data is cheaper to regenerate than to store
MAX_BYTES = 4 << 30  # total size of the store


@dataclass
class CachedData:
    """One stored entry: the input files and the reference arrays (memory-mapped on load)."""

    root: Path
    inputs: dict[str, Path]
    outputs: dict[str, Path]

    def copy_inputs(self, rundir: Path) -> None:
        for name, path in self.inputs.items():
            shutil.copyfile(path, rundir / f"{name}.bin")

    def reference(self) -> dict[str, np.ndarray]:
        return {name: np.load(path, mmap_mode="r") for name, path in self.outputs.items()}


def store_root() -> Path:
    return build.cache_root() / "data"


def spec_key(spec: KernelSpec) -> str | None:
    """The cache key of the spec's data, or None when it is not worth caching (small) or cannot be keyed."""
    nbytes = sum(t.nbytes for t in (*spec.inputs, *spec.outputs))
    if nbytes < MIN_BYTES or spec.reference is None:
        return None
    inputs: list[Any] = []
    for t in spec.inputs:
        init: Any = None
        if t.init is not None:
            args = t.init.args
            if t.init.kind == "file":
                try:
                    args = hashlib.sha256(Path(args).read_bytes()).hexdigest()
                except OSError:
                    return None
            init = [t.init.kind, args]
        inputs.append([t.name, list(t.shape), t.dtype, init, [list(x) for x in t.inject]])
    doc = {
        "inputs": inputs,
        "seed": spec.seed,
        "reference": spec.reference,
        "tiling": None if spec.tiling is None else spec.tiling.fields,
        "outputs": [[t.name, list(t.shape), t.dtype, t.compare] for t in spec.outputs],
        "numpy": np.__version__,
        "data.py": _data_source_digest(),
    }
    try:
        text = json.dumps(doc, sort_keys=True, default=str)
    except (TypeError, ValueError):
        return None
    return hashlib.sha256(text.encode()).hexdigest()[:40]


def _data_source_digest() -> str:
    try:
        return hashlib.sha256(Path(data.__file__).read_bytes()).hexdigest()
    except OSError:
        return "?"


def lookup(key: str | None, spec: KernelSpec) -> CachedData | None:
    if key is None:
        return None
    root = store_root() / key
    inputs = {t.name: root / f"{t.name}.bin" for t in spec.inputs}
    outputs = {t.name: root / f"{t.name}.ref.npy" for t in spec.outputs if t.compare}
    for t in spec.inputs:
        try:
            if inputs[t.name].stat().st_size != t.nbytes:
                return None
        except OSError:
            return None
    if not all(p.is_file() for p in outputs.values()):
        return None
    with contextlib.suppress(OSError):
        os.utime(root)  # most recently used: pruned last
    return CachedData(root=root, inputs=inputs, outputs=outputs)


def store(key: str | None, spec: KernelSpec, inputs: dict[str, np.ndarray], reference: dict[str, np.ndarray]) -> None:
    """Store a spec's data (best effort: a full disk or a race with another run only skips the cache)."""
    if key is None:
        return
    base = store_root()
    final = base / key
    if final.is_dir():
        if lookup(key, spec) is not None:
            return
        shutil.rmtree(final, ignore_errors=True)  # damaged: replace it
    try:
        base.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".new-", dir=base))
    except OSError:
        return
    try:
        for t in spec.inputs:
            inputs[t.name].tofile(tmp / f"{t.name}.bin")
        for t in spec.outputs:
            if t.compare and t.name in reference:
                np.save(tmp / f"{t.name}.ref.npy", _narrow(reference[t.name], t.dtype), allow_pickle=False)
        tmp.rename(final)
    except OSError:
        pass
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    _prune(base)


def _narrow(values64: np.ndarray, dtype: str) -> np.ndarray:
    """The reference values (float64, already rounded to the output dtype) in that dtype's value type: exact."""
    value_dtype = data.to_values(np.zeros(1, dtype=data.NP_DTYPES[dtype]), dtype).dtype
    if value_dtype.itemsize < 8 and value_dtype.kind in "fiub":
        return np.ascontiguousarray(values64).astype(value_dtype)
    return np.ascontiguousarray(values64)


def _prune(base: Path) -> None:
    try:
        entries = [p for p in base.iterdir() if p.is_dir() and not p.name.startswith(".")]
    except OSError:
        return
    sized: list[tuple[float, int, Path]] = []
    for p in entries:
        try:
            sized.append((p.stat().st_mtime, sum(f.stat().st_size for f in p.iterdir()), p))
        except OSError:
            continue
    total = sum(s for _, s, _ in sized)
    for _, size, p in sorted(sized):
        if total <= MAX_BYTES:
            break
        shutil.rmtree(p, ignore_errors=True)
        total -= size

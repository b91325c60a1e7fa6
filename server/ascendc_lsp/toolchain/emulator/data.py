"""Inputs, reference and comparison (numpy; imported only by the runner).

- Inputs are generated from the spec's `init` with a seeded generator and written as raw little-endian bytes.
  bfloat16 has no numpy dtype: values are rounded to bf16 (nearest-even) and stored as their uint16 bits; the
  reference sees them as float32 arrays holding exactly the bf16 values.
- The reference runs in a restricted namespace: `np`, the inputs by name, `tiling` (the spec's fields) and a few
  harmless builtins. It must assign every compared output; results are cast to the output dtype (as the samples'
  golden files are stored) before comparing in float64.
- An element passes when |out - ref| <= atol + rtol * |ref|, or both are equal (covers +-inf), and NaN matches NaN
  only where the reference has NaN.
"""

from __future__ import annotations

import builtins
import math
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ascendc_lsp.toolchain.base import OutputCheck
from ascendc_lsp.toolchain.spec import FLOAT_DTYPES, KernelSpec, TensorSpec, Tolerance

NP_DTYPES: dict[str, Any] = {
    "float16": np.float16,
    "bfloat16": np.uint16,  # storage; values via bf16 helpers
    "float32": np.float32,
    "int8": np.int8,
    "uint8": np.uint8,
    "int16": np.int16,
    "uint16": np.uint16,
    "int32": np.int32,
    "uint32": np.uint32,
    "int64": np.int64,
    "bool": np.uint8,
}

# The reference is the user's own code (like the samples' gen_data.py); the namespace is kept small for hygiene,
# not as a security boundary: no file, console or code-evaluation builtins.
_BLOCKED_BUILTINS = frozenset({"open", "input", "exec", "eval", "compile", "breakpoint", "help", "exit", "quit"})
_SAFE_BUILTINS = {k: v for k, v in vars(builtins).items() if k not in _BLOCKED_BUILTINS}


class DataError(Exception):
    """A problem with the spec's data (init file, reference): the message names the field."""


def f32_to_bf16_bits(a: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    x = np.ascontiguousarray(np.asarray(a, dtype=np.float32))
    u = x.view(np.uint32).astype(np.uint64)
    nan = np.isnan(x)
    rounded = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    out = rounded.astype(np.uint16)
    out[nan] = 0x7FC0
    return out


def bf16_bits_to_f32(bits: npt.ArrayLike) -> npt.NDArray[np.float32]:
    b = np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16
    return b.view(np.float32)


def to_storage(values: npt.ArrayLike, dtype: str) -> np.ndarray:
    """Values (any numeric array) -> the array whose bytes the kernel reads."""
    v = np.asarray(values)
    if dtype == "bfloat16":
        return f32_to_bf16_bits(v.astype(np.float32))
    if dtype == "bool":
        return (v != 0).astype(np.uint8)
    target = NP_DTYPES[dtype]
    if np.issubdtype(np.dtype(target), np.integer) and v.dtype.kind == "f":
        info = np.iinfo(target)
        with np.errstate(invalid="ignore"):
            v = np.clip(np.nan_to_num(v), info.min, info.max)
    with np.errstate(over="ignore", invalid="ignore"):
        return v.astype(target)


def to_values(storage: np.ndarray, dtype: str) -> np.ndarray:
    """Storage array -> the array the reference sees (bf16 as float32, bool as numpy bool)."""
    if dtype == "bfloat16":
        return bf16_bits_to_f32(storage)
    if dtype == "bool":
        return storage.astype(np.bool_)
    return storage


def _default_init(t: TensorSpec) -> tuple[str, Any]:
    if t.dtype in FLOAT_DTYPES:
        return "uniform", (-1.0, 1.0)
    if t.dtype == "bool":
        return "randint", (0, 2)
    if t.dtype.startswith("uint"):
        return "randint", (0, 10)
    return "randint", (-10, 10)


def generate_input(t: TensorSpec, rng: np.random.Generator, where: str) -> np.ndarray:
    """The storage array for one input (shape = spec shape)."""
    kind: str = t.init.kind if t.init is not None else "default"
    args: Any = t.init.args if t.init is not None else None
    if kind == "default":
        kind, args = _default_init(t)
    n = t.size
    vals: np.ndarray
    if kind == "uniform":
        vals = rng.uniform(args[0], args[1], size=n)
    elif kind == "normal":
        vals = rng.normal(args[0], args[1], size=n)
    elif kind == "randint":
        vals = rng.integers(args[0], args[1], size=n, dtype=np.int64)
    elif kind == "arange":
        vals = args[0] + args[1] * np.arange(n, dtype=np.float64)
        if t.dtype not in FLOAT_DTYPES:
            vals = vals.astype(np.int64)
    elif kind == "zeros":
        vals = np.zeros(n)
    elif kind == "ones":
        vals = np.ones(n)
    elif kind == "values":
        vals = np.asarray(args, dtype=np.float64)
        if t.dtype not in FLOAT_DTYPES and np.all(np.isfinite(vals)):
            vals = vals.astype(np.int64)
    elif kind == "file":
        vals = _load_file(Path(args), t, where)
        storage = vals
        return _inject(storage, t, where).reshape(t.shape)
    else:
        raise DataError(f"{where}.init: unknown kind {kind}")
    storage = to_storage(vals, t.dtype)
    return _inject(storage, t, where).reshape(t.shape)


def _inject(storage: np.ndarray, t: TensorSpec, where: str) -> np.ndarray:
    if not t.inject:
        return storage
    flat = storage.reshape(-1).copy()
    for idx, value in t.inject:
        cell = to_storage(np.array([value]), t.dtype)
        if t.dtype not in FLOAT_DTYPES and not math.isfinite(value):
            raise DataError(f"{where}.inject: {value} cannot be stored in {t.dtype}")
        flat[idx] = cell[0]
    return flat


def _load_file(path: Path, t: TensorSpec, where: str) -> np.ndarray:
    try:
        if path.suffix == ".npy":
            arr = np.load(path, allow_pickle=False)
            if arr.size != t.size:
                raise DataError(
                    f"{where}.init.file: {path.name} has {arr.size} elements, the tensor {t.size}"
                )
            if t.dtype == "bfloat16" and arr.dtype == np.uint16:
                return arr.reshape(-1)
            return to_storage(arr.reshape(-1), t.dtype)
        raw = np.fromfile(path, dtype=NP_DTYPES[t.dtype])
    except (OSError, ValueError) as exc:
        raise DataError(f"{where}.init.file: cannot read {path}: {exc}") from None
    if raw.size != t.size:
        raise DataError(
            f"{where}.init.file: {path.name} holds {raw.size} {t.dtype} values, the tensor {t.size}"
        )
    return raw


def generate_inputs(spec: KernelSpec) -> dict[str, np.ndarray]:
    """Storage arrays for every input, from one generator seeded with spec.seed (in input order)."""
    rng = np.random.default_rng(spec.seed)
    return {t.name: generate_input(t, rng, f"inputs[{i}]") for i, t in enumerate(spec.inputs)}


def evaluate_reference(spec: KernelSpec, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Run the spec's reference; returns value arrays (float64-comparable) shaped like each compared output."""
    if spec.reference is None:
        return {}
    ns: dict[str, Any] = {"__builtins__": _SAFE_BUILTINS, "np": np, "numpy": np, "math": math}
    if spec.tiling is not None:
        ns["tiling"] = dict(spec.tiling.fields)
    ns.update(spec.reference_vars)
    for t in spec.inputs:
        ns[t.name] = to_values(inputs[t.name], t.dtype).copy()
    for group, members in spec.tensor_lists.items():  # a tensor list input is also bound as a list
        if all(m in ns for m in members):
            ns[group] = [ns[m] for m in members]
    try:
        code = compile(spec.reference, f"{spec.origin}:reference", "exec")
        with np.errstate(all="ignore"):
            exec(code, ns)
    except Exception as exc:  # the user's code: report anything it raises, with its line
        line = _reference_line(exc)
        raise DataError(f"{spec.origin}: reference{line}: {type(exc).__name__}: {exc}") from None
    for group, members in spec.tensor_lists.items():  # a tensor list output may be assigned as a list
        value = ns.get(group)
        if isinstance(value, list | tuple) and len(value) == len(members) and not all(m in ns for m in members):
            ns.update(dict(zip(members, value, strict=True)))
    out: dict[str, np.ndarray] = {}
    for t in spec.outputs:
        if not t.compare:
            continue
        if t.name not in ns:
            raise DataError(f"{spec.origin}: reference: does not assign output '{t.name}'")
        try:
            arr = np.asarray(ns[t.name])
        except Exception as exc:
            raise DataError(f"{spec.origin}: reference: output '{t.name}' is not an array ({exc})") from None
        if arr.dtype == object or arr.dtype.kind not in "biuf":
            raise DataError(
                f"{spec.origin}: reference: output '{t.name}' has dtype {arr.dtype}, expected numbers"
            )
        if arr.size == t.size:
            arr = arr.reshape(t.shape)
        elif arr.size == 1:
            arr = np.broadcast_to(arr.reshape(()), t.shape)
        else:
            raise DataError(
                f"{spec.origin}: reference: output '{t.name}' has shape {list(arr.shape)} "
                f"({arr.size} elements) but the spec says {list(t.shape)} ({t.size} elements)"
            )
        # store as the output dtype, as the golden files are, then compare as float64
        out[t.name] = to_values(to_storage(arr, t.dtype), t.dtype).astype(np.float64)
    return out


def _reference_line(exc: BaseException) -> str:
    tb = exc.__traceback__
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.endswith(":reference"):
            line = tb.tb_lineno
        tb = tb.tb_next
    return f" line {line}" if line else ""


def read_output(path: Path, t: TensorSpec) -> np.ndarray | None:
    """The output file as a read-only array (memory-mapped: large outputs are compared straight from the page
    cache); None when it is missing or not the tensor's size."""
    dtype = np.dtype(NP_DTYPES[t.dtype])
    try:
        if path.stat().st_size != t.size * dtype.itemsize:
            return None
        if t.size == 0:
            return np.zeros(t.shape, dtype=dtype)
        raw = np.memmap(path, dtype=dtype, mode="r")
    except (OSError, ValueError):
        return None
    return raw.reshape(t.shape)


def poison_mask(storage: np.ndarray, patterns: list[bytes]) -> np.ndarray:
    """Elements whose bytes equal a poison pattern (repeated) entirely: never written by the kernel."""
    item = storage.dtype.itemsize
    raw = np.ascontiguousarray(storage).reshape(-1).view(np.uint8).reshape(-1, item)
    mask = np.zeros(raw.shape[0], dtype=bool)
    for pat in patterns:
        if not pat:
            continue
        rep = (pat * (item // len(pat) + 1))[:item]
        mask |= np.all(raw == np.frombuffer(rep, dtype=np.uint8), axis=1)
    return mask


COMPARE_CHUNK = 1 << 16  # elements per slice: the float64 temporaries stay in cache instead of 8 B x the tensor


def compare(
    name: str, out_storage: np.ndarray, ref: np.ndarray, t: TensorSpec, tol: Tolerance, poison: list[bytes]
) -> OutputCheck:
    out_values = to_values(out_storage, t.dtype).reshape(-1)
    r_all = ref.reshape(-1)
    size = int(r_all.size)
    bad = np.zeros(size, dtype=bool)
    max_abs = 0.0
    max_rel = 0.0
    nan_where_finite = False
    tiny = np.finfo(np.float64).tiny
    for lo in range(0, size, COMPARE_CHUNK):
        hi = min(size, lo + COMPARE_CHUNK)
        out = out_values[lo:hi].astype(np.float64)
        r = np.asarray(r_all[lo:hi], dtype=np.float64)
        with np.errstate(invalid="ignore", over="ignore"):
            diff = np.abs(out - r)
            abs_r = np.abs(r)
            ok = (diff <= tol.atol + tol.rtol * abs_r) | (out == r)
        ref_nan = np.isnan(r)
        out_nan = np.isnan(out)
        has_nan = bool(ref_nan.any()) or bool(out_nan.any())
        if has_nan:
            ok = np.where(ref_nan, out_nan, ok & ~out_nan)
            finite = ~ref_nan & ~out_nan
            d, abs_rf = diff[finite], abs_r[finite]
            nan_where_finite = nan_where_finite or bool((out_nan & ~ref_nan).any())
        else:  # the usual chunk: no NaN on either side, every element counts for the errors
            d, abs_rf = diff, abs_r
        np.logical_not(ok, out=bad[lo:hi])
        if d.size:
            with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
                if np.isnan(d).any():  # inf - inf
                    d = np.where(np.isnan(d), np.inf, d)
                max_abs = max(max_abs, float(d.max()))
                rel = d / np.maximum(abs_rf, tiny)
                chunk_rel = float(np.where(d == 0, 0.0, rel).max())
                max_rel = math.nan if math.isnan(chunk_rel) or math.isnan(max_rel) else max(max_rel, chunk_rel)
    n_bad = int(np.count_nonzero(bad))
    if nan_where_finite:
        max_abs = math.inf
        max_rel = math.inf
    check = OutputCheck(
        name=name,
        elements=size,
        mismatches=n_bad,
        max_abs_error=max_abs,
        max_rel_error=max_rel,
        rtol=tol.rtol,
        atol=tol.atol,
    )
    if poison and n_bad:  # only failing elements can be unwritten ones
        flat = np.ascontiguousarray(out_storage).reshape(-1)
        check.unwritten = int(poison_mask(flat[bad], poison).sum())
    if n_bad:
        idx = int(np.argmax(bad))
        pos = [int(i) for i in np.unravel_index(idx, t.shape)]
        check.first_mismatch = {
            "output": name,
            "index": idx,
            "position": pos,
            "expected": _num(r_all[idx]),
            "actual": _num(float(out_values[idx])),
        }
        ranges = _bad_ranges(bad)
        check.first_mismatch["ranges"] = ranges[:8]
    return check


def _bad_ranges(bad: np.ndarray) -> list[list[int]]:
    """Up to a few [start, end) runs of failing flat indices."""
    idx = np.flatnonzero(bad)
    if idx.size == 0:
        return []
    breaks = np.flatnonzero(np.diff(idx) != 1)
    starts = np.concatenate(([idx[0]], idx[breaks + 1]))
    ends = np.concatenate((idx[breaks], [idx[-1]])) + 1
    return [[int(s), int(e)] for s, e in zip(starts[:16], ends[:16], strict=False)]


def _num(x: Any) -> float | str:
    f = float(x)
    if math.isnan(f):
        return "nan"
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    return f

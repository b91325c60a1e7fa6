"""Inputs, reference and comparison (numpy; imported only by the runner).

- Inputs are generated from the spec's `init` with a seeded generator and written as raw little-endian bytes.
  bfloat16 has no numpy dtype: values are rounded to bf16 (nearest-even) and stored as their uint16 bits; the
  reference sees them as float32 arrays holding exactly the bf16 values.
- The reference is untrusted code (a shared spec, an LLM-written task): it runs in the kernel sandbox, in its
  own interpreter (reference_child.py), data passed as .npy files. Its namespace: `np`, the inputs by name,
  `tiling` (the spec's fields) and a few harmless builtins. It must assign every compared output; results are
  cast to the output dtype (as the samples' golden files are stored) before comparing in float64.
- An element passes when |out - ref| <= atol + rtol * |ref|, or both are equal (covers +-inf), and NaN matches NaN
  only where the reference has NaN.
"""

from __future__ import annotations

import json
import math
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ascendc_lsp.toolchain import sandbox
from ascendc_lsp.toolchain.base import OutputCheck, json_number
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


MAX_TENSOR_ELEMENTS = 1 << 31  # per tensor: what a kernel's uint32 length fields and GM offsets can address
# Bytes the run holds per element at its peak: the generated float64 values, the storage array, the reference's
# copy and result as float64, the comparison's float64 copies.
_WORK_BYTES_PER_ELEMENT = 40


def available_memory() -> int | None:
    """MemAvailable from /proc/meminfo in bytes (None where there is no such file)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def check_memory(spec: KernelSpec) -> None:
    """Refuse, before allocating anything, tensors no run could hold (`shape: [1000000000]` used to take 26 s and
    7.6 GB before numpy failed): a per-tensor element cap and the whole run against the memory available."""
    tensors = [*(("inputs", i, t) for i, t in enumerate(spec.inputs)),
               *(("outputs", i, t) for i, t in enumerate(spec.outputs))]  # fmt: skip
    total = 0
    for group, i, t in tensors:
        if t.size > MAX_TENSOR_ELEMENTS:
            raise DataError(
                f"{spec.origin}: {group}[{i}].shape: {t.size:,} elements is more than the "
                f"{MAX_TENSOR_ELEMENTS:,} a tensor may have"
            )
        total += t.size
    need = total * _WORK_BYTES_PER_ELEMENT + spec.workspace_bytes
    available = available_memory()
    if available is not None and need > available:
        raise DataError(
            f"{spec.origin}: the tensors hold {total:,} elements; running, checking and comparing them needs about "
            f"{need / (1 << 30):.1f} GiB, more than the {available / (1 << 30):.1f} GiB of memory available"
        )


def generate_inputs(spec: KernelSpec) -> dict[str, np.ndarray]:
    """Storage arrays for every input, from one generator seeded with spec.seed (in input order)."""
    check_memory(spec)
    rng = np.random.default_rng(spec.seed)
    return {t.name: generate_input(t, rng, f"inputs[{i}]") for i, t in enumerate(spec.inputs)}


REFERENCE_MEMORY = 2 << 30  # address space of the reference's interpreter beyond its data (NumPy maps a lot)
_CHILD = Path(__file__).with_name("reference_child.py")


def _json_safe(value: Any, where: str) -> Any:
    try:
        return json.loads(json.dumps(value, default=_json_default))
    except (TypeError, ValueError) as exc:
        raise DataError(f"{where}: cannot pass to the reference ({exc})") from None


def _json_default(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not a number, string or list")


def evaluate_reference(
    spec: KernelSpec, inputs: dict[str, np.ndarray], timeout: float = 60.0
) -> dict[str, np.ndarray]:
    """Run the spec's reference in the sandbox (toolchain/sandbox.py: a separate interpreter with time and memory
    limits, no network, a private working directory); returns value arrays (float64-comparable) shaped like each
    compared output. Any failure of the reference raises DataError "<origin>: reference failed: ...", never a
    kernel verdict: its exit status means nothing, only the result file it writes last counts."""
    if spec.reference is None:
        return {}
    compared = [t for t in spec.outputs if t.compare]
    job_dir = Path(tempfile.mkdtemp(prefix="ascendc-ref-"))
    try:
        in_bytes = 0
        names: list[list[str]] = []
        for i, t in enumerate(spec.inputs):
            values = to_values(inputs[t.name], t.dtype)
            np.save(job_dir / f"in{i}.npy", values, allow_pickle=False)
            in_bytes += values.nbytes
            names.append([t.name, f"in{i}.npy"])
        job = {
            "code": spec.reference,
            "filename": f"{spec.origin}:reference",
            "inputs": names,
            "tiling": _json_safe(dict(spec.tiling.fields), "tiling") if spec.tiling is not None else None,
            "vars": _json_safe(dict(spec.reference_vars), "reference variables"),
            "tensor_lists": {k: list(v) for k, v in spec.tensor_lists.items()},
            "outputs": [t.name for t in compared],
        }
        (job_dir / "job.json").write_text(json.dumps(job), encoding="utf-8")
        shutil.copyfile(_CHILD, job_dir / _CHILD.name)
        out_bytes = sum(8 * t.size for t in compared)
        limits = sandbox.Limits(
            timeout=timeout,
            memory_bytes=REFERENCE_MEMORY + 8 * (in_bytes + out_bytes),
            file_bytes=max(64 << 20, 4 * out_bytes + (1 << 20)),
        )
        res = sandbox.run_python(
            [_CHILD.name, str(job_dir)], job_dir, limits, read_paths=[], write_paths=[]
        )
        result = _read_result(job_dir / "result.json")
        if result is None:
            raise DataError(f"{spec.origin}: reference failed: {_process_failure(res, limits)}")
        if "error" in result:
            line = result.get("line")
            at = f"line {line}: " if isinstance(line, int) else ""
            detail = "".join(ch for ch in str(result["error"])[:1000] if ch.isprintable())
            raise DataError(f"{spec.origin}: reference failed: {at}{detail}")
        files = result.get("outputs") or {}
        out: dict[str, np.ndarray] = {}
        for t in compared:
            out[t.name] = _reference_output(spec, t, job_dir, files.get(t.name))
        return out
    finally:
        shutil.rmtree(job_dir, ignore_errors=True)


def _read_result(path: Path) -> dict[str, Any] | None:
    try:
        st = path.lstat()  # written by untrusted code: a plain, small file only (not a symlink, not a FIFO)
        if not stat.S_ISREG(st.st_mode) or st.st_size > 1 << 20:
            return None
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _process_failure(res: sandbox.SandboxResult, limits: sandbox.Limits) -> str:
    """Why the reference's interpreter ended without a result (one line)."""
    if res.error:
        return res.error
    if res.timed_out:
        return f"did not finish within {limits.timeout:g} s (the run timeout)"
    if res.memory_exceeded:
        return f"used more than {limits.memory_bytes >> 20} MiB of memory"
    tail = " | ".join(res.stderr.strip().splitlines()[-2:])[-400:]
    if res.signal_name:
        why = f"killed by {res.signal_name}"
    else:
        why = f"the interpreter exited with status {res.returncode} before returning the outputs"
    return f"{why}{': ' + tail if tail else ''}"


def _reference_output(spec: KernelSpec, t: TensorSpec, job_dir: Path, file: Any) -> np.ndarray:
    if not isinstance(file, str) or "/" in file.replace("out/", "", 1) or ".." in file:
        raise DataError(f"{spec.origin}: reference failed: no result for output '{t.name}'")
    path = job_dir / file
    # written by untrusted code: a plain file of a plausible size, never a symlink (to a secret) or a FIFO
    st = path.lstat() if path.is_symlink() or path.exists() else None
    if st is None or not stat.S_ISREG(st.st_mode) or st.st_size > 16 * t.size + (1 << 20):
        raise DataError(f"{spec.origin}: reference failed: no usable result file for output '{t.name}'")
    try:
        arr = np.load(path, allow_pickle=False, mmap_mode="r")
    except (OSError, ValueError) as exc:
        raise DataError(f"{spec.origin}: reference failed: output '{t.name}' unreadable ({exc})") from None
    if arr.dtype == object or arr.dtype.kind not in "biuf":
        raise DataError(f"{spec.origin}: reference: output '{t.name}' has dtype {arr.dtype}, expected numbers")
    if arr.size == t.size:
        arr = np.array(arr).reshape(t.shape)
    elif arr.size == 1:
        arr = np.broadcast_to(np.array(arr).reshape(()), t.shape)
    else:
        raise DataError(
            f"{spec.origin}: reference: output '{t.name}' has shape {list(arr.shape)} "
            f"({arr.size} elements) but the spec says {list(t.shape)} ({t.size} elements)"
        )
    # store as the output dtype, as the golden files are, then compare as float64
    return to_values(to_storage(arr, t.dtype), t.dtype).astype(np.float64)


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
            "expected": json_number(r_all[idx]),
            "actual": json_number(float(out_values[idx])),
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

"""Output comparison in chunks and the spec-data cache: both must give exactly what the straightforward code gives."""

from __future__ import annotations

import dataclasses
import math
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from ascendc_lsp.toolchain.base import RunOptions
from ascendc_lsp.toolchain.emulator import data, datacache
from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain
from ascendc_lsp.toolchain.spec import KernelSpec, TensorSpec, Tolerance, spec_from_dict

ROOT = Path(__file__).resolve().parent.parent


def _compare_whole(out_storage: np.ndarray, ref: np.ndarray, t: TensorSpec, tol: Tolerance) -> dict[str, Any]:
    """The comparison rule on whole arrays, written plainly (data.py's module docstring)."""
    out = data.to_values(out_storage, t.dtype).astype(np.float64).reshape(-1)
    r = np.asarray(ref, dtype=np.float64).reshape(-1)
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(out - r)
        ok = (diff <= tol.atol + tol.rtol * np.abs(r)) | (out == r)
    ok = np.where(np.isnan(r), np.isnan(out), ok & ~np.isnan(out))
    finite = ~np.isnan(r) & ~np.isnan(out)
    max_abs = max_rel = 0.0
    if finite.any():
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            d = np.where(np.isnan(diff[finite]), np.inf, diff[finite])
            max_abs = float(d.max())
            rel = d / np.maximum(np.abs(r[finite]), np.finfo(np.float64).tiny)
            max_rel = float(np.where(d == 0, 0.0, rel).max())
    if (np.isnan(out) & ~np.isnan(r)).any():
        max_abs = max_rel = math.inf
    bad = ~ok
    idx = int(np.argmax(bad)) if bad.any() else None
    return {"mismatches": int(bad.sum()), "max_abs": max_abs, "max_rel": max_rel, "first": idx, "bad": bad}


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "int32", "bool"])
@pytest.mark.parametrize("chunk", [7, 1000, 1 << 16])
def test_chunked_compare_equals_the_whole_array_rule(
    dtype: str, chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(data, "COMPARE_CHUNK", chunk)
    rng = np.random.default_rng(chunk)
    for trial in range(12):
        n = int(rng.integers(1, 4000))
        t = TensorSpec(name="y", shape=(n,), dtype=dtype)
        if dtype in ("int32", "bool"):
            storage = rng.integers(0, 2 if dtype == "bool" else 9, n).astype(data.NP_DTYPES[dtype])
        elif dtype == "bfloat16":
            storage = data.f32_to_bf16_bits(rng.normal(0, 2, n).astype(np.float32))
        else:
            storage = rng.normal(0, 2, n).astype(data.NP_DTYPES[dtype])
            if trial % 2:
                storage[rng.integers(0, n, 4)] = np.nan
                storage[rng.integers(0, n, 2)] = np.inf * (1 if trial % 4 == 1 else -1)
        storage.view(np.uint8)[: int(rng.integers(0, storage.nbytes // 4 + 1))] = 0xFF  # unwritten elements
        ref = data.to_values(storage, dtype).astype(np.float64).copy()
        ref[rng.integers(0, n, 9)] += 0.25
        if trial % 3 == 0:
            ref[rng.integers(0, n, 3)] = np.nan
        refs = [ref] if dtype in ("int32", "bool") or trial % 3 == 0 else [ref, ref.astype(np.float32)]
        for r in refs:
            for tol in (Tolerance(rtol=1e-3, atol=1e-3), Tolerance(rtol=0.0, atol=0.0)):
                got = data.compare("y", storage, r, t, tol, [b"\xff"])
                want = _compare_whole(storage, r, t, tol)
                assert got.mismatches == want["mismatches"]
                assert repr(got.max_abs_error) == repr(want["max_abs"])
                assert repr(got.max_rel_error) == repr(want["max_rel"])
                if want["first"] is None:
                    assert got.first_mismatch is None
                else:
                    assert got.first_mismatch is not None and got.first_mismatch["index"] == want["first"]
                assert got.unwritten == int((data.poison_mask(storage, [b"\xff"]) & want["bad"]).sum())


def _big_add_spec(seed: int = 0, reference: str = "z = x + y") -> KernelSpec:
    """add_double_buffer at 64x: 6 MB of tensors, over datacache.MIN_BYTES."""
    path = ROOT / "examples" / "add_double_buffer" / "spec.yaml"
    d = yaml.safe_load(path.read_text(encoding="utf-8"))
    for t in (*d["inputs"], *d["outputs"]):
        t["shape"] = [8 * 64, 2048]
    d["tiling"]["fields"] = {"totalLength": 16384 * 64, "tileNum": 8 * 64}
    d["seed"] = seed
    d["reference"] = reference
    return spec_from_dict(d, base_dir=path.parent, origin="add_double_buffer x64")


def test_data_cache_key() -> None:
    example = ROOT / "examples" / "add_double_buffer"
    small = spec_from_dict(yaml.safe_load((example / "spec.yaml").read_text(encoding="utf-8")), example)
    assert datacache.spec_key(small) is None  # 96 KB: regenerated every time
    a = datacache.spec_key(_big_add_spec())
    assert a is not None and a == datacache.spec_key(_big_add_spec())
    assert a != datacache.spec_key(_big_add_spec(seed=1))
    assert a != datacache.spec_key(_big_add_spec(reference="z = (x + y)"))


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")
def test_second_run_uses_the_cached_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(datacache, "store_root", lambda: tmp_path / "data")
    spec = _big_add_spec()
    tc = EmulatorToolchain()
    first = tc.run(spec, RunOptions(timeout=120))
    assert first.correct
    key = datacache.spec_key(spec)
    entry = datacache.lookup(key, spec)
    assert entry is not None
    stored = entry.reference()["z"]
    assert stored.dtype == np.float16 and stored.shape == (512, 2048)

    def no_generation(*_: Any) -> Any:
        raise AssertionError("inputs generated again")

    monkeypatch.setattr(data, "generate_inputs", no_generation)
    monkeypatch.setattr(data, "evaluate_reference", no_generation)
    second = tc.run(spec, RunOptions(timeout=120))
    assert second.correct
    assert [dataclasses.asdict(o) for o in second.outputs] == [dataclasses.asdict(o) for o in first.outputs]
    # a damaged entry is not used: the data is generated again and the entry replaced
    (tmp_path / "data" / str(key) / "x.bin").write_bytes(b"short")
    assert datacache.lookup(key, spec) is None
    monkeypatch.undo()
    monkeypatch.setattr(datacache, "store_root", lambda: tmp_path / "data")
    assert tc.run(spec, RunOptions(timeout=120)).correct
    assert datacache.lookup(key, spec) is not None

"""Public kernels nobody here wrote that the NPU-faithful defaults let pass, each with the strict mode that rejects
them (the old, CPU-debug behaviour). The sources are read from the public trees (tests/public_sources.py); only
these specs are ours. The tiling fields are computed here with the same arithmetic as each project's host
TilingFunc (op_host/*.cpp), for the stated shape, core count and UB size.

- cann-ops `math/rsqrt` (float): its TilingFunc sizes the four tile buffers to the whole UB GetCoreMemSize reports
  (196,352 B, above UB minus the 8 KB AscendC reserve), has `ASSERT(GetBlockNum() ...)` with an unqualified name,
  and chains vector ops on one tile without PipeBarrier<PIPE_V> (bisheng's auto-sync inserts them).
- cann-ops `math/mse_loss` (half): `tileNum ASSERT(tileNum != 0 ...)` (valid only because ASSERT is compiled out);
  with reduction "none" on a length that is not a multiple of 16 it copies the 32-byte-aligned length, i.e. up to
  30 B past the input and output, inside the runtime's allocation padding; with "mean" it reads the ReduceSum result
  by GetValue and writes GM by SetValue with no V_S / S_V events (auto-sync).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from ascendc_lsp.toolchain.base import RunOptions, RunResult
from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain
from ascendc_lsp.toolchain.spec import KernelSpec, spec_from_dict
from tests.public_sources import tree_or_skip

pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")]

CANN_OPS = "Hayden727+cann-ops"
UB_REPORTED = 196352  # GetCoreMemSize(UB) on Ascend910B (knowledge/hardware/Ascend910B.yaml, adk-matmul-tiling)


def rsqrt_tiling(n: int, type_bytes: int, cores: int, ub: int) -> tuple[int, dict[str, int]]:
    """op_host/rsqrt.cpp TilingFunc, transcribed: (block_dim, fields)."""
    block = 32
    ub_data_number = 4 if type_bytes == 4 else 8
    tile_block_num = (ub // block) // ub_data_number
    tile_data_num = tile_block_num * block // type_bytes
    aligned = (n * type_bytes + block - 1) // block * block
    cores = 1 if tile_data_num >= n else min(cores, aligned // block)
    every = aligned // block // cores
    tail_block_num = (aligned // block) % cores
    small_core = every * block // type_bytes
    small_tiles = every // tile_block_num
    final_small = small_tiles if every % tile_block_num == 0 else small_tiles + 1
    small_tail = small_core - tile_data_num * small_tiles or tile_data_num
    every += 1
    big_core = every * block // type_bytes
    big_tiles = every // tile_block_num
    final_big = big_tiles if every % tile_block_num == 0 else big_tiles + 1
    big_tail = big_core - tile_data_num * big_tiles or tile_data_num
    return cores, {
        "smallCoreDataNum": small_core,
        "bigCoreDataNum": big_core,
        "finalBigTileNum": final_big,
        "finalSmallTileNum": final_small,
        "tileDataNum": tile_data_num,
        "smallTailDataNum": small_tail,
        "bigTailDataNum": big_tail,
        "tailBlockNum": tail_block_num,
    }


def mse_loss_tiling(n: int, mode: int) -> dict[str, int]:
    """op_host/mse_loss.cpp TilingFunc for half (ALIGN_NUM 16, ub_block_num 1024, block_dim 1), transcribed."""
    align, ub_block_num = 16, 1024
    aligned = (n + align - 1) // align * align
    block_length = aligned
    tile_num = block_length // align // ub_block_num
    tile_length = last = 0
    if (block_length // align) % ub_block_num == 0 or tile_num == 0:
        tile_num = tile_num or 1
        if block_length < ub_block_num * align:
            tile_length = ((block_length // align) + 1) // 2 * 2 * align
        else:
            tile_length = ub_block_num * align
        last = tile_length
    return {
        "mode": mode,
        "totalLength": n,
        "blockLength": block_length,
        "tileNum": tile_num,
        "tileLength": tile_length,
        "lastTileLength": last,
    }


def _spec(root: Path, op: str, kernel: str, data: dict[str, Any]) -> KernelSpec:
    src = root / "src" / "math" / op
    data = {"kernel": kernel, "source": str(src / "op_kernel" / f"{op}.cpp"), **data}
    data["tiling"]["header"] = str(src / "op_host" / f"{op}_tiling.h")
    return spec_from_dict(data, base_dir=src)


def _run(spec: KernelSpec, **opts: Any) -> RunResult:
    return EmulatorToolchain().run(spec, RunOptions(timeout=180, **opts))


def _errors(r: RunResult) -> list[str]:
    return [f"{d.category}: {d.message}" for d in r.diagnostics if d.severity == "error"]


def test_cann_ops_rsqrt_uses_the_whole_ub() -> None:
    root = tree_or_skip(CANN_OPS)
    n = 100000
    block_dim, fields = rsqrt_tiling(n, 4, 8, UB_REPORTED)
    assert 4 * 2 * fields["tileDataNum"] * 4 > 196608 - 8192  # above UB minus the reserve
    spec = _spec(
        root,
        "rsqrt",
        "rsqrt",
        {
            "block_dim": block_dim,
            "inputs": [{"name": "x", "shape": [n], "dtype": "float32", "init": {"uniform": [0.5, 4.0]}}],
            "outputs": [{"name": "y", "shape": [n], "dtype": "float32"}],
            "params": ["x", "y", "workspace", "tiling"],
            "defines": {"DTYPE_X": "float"},
            "tiling": {"struct": "optiling::RsqrtTilingData", "fields": fields},
            "reference": "y = 1.0 / np.sqrt(x)",
            "tolerance": {"rtol": 1.0e-5, "atol": 1.0e-6},
        },
    )
    r = _run(spec)
    assert r.correct, _errors(r)
    cpu_debug = _run(spec, strict_ub=True)  # UB minus the 8 KB reserve, checked at InitBuffer
    assert cpu_debug.category == "ub-overflow", _errors(cpu_debug)
    no_auto_sync = _run(spec, strict_sync=True)  # Duplicate -> Sqrt -> Div without PipeBarrier<PIPE_V>
    assert no_auto_sync.category == "sync-missing", _errors(no_auto_sync)


def test_cann_ops_mse_loss_none_reads_inside_the_padding() -> None:
    root = tree_or_skip(CANN_OPS)
    n = 16380  # not a multiple of 16: the kernel copies 16,384 halves in and out
    spec = _spec(
        root,
        "mse_loss",
        "mse_loss",
        {
            "block_dim": 1,
            "inputs": [
                {"name": "predict", "shape": [n], "dtype": "float16", "init": {"uniform": [-1, 1]}},
                {"name": "label", "shape": [n], "dtype": "float16", "init": {"uniform": [-1, 1]}},
            ],
            "outputs": [{"name": "y", "shape": [n], "dtype": "float16"}],
            "params": ["predict", "label", "y", "workspace", "tiling"],
            "defines": {"DTYPE_Y": "half"},
            "tiling": {"struct": "optiling::MseLossTilingData", "fields": mse_loss_tiling(n, 3)},
            "reference": "d = predict.astype(np.float32) - label.astype(np.float32)\ny = d * d",
            "tolerance": {"rtol": 2.0e-3, "atol": 1.0e-3},
        },
    )
    r = _run(spec)
    assert r.correct, _errors(r)
    exact = _run(spec, strict_gm=True)  # GM buffers of exactly the requested bytes
    assert exact.category == "gm-out-of-bounds", _errors(exact)
    trap = _run(spec, strict_assert=True)  # `tileNum ASSERT(...)` is not C++ once ASSERT expands to code
    assert not trap.compiled and trap.stage_reached == "compile"


def test_cann_ops_mse_loss_mean_relies_on_auto_sync() -> None:
    root = tree_or_skip(CANN_OPS)
    n = 16384
    spec = _spec(
        root,
        "mse_loss",
        "mse_loss",
        {
            "block_dim": 1,
            "inputs": [
                {"name": "predict", "shape": [n], "dtype": "float16", "init": {"uniform": [-1, 1]}},
                {"name": "label", "shape": [n], "dtype": "float16", "init": {"uniform": [-1, 1]}},
            ],
            "outputs": [{"name": "y", "shape": [1], "dtype": "float16"}],
            "params": ["predict", "label", "y", "workspace", "tiling"],
            "defines": {"DTYPE_Y": "half"},
            "tiling": {"struct": "optiling::MseLossTilingData", "fields": mse_loss_tiling(n, 1)},
            "reference": "d = predict.astype(np.float64) - label.astype(np.float64)\ny = np.array([np.mean(d * d)])",
            "tolerance": {"rtol": 5.0e-3, "atol": 1.0e-3},
        },
    )
    r = _run(spec)
    assert r.correct, _errors(r)
    no_auto_sync = _run(spec, strict_sync=True)
    assert no_auto_sync.category == "sync-missing", _errors(no_auto_sync)

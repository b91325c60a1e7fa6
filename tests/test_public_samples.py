"""Public AscendC sample kernels compile unchanged against the emulator headers and pass with our specs.

The kernel sources are NOT in this repository (they are not ours): the test reads them from a fetched snapshot
of `LnickOne/Ascend` (a copy of the Huawei samples tree; `KernelHive/ascendc-skill` for the EvoKernel softmax),
either the bare git mirror under `/work/.mirror/<owner>+<name>/repo` or the extracted corpus under
`~/.cache/ascendc-lsp/corpus/<owner>+<name>/` (`ASCENDC_LSP_SAMPLES_DIR` may point at another checkout of the
LnickOne tree). Without a snapshot the tests skip.
Only the specs (`tests/public_specs/*.yaml`) and the small tiling headers next to them are ours.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from ascendc_lsp.toolchain.base import RunOptions
from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain
from ascendc_lsp.toolchain.spec import load_spec

SPECS = Path(__file__).resolve().parent / "public_specs"
REPO = "LnickOne+Ascend"
INTRO = "AscendC/lesson_01/0_introduction"


@dataclass(frozen=True)
class Sample:
    name: str
    folder: str  # inside the LnickOne/Ascend tree
    files: tuple[str, ...]  # the kernel source first, then the headers it includes
    spec: str  # in tests/public_specs
    extra: tuple[str, ...] = ()  # our own files copied next to the spec (tiling headers)
    repo: str = REPO  # owner+name of the snapshot


SAMPLES = [
    Sample(
        "add_kernellaunch_neo",
        f"{INTRO}/3_add_kernellaunch/AddKernelInvocationNeo",
        ("add_custom.cpp",),
        "add_kernel_invocation_neo.yaml",
    ),
    Sample(
        "mmad_kernellaunch",
        f"{INTRO}/20_mmad_kernellaunch/MmadInvocation",
        ("mmad_custom.cpp", "mmad_custom.h", "mmad_custom_cube_only.h"),
        "mmad_invocation.yaml",
    ),
    Sample(
        "matmul_kernellaunch_neo",
        f"{INTRO}/11_matmul_kernellaunch/MatmulInvocationNeo",
        ("matmul_custom.cpp",),
        "matmul_invocation_neo.yaml",
        ("matmul_sample_tiling.h",),
    ),
    Sample(
        "matmulleakyrelu_kernellaunch",
        f"{INTRO}/13_matmulleakyrelu_kernellaunch/MatmulLeakyReluInvocation",
        ("matmul_leakyrelu_custom.cpp",),
        "matmul_leakyrelu_invocation.yaml",
        ("matmul_cube_tiling.h",),
    ),
    Sample(
        "evokernel_softmax",
        "skills/ascend-kernel-generator/reference/ref_repositories/EvoKernel/ops-kernelbench-910b/SoftmaxCustom/"
        "op_kernel",
        ("softmax_custom.cpp",),
        "evokernel_softmax.yaml",
        ("softmax_custom_tiling.h",),
        "KernelHive+ascendc-skill",
    ),
]


def _tree_roots(repo: str) -> list[Path]:
    roots: list[Path] = []
    env = os.environ.get("ASCENDC_LSP_SAMPLES_DIR")
    if env and repo == REPO:
        roots.append(Path(env))
    # conftest.py sets ASCENDC_CORPUS to the real cache before it points HOME at a temp dir
    roots.append(Path(os.environ.get("ASCENDC_CORPUS", Path.home() / ".cache" / "ascendc-lsp" / "corpus")) / repo)
    return roots


def _git_dirs(repo: str) -> list[Path]:
    return [Path("/work/.mirror") / repo / "repo", Path.home() / ".cache" / "ascendc-lsp" / "mirror" / repo]


def _fetch(sample: Sample, dest: Path) -> str | None:
    """Copy the sample's files into dest; the reason they are unavailable, or None."""
    for root in _tree_roots(sample.repo):
        src = root / sample.folder
        if all((src / f).is_file() for f in sample.files):
            for f in sample.files:
                shutil.copyfile(src / f, dest / f)
            return None
    git = shutil.which("git")
    for gd in _git_dirs(sample.repo):
        if git is None or not gd.is_dir():
            continue
        ok = True
        for f in sample.files:
            r = subprocess.run(
                [git, f"--git-dir={gd}", "show", f"HEAD:{sample.folder}/{f}"],
                capture_output=True,
                check=False,
                timeout=60,
            )
            if r.returncode != 0:
                ok = False
                break
            (dest / f).write_bytes(r.stdout)
        if ok:
            return None
    return (
        f"the public sample {sample.folder} is not available: fetch {sample.repo.replace('+', '/')} (the `fetch` "
        f"tool, or the corpus under ~/.cache/ascendc-lsp/corpus/{sample.repo})"
    )


@pytest.mark.slow
@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
def test_public_sample_passes(sample: Sample, tmp_path: Path) -> None:
    reason = _fetch(sample, tmp_path)
    if reason is not None:
        pytest.skip(reason)
    shutil.copyfile(SPECS / sample.spec, tmp_path / "spec.yaml")
    for f in sample.extra:
        shutil.copyfile(SPECS / f, tmp_path / f)
    r = EmulatorToolchain().run(load_spec(tmp_path / "spec.yaml"), RunOptions(timeout=180))
    problems = [f"{d.severity} {d.category}: {d.message}" for d in r.diagnostics if d.severity == "error"]
    assert r.compiled, problems or r.to_json()
    assert r.correct, problems
    assert not problems
    assert r.estimate is not None and r.estimate.cycles > 0


def test_specs_are_ours_and_complete() -> None:
    """Every spec names a sample, and no kernel source was committed next to the specs."""
    names = {s.spec for s in SAMPLES}
    assert names == {p.name for p in SPECS.glob("*.yaml")}
    assert not list(SPECS.glob("*.cpp")), "public kernel sources must not be committed"

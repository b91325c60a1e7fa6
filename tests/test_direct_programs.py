"""Direct-launch programs of our own (tests/programs/) on the emulator: the ACL runtime subset (return codes,
memcpy kinds and bounds, streams, events), several launches sharing GM, the NPU and CPU-debug branches of a
kernel-launch sample, the sample's scripts, and failures (emulator errors, unsynchronised reads, host access to
device memory, hangs, crashes, a failing verification, a script that needs more than NumPy).

Each program is built once per module (the build cache is keyed on the sources, not on the README or run.sh
the tests rewrite to pick a mode)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ascendc_lsp.toolchain.emulator.build import find_cxx
from ascendc_lsp.toolchain.program.discover import DiscoveryError, discover
from ascendc_lsp.toolchain.program.run import ProgramOptions, ProgramRunResult, run_program

PROGRAMS = Path(__file__).parent / "programs"
pytestmark = pytest.mark.skipif(find_cxx() is None, reason="g++ is needed to build programs")


def line_of(path: Path, needle: str, nth: int = 1) -> int:
    """1-based line of the nth line containing needle."""
    hits = [i + 1 for i, text in enumerate(path.read_text().splitlines()) if needle in text]
    return hits[nth - 1]


def errors(r: ProgramRunResult) -> list[tuple[str, str | None, int, str]]:
    return [
        (str(d.data.get("check") or d.code), d.category, d.span.start.line + 1, d.message)
        for d in r.diagnostics
        if d.severity == "error"
    ]


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., ProgramRunResult]]:
    root = tmp_path_factory.mktemp("probe") / "acl_probe"
    shutil.copytree(PROGRAMS / "acl_probe", root)

    def run(mode: str, trace: Path | None = None) -> ProgramRunResult:
        (root / "README.md").write_text(
            f"# probe\n\n```bash\nmkdir -p build && cd build\ncmake ..\nmake -j\n./demo {mode}\n```\n",
            encoding="utf-8",
        )
        return run_program(root, ProgramOptions(timeout=120, trace_out=trace))

    yield run


@pytest.fixture(scope="module")
def probe_src(probe: Callable[..., ProgramRunResult]) -> Path:
    return PROGRAMS / "acl_probe" / "probe.asc"


def test_two_launches_share_gm_and_every_copy_kind_works(
    probe: Callable[..., ProgramRunResult], tmp_path: Path
) -> None:
    r = probe("ok", tmp_path / "trace.json")
    assert r.compiled and r.ran, r.diagnostics
    assert r.recipe == "readme"
    assert r.verified and r.verification == "program output"
    assert r.correct, (r.stdout, [d.message for d in r.diagnostics])
    assert "[ERROR]" not in r.stdout and "test pass!" in r.stdout
    src = PROGRAMS / "acl_probe" / "probe.asc"
    assert [(ln.launch, ln.kernel, ln.blocks, ln.fault) for ln in r.launches] == [
        (1, "add_scalar", 4, ""),
        (2, "add_scalar", 4, ""),
    ]
    assert Path(r.launches[0].file).name == "probe.asc"
    assert [ln.line for ln in r.launches] == [
        line_of(src, "add_scalar<<<BLOCKS, nullptr, stream>>>(xDev, yDev"),
        line_of(src, "add_scalar<<<BLOCKS, nullptr, stream>>>(yDev, zDev"),
    ]
    assert all(ln.estimate is not None and ln.estimate.cycles > 0 for ln in r.launches)
    assert r.estimate is not None and r.estimate.cycles == sum(
        ln.estimate.cycles for ln in r.launches if ln.estimate
    )
    js = r.to_json()
    assert js["correct"] and len(js["launches"]) == 2 and js["launches"][0]["estimate"]["cycles"] > 0
    json.dumps(js)  # the JSON shape serialises
    # one Perfetto trace: each launch's blocks are their own processes, the second launch after the first
    trace = json.loads((tmp_path / "trace.json").read_text())
    names = {e["args"]["name"] for e in trace["traceEvents"] if e.get("name") == "process_name"}
    assert {"launch 1: block 0 (core 0)", "launch 2: block 3 (core 3)"} <= names
    first = [e["ts"] for e in trace["traceEvents"] if e.get("ph") == "X" and e["pid"] < 200000]
    second = [e["ts"] for e in trace["traceEvents"] if e.get("ph") == "X" and e["pid"] >= 200000]
    assert first and second and min(second) >= max(first)


def test_host_api_misuse_returns_the_documented_codes_and_is_reported(
    probe: Callable[..., ProgramRunResult], probe_src: Path
) -> None:
    r = probe("errors")
    # the program checks every return code itself: all as documented
    assert "[ERROR]" not in r.stdout, r.stdout
    assert (
        "count>destMax: 100000" in r.stdout and "device: 107001" in r.stdout and "stream: 107000" in r.stdout
    )
    found = {(check, cat, line) for check, cat, line, _msg in errors(r)}
    expected = {
        ("acl-param", "host-runtime-api", line_of(probe_src, '"count>destMax"')),
        ("acl-memcpy-kind", "host-runtime-api", line_of(probe_src, 'expect("kind"')),
        ("acl-memcpy-bounds", "gm-out-of-bounds", line_of(probe_src, '"d2h-past-end"')),
        ("acl-free", "host-runtime-api", line_of(probe_src, '"free-host"')),
        ("acl-free", "host-runtime-api", line_of(probe_src, '"double-free"')),
        ("acl-device", "host-runtime-api", line_of(probe_src, 'expect("device"')),
        ("acl-stream", "host-runtime-api", line_of(probe_src, 'expect("stream"')),
    }
    assert expected <= found, found
    # the sample printed "test pass", but the host misuse makes it NOT CORRECT
    assert "test pass!" in r.stdout and not r.correct


def test_kernels_load_and_launch_by_name(probe: Callable[..., ProgramRunResult], probe_src: Path) -> None:
    r = probe("byname")
    assert "[ERROR]" not in r.stdout, r.stdout  # every return code as documented, the result right
    (ln,) = r.launches
    assert ln.kernel == "add_scalar" and ln.line == line_of(
        probe_src, 'expect("launch", aclrtLaunchKernelWithConfig'
    )
    found = {(check, line) for check, _cat, line, _msg in errors(r)}
    assert ("acl-kernel", line_of(probe_src, '"no_such_kernel"')) in found
    assert ("acl-kernel-args", line_of(probe_src, '"short-args"')) in found


def test_a_kernel_overrunning_its_device_buffer_is_a_gm_out_of_bounds_error(
    probe: Callable[..., ProgramRunResult],
) -> None:
    r = probe("oob")
    assert "sync: 507015" in r.stdout  # aclrtSynchronizeStream returned the fault, as on the NPU
    assert r.launches[0].fault == "507015"
    gm = [d for d in r.diagnostics if d.category == "gm-out-of-bounds" and d.severity == "error"]
    assert gm, r.diagnostics
    assert Path(str(gm[0].file)).name == "probe.asc"
    assert gm[0].data.get("launch") == 1
    assert "aclrtMalloc@probe.asc" in gm[0].message  # the buffer is named by its allocation site
    assert "test pass!" in r.stdout and not r.correct


def test_copying_results_back_before_synchronising_is_reported(
    probe: Callable[..., ProgramRunResult], probe_src: Path
) -> None:
    r = probe("nosync")
    hits = [e for e in errors(r) if e[0] == "launch-unsynced"]
    assert hits and hits[0][1] == "sync-missing"
    assert hits[0][2] == line_of(probe_src, "before aclrtSynchronizeStream")
    assert "aclrtSynchronizeStream" in hits[0][3]
    assert not r.correct


def test_host_code_dereferencing_device_memory_is_reported(
    probe: Callable[..., ProgramRunResult], probe_src: Path
) -> None:
    r = probe("hostderef")
    hits = [e for e in errors(r) if e[0] == "host-device-access"]
    assert hits, r.diagnostics
    assert hits[0][2] == line_of(probe_src, 'printf("%f\\n", xDev[1])')  # the faulting host line
    assert "not addressable from the host" in hits[0][3]
    assert f"probe.asc:{line_of(probe_src, 'aclrtMalloc((void**)&xDev')}" in hits[0][3]  # and the allocation
    assert not r.ran and not r.correct
    assert not any(d.code == "crash" for d in r.diagnostics)  # the named cause replaces a bare "crashed"


def test_a_hung_kernel_returns_aicore_timeout_from_the_sync(probe: Callable[..., ProgramRunResult]) -> None:
    r = probe("hang")
    assert "sync: 507014" in r.stdout
    assert r.launches[0].fault == "507014"
    assert any(d.category == "sync-deadlock" and d.code == "507014" for d in r.diagnostics)
    assert not r.correct


def test_a_crashing_kernel_is_reported_with_its_launch(probe: Callable[..., ProgramRunResult]) -> None:
    r = probe("crash")
    crash = [d for d in r.diagnostics if d.data.get("check") == "crash"]
    assert crash and crash[0].code == "507015"
    program = next(s for s in r.steps if s.kind == "program")
    assert program.returncode != 0
    assert not r.ran and not r.correct


def test_a_host_crash_is_reported_at_its_line(
    probe: Callable[..., ProgramRunResult], probe_src: Path
) -> None:
    r = probe("hostcrash")
    hits = [e for e in errors(r) if e[0] == "host-crash"]
    assert hits and hits[0][2] == line_of(probe_src, "nowhere[argc] = 1")
    assert "outside any kernel launch" in hits[0][3] and "SIGSEGV" in hits[0][3]
    assert not r.ran and not r.correct


def test_a_program_that_never_ends_is_stopped_and_said(probe_src: Path, tmp_path: Path) -> None:
    root = tmp_path / "acl_probe"
    shutil.copytree(PROGRAMS / "acl_probe", root)
    (root / "README.md").write_text(
        "```bash\nmkdir -p build && cd build\n./demo spin\n```\n", encoding="utf-8"
    )
    r = run_program(root, ProgramOptions(timeout=20, compile_timeout=600))
    assert [d.code for d in r.diagnostics if d.severity == "error"] == ["timeout"]
    assert "did not finish within 20 s" in r.diagnostics[0].message
    assert not r.ran and not r.correct


def test_a_launch_writing_freed_device_memory_is_caught(probe: Callable[..., ProgramRunResult]) -> None:
    r = probe("usefree")
    gm = [d for d in r.diagnostics if d.category == "gm-out-of-bounds"]
    assert gm and "not inside any GM buffer" in gm[0].message
    assert not r.correct


# ------------------------------------------------------------------------------------------- kernel-launch layout
@pytest.fixture(scope="module")
def kernel_lib(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("klib") / "kernel_lib"
    shutil.copytree(PROGRAMS / "kernel_lib", root)
    return root


def _reset(root: Path) -> None:
    for rel in ("run.sh", "scripts/gen_data.py", "scripts/verify_result.py"):
        shutil.copy2(PROGRAMS / "kernel_lib" / rel, root / rel)


def test_npu_branch_with_aclrt_launch_kernel_and_numpy_scripts(kernel_lib: Path) -> None:
    _reset(kernel_lib)
    layout = discover(kernel_lib)
    assert layout.recipe == "run.sh" and layout.name == "probe_bbit"
    assert [s.name for s in layout.sources] == ["main.cpp", "scale_custom.cpp"]
    assert [s.name for s in layout.kernel_sources] == ["scale_custom.cpp"]
    r = run_program(kernel_lib, ProgramOptions(timeout=120))
    assert r.correct, ([s.to_json() for s in r.steps], [d.message for d in r.diagnostics])
    assert "npu branch done" in r.stdout
    assert [s.kind for s in r.steps] == ["python", "program", "verify"]
    assert r.steps[2].passed and "test pass" in r.steps[2].output
    assert r.verification == "scripts/verify_result.py"
    (ln,) = r.launches
    assert ln.kernel == "scale_custom" and ln.blocks == 4
    main = kernel_lib / "main.cpp"
    assert Path(ln.file).name == "main.cpp" and ln.line == line_of(main, "ACLRT_LAUNCH_KERNEL(scale_custom)")


def test_cpu_debug_branch_with_icpu_run_kf(kernel_lib: Path) -> None:
    _reset(kernel_lib)
    r = run_program(kernel_lib, ProgramOptions(timeout=120, run_mode="cpu"))
    assert r.correct, ([s.to_json() for s in r.steps], [d.message for d in r.diagnostics])
    assert "cpu branch done" in r.stdout
    (ln,) = r.launches
    assert ln.kernel == "scale_custom" and ln.line == line_of(
        kernel_lib / "main.cpp", "ICPU_RUN_KF(scale_custom"
    )


def test_a_failing_verify_script_makes_the_run_not_correct_with_its_reason(kernel_lib: Path) -> None:
    _reset(kernel_lib)
    run_sh = kernel_lib / "run.sh"
    run_sh.write_text(run_sh.read_text().replace("scripts/gen_data.py", "scripts/gen_data.py --wrong-golden"))
    r = run_program(kernel_lib, ProgramOptions(timeout=120))
    assert r.ran and r.verified and not r.correct
    verify = [d for d in r.diagnostics if d.code == "verify"]
    assert verify and "data index: 000100" in verify[0].message
    assert verify[0].category == "precision-mismatch"
    assert r.stage_reached == "verify"


def test_a_script_that_needs_more_than_numpy_is_skipped_and_said(kernel_lib: Path) -> None:
    _reset(kernel_lib)
    verify = kernel_lib / "scripts" / "verify_result.py"
    verify.write_text("import sys\nimport numpy as np\nimport torch\n" + verify.read_text())
    r = run_program(kernel_lib, ProgramOptions(timeout=120))
    step = next(s for s in r.steps if "verify_result.py" in s.step)
    assert step.skipped is not None and "needs torch" in step.skipped
    assert any("needs torch" in n for n in r.notes)
    assert r.ran and not r.verified and not r.correct


def test_paths_that_are_not_programs_get_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DiscoveryError, match="no such file"):
        discover(tmp_path / "missing")
    (tmp_path / "k.cpp").write_text("__global__ void k() {}\n")
    with pytest.raises(DiscoveryError, match="no source defines main"):
        discover(tmp_path)
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(DiscoveryError, match="not a program source"):
        discover(tmp_path / "notes.txt")


def test_cli_runs_a_sample_folder(kernel_lib: Path) -> None:
    _reset(kernel_lib)
    cli = [sys.executable, "-m", "ascendc_lsp", "run"]
    done = subprocess.run(
        [*cli, str(kernel_lib), "--format", "json"], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    js = json.loads(done.stdout)
    assert js["correct"] and js["program"] == "probe_bbit" and js["launches"][0]["kernel"] == "scale_custom"
    text = subprocess.run([*cli, str(kernel_lib)], capture_output=True, text=True, timeout=600)
    assert text.returncode == 0 and ": CORRECT" in text.stdout.splitlines()[0]
    bad = subprocess.run([*cli, str(kernel_lib / "nope")], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "no such file" in bad.stderr
    bad_define = subprocess.run(
        [*cli, str(kernel_lib), "-D", "oops"], capture_output=True, text=True, timeout=60
    )
    assert bad_define.returncode == 2 and "NAME=VALUE" in bad_define.stderr

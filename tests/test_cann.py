"""CANN backend against a FAKE toolkit built in tmp_path (no real CANN here).

Every executable below is a fake: `fake bisheng` prints a recorded compiler error, `fake cmake` "builds" a
`fake cann_kernel` (a Python script) that imitates the CPU twin's output and writes the output files. These
exercise discovery, version parsing, error wording, command construction, log parsing and location mapping,
and the run/verify path; they say nothing about whether real CANN accepts the generated files
(docs/cann-backend.md lists what remains untested).
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from ascendc_lsp.toolchain.base import RunOptions
from ascendc_lsp.toolchain.cann import (
    CannNotFound,
    CannToolchain,
    compile_command,
    compile_source,
    cpu_harness,
    detect_version,
    discover,
    log_to_diagnostics,
    npu_harness,
    parse_version_text,
    toolkit_environment,
)
from ascendc_lsp.toolchain.spec import spec_from_dict

KERNEL = """\
#include "kernel_operator.h"
// 中文注释: the column mapping must count UTF-16 units
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    float a = 0.5;  float b = sqrtf(a);
}
"""

# The message text is recorded from a public log (ascendc-err-001 in real-errors.dev.jsonl); the path is ours.
FAKE_BISHENG_ERROR = (
    "{src}:4:32: error: use of undeclared identifier 'sqrtf'; did you mean 'sqrt'?\n1 error generated.\n"
)


def _exe(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def make_fake_toolkit(
    root: Path, version: str = "8.0.RC1", compiler: bool = True, cpu_lib: bool = True
) -> Path:
    """A fake toolkit tree: <root>/Ascend/ascend-toolkit/<version> with a `latest` symlink."""
    base = root / "Ascend" / "ascend-toolkit"
    home = base / version
    home.mkdir(parents=True)
    (base / "latest").symlink_to(home)
    (home / "set_env.sh").write_text(
        f'export ASCEND_HOME_PATH="{home}"\nexport FAKE_CANN_SOURCED=1\n', encoding="utf-8"
    )
    (home / "compiler").mkdir()
    (home / "compiler" / "version.info").write_text("Version=7.0.0.5.242\n", encoding="utf-8")
    (home / "x86_64-linux").mkdir()
    (home / "x86_64-linux" / "ascend_toolkit_install.info").write_text(
        f"package_name=Ascend-cann-toolkit\nversion={version}\narch=x86_64\n", encoding="utf-8"
    )
    tikcfw = home / "compiler" / "tikcpp" / "tikcfw"
    (tikcfw / "impl").mkdir(parents=True)
    (tikcfw / "interface").mkdir()
    (tikcfw / "kernel_operator.h").write_text("// fake header\n", encoding="utf-8")
    if compiler:
        # fake bisheng: prints the recorded error about the file it was given, exits 1
        _exe(
            home / "compiler" / "ccec_compiler" / "bin" / "bisheng",
            "#!/bin/sh\n"
            'for a in "$@"; do case "$a" in *.cpp) src="$a";; esac; done\n'
            'case "$src" in *bad*) printf "%s" "'
            + FAKE_BISHENG_ERROR.replace("{src}", "$src").replace("\n", "\\n")
            + '" >&2; exit 1;; esac\n'
            "exit 0\n",
        )
    if cpu_lib:
        (home / "tools" / "tikicpulib" / "lib" / "cmake").mkdir(parents=True)
    cmake_dir = home / "tools" / "tikcpp" / "ascendc_kernel_cmake"
    cmake_dir.mkdir(parents=True)
    (cmake_dir / "ascendc.cmake").write_text("# fake\n", encoding="utf-8")
    return home


# --------------------------------------------------------------------------------------------------------
# discovery and versions
# --------------------------------------------------------------------------------------------------------


def test_discover_via_home_default(tmp_path: Path) -> None:
    home = make_fake_toolkit(tmp_path)
    inst = discover(env={"HOME": str(tmp_path)})
    assert inst.how.startswith("default:") and inst.home == tmp_path / "Ascend/ascend-toolkit/latest"
    assert inst.compiler is not None and inst.compiler.name == "bisheng"
    assert inst.tikicpulib == inst.home / "tools/tikicpulib/lib"
    assert inst.header_dirs == [inst.home / "compiler/tikcpp/tikcfw"]
    assert inst.kernel_cmake_dir is not None
    assert inst.version is not None and inst.version.text == "8.0.RC1"
    assert inst.version.parts == (8, 0) and inst.version.major == 8 and inst.version.at_least(7)
    assert "CANN 8.0.RC1" in inst.describe()
    assert inst.set_env is not None and inst.set_env.resolve() == (home / "set_env.sh").resolve()


def test_discover_prefers_ascend_home_path(tmp_path: Path) -> None:
    home = make_fake_toolkit(tmp_path / "a", version="8.5.1")
    make_fake_toolkit(tmp_path / "b")
    inst = discover(env={"ASCEND_HOME_PATH": str(home), "HOME": str(tmp_path / "b")})
    assert inst.how == "ASCEND_HOME_PATH" and inst.home == home
    # an explicit setting beats the environment
    inst2 = discover(
        cann_home=tmp_path / "b/Ascend/ascend-toolkit/latest", env={"ASCEND_HOME_PATH": str(home)}
    )
    assert inst2.how == "setting"


def test_missing_pieces_have_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(
        CannNotFound, match="ASCEND_HOME_PATH=/nonexistent/x is not a directory; is CANN installed"
    ):
        discover(env={"ASCEND_HOME_PATH": "/nonexistent/x"})
    with pytest.raises(CannNotFound, match="no CANN toolkit found: tried"):
        discover(env={"HOME": str(tmp_path)}, roots=(str(tmp_path / "nowhere"),))
    home = make_fake_toolkit(tmp_path, compiler=False, cpu_lib=False)
    inst = discover(env={"ASCEND_HOME_PATH": str(home)})
    with pytest.raises(
        CannNotFound, match=rf"ASCEND_HOME_PATH={home} has no bisheng or ccec .*is CANN installed\?"
    ):
        inst.require_compiler()
    with pytest.raises(CannNotFound, match="has no tools/tikicpulib/lib"):
        inst.require_tikicpulib()
    ok, reason = CannToolchain(
        env={"ASCEND_HOME_PATH": str(home), "PATH": os.environ.get("PATH", "")}
    ).available()
    assert not ok and "has no bisheng or ccec" in reason


def test_version_texts(tmp_path: Path) -> None:
    assert parse_version_text("Version=7.0.0.5.242\n") == "7.0.0.5.242"
    assert parse_version_text("runtime_running_version=[7.0.RC1.10:6.3.RC1]\n") == "7.0.RC1.10"
    assert parse_version_text("package_name=x\nversion=8.1.RC1\n") == "8.1.RC1"
    assert parse_version_text("nothing here") is None
    # only a directory name to go by
    bare = tmp_path / "cann-8.5.1"
    bare.mkdir()
    v = detect_version(bare)
    assert v is not None and v.text == "8.5.1" and v.source == "path"
    assert detect_version(tmp_path / "empty-dir-that-does-not-exist") is None


def test_toolkit_environment_sources_set_env(tmp_path: Path) -> None:
    home = make_fake_toolkit(tmp_path)
    inst = discover(env={"ASCEND_HOME_PATH": str(home)})
    env = toolkit_environment(inst, {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path)})
    assert env.get("FAKE_CANN_SOURCED") == "1"
    assert env["ASCEND_HOME_PATH"] == str(home)
    assert env["PATH"].split(os.pathsep)[0] == str(home / "compiler/ccec_compiler/bin")
    assert str(home / "tools/tikicpulib/lib") in env["LD_LIBRARY_PATH"]


# --------------------------------------------------------------------------------------------------------
# device compile with the fake bisheng
# --------------------------------------------------------------------------------------------------------


def test_compile_command_flags(tmp_path: Path) -> None:
    home = make_fake_toolkit(tmp_path)
    inst = discover(env={"ASCEND_HOME_PATH": str(home)})
    cmd = compile_command(inst, tmp_path / "k.cpp", "Ascend910B", defines={"DTYPE_X": "half", "FLAG": None})
    assert cmd[0].endswith("bisheng") and "--cce-aicore-arch=dav-c220-vec" in cmd
    assert (
        f"-I{home / 'compiler/tikcpp/tikcfw'}" in cmd and f"-I{home / 'compiler/tikcpp/tikcfw/impl'}" in cmd
    )
    assert "-DDTYPE_X=half" in cmd and "-DFLAG" in cmd
    assert "--cce-aicore-arch=dav-m200" in compile_command(inst, tmp_path / "k.cpp", "Ascend310P")


def test_compile_source_maps_errors_from_a_temp_copy(tmp_path: Path) -> None:
    home = make_fake_toolkit(tmp_path)
    inst = discover(env={"ASCEND_HOME_PATH": str(home)})
    src = tmp_path / "ops" / "bad_kernel.cpp"
    src.parent.mkdir()
    src.write_text(KERNEL, encoding="utf-8")
    res = compile_source(src, inst=inst, copy_to_temp=True)
    assert not res.ok
    (d,) = res.diagnostics
    assert d.file == str(src), "the temp copy is mapped back to the user's file by basename"
    assert d.span.start.line == 3 and d.span.start.character == 31
    assert d.severity == "error" and "sqrtf" in d.message and d.source == "ascendc-cann"
    assert d.data["kind"] == "compiler-diagnostic" and d.data["api"] == "sqrtf"
    assert "ascendc-cann-" in d.data["extra"]["origin_location"]

    good = tmp_path / "ops" / "good_kernel.cpp"
    good.write_text(KERNEL, encoding="utf-8")
    assert compile_source(good, inst=inst).ok


def test_utf16_columns_from_the_file(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    src.write_text("int a;\n/* 中文 */ int b = sqrtf(1);\n", encoding="utf-8")
    # byte column of 'sqrtf' is 21 (1-based): "/* " 3 + 6 bytes + " */ int b = " 12
    (d,) = log_to_diagnostics(f"{src}:2:22: error: use of undeclared identifier 'sqrtf'\n", src)
    assert d.span.start.line == 1 and d.span.start.character == 17


def test_runtime_log_to_diagnostics_keeps_codes(tmp_path: Path) -> None:
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    fixture = Path(__file__).parent / "fixtures" / "logs" / "ptoas_pr1161_ub_oob.log"
    (d,) = log_to_diagnostics(fixture.read_text(encoding="utf-8"), src)
    assert d.code == "507035" and d.file == str(src) and d.span.start.line == 0
    assert d.data["errorStr"] == "VEC instruction error: the ub address out of bounds."
    assert d.data["core_id"] == 36 and d.data["retCode"] == "0x31"
    assert d.data["location"].endswith("Divs/divs/main.cpp:114")


# --------------------------------------------------------------------------------------------------------
# harness generation and the run path with a fake cmake + fake CPU twin binary
# --------------------------------------------------------------------------------------------------------


def _spec(tmp_path: Path) -> object:
    src = tmp_path / "ops" / "add_custom.cpp"
    src.parent.mkdir(exist_ok=True)
    src.write_text(KERNEL, encoding="utf-8")
    return spec_from_dict(
        {
            "kernel": "add_custom",
            "source": "ops/add_custom.cpp",
            "block_dim": 4,
            "inputs": [
                {"name": "x", "shape": [64], "dtype": "float32"},
                {"name": "y", "shape": [64], "dtype": "float32"},
            ],
            "outputs": [{"name": "z", "shape": [64], "dtype": "float32"}],
            "reference": "z = x + y",
        },
        base_dir=tmp_path,
    )


def test_harness_texts(tmp_path: Path) -> None:
    spec = _spec(tmp_path)
    cpu = cpu_harness(spec, tmp_path / "ops/add_custom.cpp")  # type: ignore[arg-type]
    assert '#include "tikicpulib.h"' in cpu and "AscendC::GmAlloc(256)" in cpu
    assert "AscendC::SetKernelMode(KernelMode::AIV_MODE);" in cpu
    assert "ICPU_RUN_KF(add_custom, 4, cann_x, cann_y, cann_z);" in cpu
    npu = npu_harness(spec)  # type: ignore[arg-type]
    assert "ACLRT_LAUNCH_KERNEL(add_custom)(4, stream, dev_x, dev_y, dev_z);" in npu
    assert "aclrtSynchronizeStream(stream)" in npu and '"aclrtlaunch_add_custom.h"' in npu


# The fake binaries run in the sandbox, which shows them the system directories and the toolkit, not this
# interpreter's prefix: the fake CPU twin is a small C program built here, the other fakes are shell scripts.
FAKE_KERNEL_OK_C = """\
#include <stdio.h>
int main(void) {
    float x[64], y[64], z[64];
    FILE* fx = fopen("x.bin", "rb"); FILE* fy = fopen("y.bin", "rb");
    if (!fx || !fy || fread(x, 4, 64, fx) != 64 || fread(y, 4, 64, fy) != 64) return 2;
    for (int i = 0; i < 64; ++i) z[i] = x[i] + y[i];
    FILE* fz = fopen("z.out.bin", "wb"); fwrite(z, 4, 64, fz); fclose(fz);
    puts("[SUCCESS][AIV_0][pid 1] exit success!");
    return 0;
}
"""

FAKE_KERNEL_TWIN_ERROR = """\
#!/bin/sh
echo "[ERROR][Block_1][AIV_0][{src}:4][CheckParams][pid 7] Failed to check blockCount value in DataCopy, \
its valid range is 0 ~ 4095, current value is 5000." >&2
exit 134
"""


def _fake_kernel_ok(tmp_path: Path) -> Path:
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler to build the fake CPU twin")
    src = tmp_path / "fake_twin.c"
    src.write_text(FAKE_KERNEL_OK_C, encoding="utf-8")
    out = tmp_path / "fakebin" / "fake_cann_kernel"
    out.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([cc, "-O1", "-o", str(out), str(src)], check=True)
    return out


def _fake_cmake(tmp_path: Path, kernel: Path | str) -> Path:
    """fake cmake: configure is a no-op; --build copies the fake kernel (a program or a script) to build/cann_kernel.
    It lives next to the fake kernel, a directory the toolchain lets cmake read."""
    if isinstance(kernel, str):
        kernel = _exe(tmp_path / "fakebin" / "fake_cann_kernel", kernel)
    return _exe(
        tmp_path / "fakebin" / "cmake",
        "#!/bin/sh\n"
        'if [ "$1" = "--build" ]; then\n'
        f'    cp "{kernel}" "$2/cann_kernel" && echo "[100%] Built target cann_kernel"\n'
        "fi\n"
        "exit 0\n",
    )


def test_run_cpu_twin_with_fakes_verifies_outputs(tmp_path: Path) -> None:
    home = make_fake_toolkit(tmp_path)
    cmake = _fake_cmake(tmp_path, _fake_kernel_ok(tmp_path))
    tc = CannToolchain(
        env={"ASCEND_HOME_PATH": str(home), "PATH": os.environ.get("PATH", "")}, cmake=str(cmake)
    )
    assert tc.available()[0]
    res = tc.run(_spec(tmp_path), RunOptions(keep_dir=tmp_path / "work"))  # type: ignore[arg-type]
    assert res.compiled and res.ran and res.correct, [d.message for d in res.diagnostics]
    assert res.stage_reached == "done" and res.mismatches == 0 and res.backend == "cann-cpu"
    cml = (tmp_path / "work" / "CMakeLists.txt").read_text(encoding="utf-8")
    assert "find_package(tikicpulib REQUIRED)" in cml and "ASCENDC_CPU_DEBUG" in cml
    assert "tikicpulib::${SOC_VERSION}" in cml and '"Ascend910B1"' in cml


def test_run_cpu_twin_error_is_a_located_diagnostic(tmp_path: Path) -> None:
    home = make_fake_toolkit(tmp_path)
    spec = _spec(tmp_path)
    src = tmp_path / "ops" / "add_custom.cpp"
    # the twin reports the kernel from a copy in another directory: mapped back by basename
    cmake = _fake_cmake(tmp_path, FAKE_KERNEL_TWIN_ERROR.replace("{src}", "/tmp/elsewhere/add_custom.cpp"))
    tc = CannToolchain(
        env={"ASCEND_HOME_PATH": str(home), "PATH": os.environ.get("PATH", "")}, cmake=str(cmake)
    )
    res = tc.run(spec, RunOptions(keep_dir=tmp_path / "work"))  # type: ignore[arg-type]
    assert res.compiled and not res.ran and not res.correct and res.exit_code == 134
    (d,) = res.errors()
    assert d.file == str(src.resolve()) and d.span.start.line == 3
    assert d.data["kind"] == "cpu-twin" and d.data["block"] == 1 and d.data["api"] == "DataCopy"


def test_run_without_tikicpulib_stops_at_compile(tmp_path: Path) -> None:
    home = make_fake_toolkit(tmp_path, cpu_lib=False)
    tc = CannToolchain(
        env={"ASCEND_HOME_PATH": str(home), "PATH": os.environ.get("PATH", "")}, cmake="/bin/true"
    )
    res = tc.run(_spec(tmp_path), RunOptions(keep_dir=tmp_path / "work"))  # type: ignore[arg-type]
    assert not res.compiled and res.stage_reached == "compile"
    (d,) = res.diagnostics
    assert "has no tools/tikicpulib/lib" in d.message and d.category == "toolchain-env"


def test_bad_mode() -> None:
    with pytest.raises(ValueError):
        CannToolchain(mode="gpu")

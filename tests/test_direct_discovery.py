"""Finding what a direct-launch program is made of and how its sample runs it (toolchain/program/cmake.py,
discover.py, scripts.py): pure Python, no compiler."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from ascendc_lsp.toolchain.program.cmake import CMakeError, read_project
from ascendc_lsp.toolchain.program.discover import (
    DiscoveryError,
    discover,
    readme_recipe,
    runsh_arguments,
    runsh_recipe,
)
from ascendc_lsp.toolchain.program.scripts import argument_roles, required_modules, verify_arguments


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return root


CMAKE = """
cmake_minimum_required(VERSION 3.16)
set(RUN_MODE "npu" CACHE STRING "cpu/sim/npu")
set(SCENARIO_NUM "1" CACHE STRING "scenario")
set(CANN "/usr/local/Ascend" CACHE STRING "toolkit")
file(GLOB KERNEL_FILES ${CMAKE_CURRENT_SOURCE_DIR}/k_*.cpp)
if("${RUN_MODE}" STREQUAL "cpu")
    add_library(kern SHARED ${KERNEL_FILES})
elseif("${RUN_MODE}" STREQUAL "sim" OR "${RUN_MODE}" STREQUAL "npu")
    include(cmake/npu.cmake)
else()
    message(FATAL_ERROR "invalid RUN_MODE: ${RUN_MODE}")
endif()
if(NOT SCENARIO_NUM MATCHES "^[1-3]$")
    message(FATAL_ERROR "SCENARIO_NUM must be 1..3, got ${SCENARIO_NUM}")
endif()
set(SOCS "A" "B")
add_executable(demo main.cpp)
target_compile_definitions(demo PRIVATE
    SCENARIO=${SCENARIO_NUM}
    SOC_NAME="${RUN_MODE}"
    $<$<BOOL:$<IN_LIST:B,${SOCS}>>:HAS_B>
    $<$<STREQUAL:${RUN_MODE},cpu>:CPU_ONLY>
)
target_include_directories(demo PRIVATE inc)
target_link_libraries(demo PRIVATE kern m)
"""


def test_cmake_reader_follows_the_sample_subset(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "CMakeLists.txt": CMAKE,
            "cmake/npu.cmake": "ascendc_library(kern SHARED ${KERNEL_FILES})\n",
            "main.cpp": "int main() {}",
            "k_add.cpp": "",
            "k_mul.cpp": "",
            "other.cpp": "",
        },
    )
    p = read_project(tmp_path, {"RUN_MODE": "npu"})
    demo = p.targets["demo"]
    assert [s.name for t in p.closure(demo) for s in t.sources] == ["main.cpp", "k_add.cpp", "k_mul.cpp"]
    assert p.targets["kern"].kind == "ascendc_library"
    assert demo.defines == {"SCENARIO": "1", "SOC_NAME": '"npu"', "HAS_B": None}
    assert demo.include_dirs == [tmp_path.resolve() / "inc"]
    cpu = read_project(tmp_path, {"RUN_MODE": "cpu", "SCENARIO_NUM": "3"})
    assert cpu.targets["kern"].kind == "library" and cpu.targets["demo"].defines["CPU_ONLY"] is None
    assert cpu.targets["demo"].defines["SCENARIO"] == "3"  # -D beats the CACHE default
    with pytest.raises(CMakeError, match=r"refuses this configuration: SCENARIO_NUM must be 1\.\.3, got 9"):
        read_project(tmp_path, {"SCENARIO_NUM": "9"})
    with pytest.raises(CMakeError, match="invalid RUN_MODE: gpu"):
        read_project(tmp_path, {"RUN_MODE": "gpu"})


def test_unterminated_cmake_is_a_clear_error(tmp_path: Path) -> None:
    write(tmp_path, {"CMakeLists.txt": "add_executable(demo main.cpp\n"})
    with pytest.raises(CMakeError, match="unterminated command"):
        read_project(tmp_path)


def test_readme_recipe(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "README.md": (
                "# x\n\n```bash\npip install numpy\n```\n\n"
                "```bash\nSCENARIO_NUM=2  # pick one\nmkdir -p build && cd build;\n"
                "cmake -DCMAKE_ASC_ARCHITECTURES=dav-2201 -DSCENARIO_NUM=$SCENARIO_NUM ..;make -j;\n"
                "python3 ../scripts/gen_data.py -scenarioNum=$SCENARIO_NUM\n./demo\n"
                "python3 ../scripts/verify_result.py output/output.bin output/golden.bin -scenarioNum=$SCENARIO_NUM\n```\n"
            )
        },
    )
    rec = readme_recipe(tmp_path)
    assert rec is not None
    assert rec.cmake_defs == {"CMAKE_ASC_ARCHITECTURES": "dav-2201", "SCENARIO_NUM": "2"}
    assert [(s.kind, s.argv, s.cwd) for s in rec.steps] == [
        ("mkdir", ["build"], "."),
        ("python", ["../scripts/gen_data.py", "-scenarioNum=2"], "build"),
        ("program", [], "build"),
        ("python", ["../scripts/verify_result.py", "output/output.bin", "output/golden.bin", "-scenarioNum=2"], "build"),
    ]


def test_readme_recipe_pairs_indented_fences_and_info_strings(tmp_path: Path) -> None:
    # a layout block whose fence carries an info string after a space, prose naming ./demo between blocks, and
    # the run block indented inside a list item (the devkit samples' READMEs)
    write(
        tmp_path,
        {
            "README.md": (
                "``` text\n├── demo.asc\n```\n\nRun ./demo after the build.\n\n"
                "- run\n\n  ```bash\n  mkdir -p build && cd build;\n  cmake ..;make -j;\n"
                "  python3 ../scripts/gen_data.py\n  ./demo\n  python3 ../scripts/verify_result.py out.bin\n  ```\n"
            )
        },
    )
    rec = readme_recipe(tmp_path)
    assert rec is not None
    assert [(s.kind, s.argv, s.cwd) for s in rec.steps] == [
        ("mkdir", ["build"], "."),
        ("python", ["../scripts/gen_data.py"], "build"),
        ("program", [], "build"),
        ("python", ["../scripts/verify_result.py", "out.bin"], "build"),
    ]


def test_runsh_recipe_skips_the_build_and_profiler_branches(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "run.sh": (
                "CURRENT_DIR=$(\n    cd $(dirname ${BASH_SOURCE:-$0})\n    pwd\n)\nset -e\nrm -rf build out\nmkdir -p build\n"
                "cmake -B build -DRUN_MODE=${RUN_MODE}\ncmake --build build -j\nmkdir -p input output\n"
                "python3 scripts/gen_data.py\nfile_path=output_msg.txt\n(\n"
                '    if [[ "$RUN_WITH_TOOLCHAIN" -eq 1 ]]; then\n        msprof op --application=./app | tee $file_path\n'
                "    else\n        ./app | tee $file_path\n    fi\n)\n"
                "python3 scripts/verify_result.py output/output_z.bin output/golden.bin\n"
            )
        },
    )
    rec = runsh_recipe(tmp_path)
    assert rec is not None and rec.program_names == {"app"}
    assert [(s.kind, s.argv, s.cwd, s.tee) for s in rec.steps] == [
        ("mkdir", ["input", "output"], ".", None),
        ("python", ["scripts/gen_data.py"], ".", None),
        ("program", [], ".", "output_msg.txt"),
        ("python", ["scripts/verify_result.py", "output/output_z.bin", "output/golden.bin"], ".", None),
    ]


def test_runsh_positional_arguments_come_from_the_readme_above_the_sample(tmp_path: Path) -> None:
    """The older ccec samples: run.sh takes the kernel name as $1 (`-Dsmoke_testcase=$1`, `./${1}_${4}`) and
    a README one folder up calls it per sample, once per run mode."""
    write(
        tmp_path,
        {
            "readme.md": (
                "```\nbash run.sh [KERNEL_NAME] [SOC_VERSION] [CORE_TYPE] [RUN_MODE]\n```\n"
                "```\n(cd Scale; bash run.sh scale_custom ascend910 AiCore cpu)\n"
                "(cd Scale; bash run.sh scale_custom ascend910 AiCore npu)  # on the device\n"
                "(cd Other; bash run.sh other_custom ascend910 AiCore npu)\n```\n"
            ),
            "Scale/run.sh": (
                "FILE_NAME=$1\nRUN_MODE=$4\npython3 $FILE_NAME.py\n"
                "cmake .. -Dsmoke_testcase=$1 -Dproduct_type=$2 -Dcore_type=$3\n./${1}_${4}\n"
            ),
            "Scale/CMakeLists.txt": (
                "add_executable(${smoke_testcase}_cpu ${CMAKE_SOURCE_DIR}/main.cpp ${CMAKE_SOURCE_DIR}/${smoke_testcase}.cpp)\n"
            ),
            "Scale/main.cpp": "int main() {}",
            "Scale/scale_custom.cpp": "extern \"C\" __global__ __aicore__ void scale_custom() {}",
            "Scale/scale_custom.py": "print('data')",
        },
    )
    sample = tmp_path / "Scale"
    assert runsh_arguments(sample, "npu") == ["scale_custom", "ascend910", "AiCore", "npu"]
    assert runsh_arguments(sample, "cpu") == ["scale_custom", "ascend910", "AiCore", "cpu"]
    assert runsh_arguments(tmp_path / "Other") == ["other_custom", "ascend910", "AiCore", "npu"]
    assert runsh_arguments(tmp_path / "Third") == []  # a sample the README never calls
    layout = discover(sample)
    assert layout.recipe == "run.sh" and layout.name == "scale_custom_cpu"
    assert [s.name for s in layout.sources] == ["main.cpp", "scale_custom.cpp"]
    assert [(s.kind, s.argv) for s in layout.steps] == [("python", ["scale_custom.py"]), ("program", [])]


def test_a_required_cmake_value_comes_from_the_scripts_default(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "CMakeLists.txt": (
                "add_executable(demo k.asc)\nif(NOT DEFINED SCENARIO_NUM)\n"
                '    message(FATAL_ERROR "SCENARIO_NUM is not set. Please specify -DSCENARIO_NUM=0/1")\nendif()\n'
                "target_compile_definitions(demo PRIVATE SCENARIO_NUM=${SCENARIO_NUM})\n"
            ),
            "k.asc": "int main() {}",
            "scripts/gen_data.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('-scenarioNum', type=int, default=0)\n",
        },
    )
    layout = discover(tmp_path / "k.asc")
    assert layout.defines == {"SCENARIO_NUM": "0"}
    assert layout.notes and "SCENARIO_NUM=0" in layout.notes[0]
    assert layout.recipe == "default" and [s.kind for s in layout.steps] == ["mkdir", "python", "program"]
    assert discover(tmp_path, defines={"SCENARIO_NUM": "1"}).defines == {"SCENARIO_NUM": "1"}


def test_folder_without_cmake(tmp_path: Path) -> None:
    write(tmp_path, {"main.cpp": "int main() { return 0; }", "kernel.cpp": "__global__ void k() {}", "x.h": ""})
    layout = discover(tmp_path)
    assert sorted(s.name for s in layout.sources) == ["kernel.cpp", "main.cpp"]
    assert [s.name for s in layout.kernel_sources] == ["kernel.cpp"]
    write(tmp_path, {"other.cpp": "int main() { return 1; }"})
    with pytest.raises(DiscoveryError, match="several sources define main"):
        discover(tmp_path)
    assert [s.name for s in discover(tmp_path / "main.cpp").sources] == ["kernel.cpp", "main.cpp"]


def test_soc_follows_the_samples_architecture(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "CMakeLists.txt": 'set(CMAKE_ASC_ARCHITECTURES "dav-3510" CACHE STRING "arch")\nadd_executable(demo a.asc)\n',
            "a.asc": "int main() {}",
        },
    )
    assert discover(tmp_path).soc == "Ascend950"
    assert discover(tmp_path, soc="Ascend910B").soc == "Ascend910B"


def test_verify_script_arguments(tmp_path: Path) -> None:
    script = write(
        tmp_path,
        {
            "v.py": (
                "import sys\ndef verify_result(output0, output1, golden0, golden1):\n    pass\n"
                "verify_result(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4])\n"
            )
        },
    ) / "v.py"
    assert argument_roles(script) == ["output", "output", "golden", "golden"]
    out = tmp_path / "output"
    out.mkdir()
    for name in ("golden_dst0.bin", "golden_dst1.bin"):
        (out / name).write_bytes(b"g")
    before = {p.name: p.stat().st_mtime for p in out.iterdir()}
    time.sleep(0.01)
    for name in ("output_dst0.bin", "output_dst1.bin"):
        (out / name).write_bytes(b"o")
    assert verify_arguments(script, out, before) == [
        "output/output_dst0.bin",
        "output/output_dst1.bin",
        "output/golden_dst0.bin",
        "output/golden_dst1.bin",
    ]
    two = write(tmp_path, {"w.py": "import sys\nout = sys.argv[1]\ngolden = sys.argv[2]\n"}) / "w.py"
    assert argument_roles(two) == ["output", "golden"]
    os.remove(out / "golden_dst1.bin")
    assert verify_arguments(two, out, before) == ["output/output_dst0.bin", "output/golden_dst0.bin"]
    assert verify_arguments(two, tmp_path / "nothing", before) is None


def test_required_modules(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "gen.py": "import os, sys\nimport numpy as np\nfrom ml_dtypes import bfloat16\nimport helper\nimport torch.nn\n",
            "helper.py": "",
        },
    )
    assert required_modules(tmp_path / "gen.py") == ["ml_dtypes", "torch"]


def test_oversized_sample_files_are_refused_with_the_limit(tmp_path: Path) -> None:
    """Every file discovery reads is capped (safeio.MAX_SOURCE_BYTES): a huge source, README or CMakeLists.txt is
    a one-line error naming it and the limit, before a byte of it is read (sparse files: no disk is used)."""
    from ascendc_lsp import safeio

    big = safeio.MAX_SOURCE_BYTES + 1
    src = tmp_path / "plain"
    src.mkdir()
    (src / "kernel.asc").write_text("__global__ void k() {}\n", encoding="utf-8")
    with open(src / "main.cpp", "wb") as f:
        f.truncate(big)
    with pytest.raises(DiscoveryError, match=r"main\.cpp: source too large \(16\.0 MiB.*the limit is 16\.0 MiB\)"):
        discover(src / "main.cpp")

    readme = tmp_path / "readme"
    readme.mkdir()
    with open(readme / "README.md", "wb") as f:
        f.truncate(big)
    with pytest.raises(DiscoveryError, match=r"README\.md: README too large"):
        readme_recipe(readme)

    cmake = tmp_path / "cmake"
    cmake.mkdir()
    with open(cmake / "CMakeLists.txt", "wb") as f:
        f.truncate(big)
    with pytest.raises(CMakeError, match=r"CMakeLists\.txt: CMake file too large"):
        read_project(cmake, {})


def test_a_device_or_fifo_is_not_a_program(tmp_path: Path) -> None:
    fifo = tmp_path / "main.cpp"
    os.mkfifo(fifo)
    for path in (Path("/dev/zero"), fifo):
        with pytest.raises(DiscoveryError, match="not a regular file or folder"):
            discover(path)


def test_cmake_string_commands_derive_values(tmp_path: Path) -> None:
    """string(REGEX MATCH) turns the architecture into the number the sources compare (`ASC_ARCHITECTURES ==
    2201`); REPLACE, APPEND, LENGTH, SUBSTRING, FIND and JOIN behave as CMake's."""
    write(
        tmp_path,
        {
            "CMakeLists.txt": (
                'set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "arch")\n'
                'string(REGEX MATCH "([0-9]+)" ARCH_NUM "${CMAKE_ASC_ARCHITECTURES}")\n'
                "add_definitions(-DASC_ARCHITECTURES=${ARCH_NUM})\n"
                'string(REGEX REPLACE "/lib/gcc/.*$" "" ROOT "/opt/gcc/lib/gcc/x86_64/12/libgcc.a")\n'
                'string(REGEX REPLACE "([a-z]+)-([0-9]+)" "\\\\2_\\\\1" SWAPPED "dav-3510")\n'
                'string(REPLACE "-" "_" UNDERSCORED "dav-2201")\n'
                'set(GROWN "a")\nstring(APPEND GROWN "b" "c")\n'
                'string(LENGTH "hello" LEN)\nstring(SUBSTRING "hello" 1 3 SUB)\nstring(FIND "hello" "l" POS)\n'
                'string(JOIN "," JOINED x y z)\nstring(REGEX MATCH "[" BAD "x")\n'
                "add_executable(demo main.cpp)\n"
                "target_compile_definitions(demo PRIVATE ROOT=${ROOT} SWAPPED=${SWAPPED} U=${UNDERSCORED}"
                " G=${GROWN} LEN=${LEN} SUB=${SUB} POS=${POS} M1=${CMAKE_MATCH_1} J=${JOINED})\n"
            ),
            "main.cpp": "int main() {}",
        },
    )
    p = read_project(tmp_path)
    assert p.defines == {"ASC_ARCHITECTURES": "2201"}
    assert p.targets["demo"].defines == {
        "ROOT": "/opt/gcc",
        "SWAPPED": "3510_dav",
        "U": "dav_2201",
        "G": "abc",
        "LEN": "5",
        "SUB": "ell",
        "POS": "2",
        "M1": "2201",
        "J": "x,y,z",
    }
    assert "BAD" not in p.variables  # a regex that does not compile leaves its variable alone


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs the host C++ compiler")
def test_cmake_execute_process_runs_only_compiler_queries(tmp_path: Path) -> None:
    """The pytorch samples locate libgcc.a through the C++ compiler before anything else: that query runs (with
    the emulator's compiler); a Python probe does not, and leaves its variables unset."""
    write(
        tmp_path,
        {
            "CMakeLists.txt": (
                "execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libgcc.a\n"
                "    OUTPUT_VARIABLE LIBGCC_PATH OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE RC)\n"
                'if(NOT RC EQUAL 0 OR NOT EXISTS "${LIBGCC_PATH}")\n'
                '    message(FATAL_ERROR "Failed to locate libgcc.a using ${CMAKE_CXX_COMPILER}")\nendif()\n'
                'execute_process(COMMAND python3 -c "import torch" OUTPUT_VARIABLE TORCH RESULT_VARIABLE TRC)\n'
                "add_executable(demo main.cpp)\n"
            ),
            "main.cpp": "int main() {}",
        },
    )
    p = read_project(tmp_path)
    assert p.variables["RC"] == "0" and p.variables["LIBGCC_PATH"].endswith("libgcc.a")
    assert Path(p.variables["LIBGCC_PATH"]).is_file()
    assert "TORCH" not in p.variables and "TRC" not in p.variables


def test_several_shell_assignments_on_one_line_all_apply(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "README.md": (
                "```bash\nSCENARIO_NUM=3 ASC_ARCH=dav-2201\nCOPY_DST=UB\nmkdir -p build && cd build\n"
                "cmake -DSCENARIO_NUM=$SCENARIO_NUM -DCOPY_DST=$COPY_DST -DCMAKE_ASC_ARCHITECTURES=$ASC_ARCH ..\n"
                "./demo\n```\n"
            )
        },
    )
    rec = readme_recipe(tmp_path)
    assert rec is not None
    assert rec.cmake_defs == {"SCENARIO_NUM": "3", "COPY_DST": "UB", "CMAKE_ASC_ARCHITECTURES": "dav-2201"}

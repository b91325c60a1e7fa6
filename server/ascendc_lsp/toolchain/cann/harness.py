"""The `main.cpp` that drives a kernel under CANN: the CPU twin (tikicpulib, ICPU_RUN_KF) or a real NPU (ACL)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ascendc_lsp.toolchain.emulator.harness import c_string, field_assignments

if TYPE_CHECKING:
    from ascendc_lsp.toolchain.spec import KernelSpec


_COMMON_IO = """\
static bool ReadFile(const char* path, void* buf, size_t size) {
    FILE* f = std::fopen(path, "rb");
    if (!f) { std::fprintf(stderr, "[ERROR] cannot open %s\\n", path); return false; }
    size_t n = std::fread(buf, 1, size, f);
    std::fclose(f);
    if (n != size) { std::fprintf(stderr, "[ERROR] %s holds %zu bytes, expected %zu\\n", path, n, size); return false; }
    return true;
}
static bool WriteFile(const char* path, const void* buf, size_t size) {
    FILE* f = std::fopen(path, "wb");
    if (!f) { std::fprintf(stderr, "[ERROR] cannot write %s\\n", path); return false; }
    std::fwrite(buf, 1, size, f);
    std::fclose(f);
    return true;
}
"""


def cpu_harness(spec: KernelSpec, source: Path, kernel_mode: str = "AIV_MODE") -> str:
    """main.cpp for the CPU twin: GmAlloc every buffer, SetKernelMode, ICPU_RUN_KF, write outputs."""
    lines = [
        f"// ascendc-lsp CANN CPU twin harness for '{spec.kernel}'; generated, do not edit",
        "#include <cstdio>",
        "#include <cstring>",
        "#include <cstdint>",
        "#include <type_traits>",
        '#include "tikicpulib.h"',
    ]
    if spec.tiling is not None and spec.tiling.header is not None:
        lines.append(f"#include {c_string(str(spec.tiling.header))}")
    lines.append(f"#include {c_string(str(source))}")
    lines.append(_COMMON_IO)
    lines.append("int main() {")
    args: list[str] = []
    frees: list[str] = []
    writes: list[str] = []
    ok = "    bool ok = true;"
    lines.append(ok)
    for name in spec.param_order():
        t = spec.tensor(name)
        if name == "workspace":
            lines.append(
                f"    uint8_t* cann_ws = (uint8_t*)AscendC::GmAlloc({max(spec.workspace_bytes, 32)});"
            )
            args.append("cann_ws")
            frees.append("cann_ws")
        elif name == "tiling" and spec.tiling is not None:
            lines.append(f"    {spec.tiling.struct} cann_tiling_value{{}};")
            lines.extend(field_assignments("cann_tiling_value", spec.tiling.fields))
            if spec.tiling.pass_mode == "value":
                args.append("cann_tiling_value")
            else:
                lines.append(
                    f"    uint8_t* cann_tiling = (uint8_t*)AscendC::GmAlloc(sizeof({spec.tiling.struct}));"
                )
                lines.append("    std::memcpy(cann_tiling, &cann_tiling_value, sizeof(cann_tiling_value));")
                args.append("cann_tiling")
                frees.append("cann_tiling")
        elif t is not None:
            lines.append(f"    uint8_t* cann_{name} = (uint8_t*)AscendC::GmAlloc({t.nbytes});")
            if any(t is i for i in spec.inputs):
                lines.append(f"    ok = ReadFile({c_string(name + '.bin')}, cann_{name}, {t.nbytes}) && ok;")
            else:
                lines.append(f"    std::memset(cann_{name}, 0xA5, {t.nbytes});")
                writes.append(f"    WriteFile({c_string(name + '.out.bin')}, cann_{name}, {t.nbytes});")
            args.append(f"cann_{name}")
            frees.append(f"cann_{name}")
    lines.append("    if (!ok) return 2;")
    lines.append(f"    AscendC::SetKernelMode(KernelMode::{kernel_mode});")
    lines.append(f"    ICPU_RUN_KF({', '.join([spec.kernel, str(spec.block_dim), *args])});")
    lines.extend(writes)
    lines.extend(f"    AscendC::GmFree((void*){p});" for p in frees)
    lines.append("    return 0;")
    lines.append("}")
    return "\n".join(lines) + "\n"


def npu_harness(spec: KernelSpec) -> str:
    """main.cpp for a real NPU: ACL init, device buffers, ACLRT_LAUNCH_KERNEL, synchronize, copy back."""
    lines = [
        f"// ascendc-lsp CANN NPU harness for '{spec.kernel}'; generated, do not edit",
        "#include <cstdio>",
        "#include <cstring>",
        "#include <cstdint>",
        "#include <type_traits>",
        "#include <vector>",
        '#include "acl/acl.h"',
        f'#include "aclrtlaunch_{spec.kernel}.h"',
    ]
    if spec.tiling is not None and spec.tiling.header is not None:
        lines.append(f"#include {c_string(str(spec.tiling.header))}")
    lines.append(_COMMON_IO)
    lines.append(
        "#define CHECK_ACL(expr) do { aclError r_ = (expr); if (r_ != ACL_SUCCESS) { "
        'std::fprintf(stderr, "[ERROR] %s failed: %d (%s:%d)\\n", #expr, (int)r_, __FILE__, __LINE__); '
        'const char* m_ = aclGetRecentErrMsg(); if (m_) std::fprintf(stderr, "[ERROR] RecentErrMsg: %s\\n", m_); '
        "return 1; } } while (0)"
    )
    lines.append("int main() {")
    lines.append("    CHECK_ACL(aclInit(nullptr));")
    lines.append("    CHECK_ACL(aclrtSetDevice(0));")
    lines.append("    aclrtStream stream = nullptr;")
    lines.append("    CHECK_ACL(aclrtCreateStream(&stream));")
    args: list[str] = []
    copies_back: list[str] = []
    for name in spec.param_order():
        t = spec.tensor(name)
        if name == "workspace":
            size = max(spec.workspace_bytes, 32)
            lines.append(
                f"    uint8_t* dev_ws = nullptr; CHECK_ACL(aclrtMalloc((void**)&dev_ws, {size}, ACL_MEM_MALLOC_HUGE_FIRST));"
            )
            args.append("dev_ws")
        elif name == "tiling" and spec.tiling is not None:
            lines.append(f"    {spec.tiling.struct} tiling_value{{}};")
            lines.extend(field_assignments("tiling_value", spec.tiling.fields))
            if spec.tiling.pass_mode == "value":
                args.append("tiling_value")
            else:
                lines.append("    uint8_t* dev_tiling = nullptr;")
                lines.append(
                    "    CHECK_ACL(aclrtMalloc((void**)&dev_tiling, sizeof(tiling_value), ACL_MEM_MALLOC_HUGE_FIRST));"
                )
                lines.append(
                    "    CHECK_ACL(aclrtMemcpy(dev_tiling, sizeof(tiling_value), &tiling_value, sizeof(tiling_value), ACL_MEMCPY_HOST_TO_DEVICE));"
                )
                args.append("dev_tiling")
        elif t is not None:
            lines.append(f"    std::vector<uint8_t> host_{name}({t.nbytes}, 0xA5);")
            lines.append(
                f"    uint8_t* dev_{name} = nullptr; CHECK_ACL(aclrtMalloc((void**)&dev_{name}, {t.nbytes}, ACL_MEM_MALLOC_HUGE_FIRST));"
            )
            if any(t is i for i in spec.inputs):
                lines.append(
                    f"    if (!ReadFile({c_string(name + '.bin')}, host_{name}.data(), {t.nbytes})) return 2;"
                )
            lines.append(
                f"    CHECK_ACL(aclrtMemcpy(dev_{name}, {t.nbytes}, host_{name}.data(), {t.nbytes}, ACL_MEMCPY_HOST_TO_DEVICE));"
            )
            if not any(t is i for i in spec.inputs):
                copies_back.append(
                    f"    CHECK_ACL(aclrtMemcpy(host_{name}.data(), {t.nbytes}, dev_{name}, {t.nbytes}, ACL_MEMCPY_DEVICE_TO_HOST));"
                )
                copies_back.append(
                    f"    WriteFile({c_string(name + '.out.bin')}, host_{name}.data(), {t.nbytes});"
                )
            args.append(f"dev_{name}")
    lines.append(
        f"    ACLRT_LAUNCH_KERNEL({spec.kernel})({', '.join([str(spec.block_dim), 'stream', *args])});"
    )
    lines.append("    CHECK_ACL(aclrtSynchronizeStream(stream));")
    lines.extend(copies_back)
    lines.append("    aclrtDestroyStream(stream);")
    lines.append("    aclrtResetDevice(0);")
    lines.append("    aclFinalize();")
    lines.append("    return 0;")
    lines.append("}")
    return "\n".join(lines) + "\n"

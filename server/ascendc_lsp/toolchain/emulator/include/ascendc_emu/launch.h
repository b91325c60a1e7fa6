// Kernel launches of direct-launch programs on the emulator (PROTOCOL.md "Direct-launch programs").
// The toolchain's lowering pass (toolchain/program/lower.py) rewrites every
//     kernel<T><<<blocks, l2ctrl, stream>>>(a, b)
// into
//     ::ascendc_emu::kernel_launch("kernel<T>", __FILE__, __LINE__,
//         [&](auto&&... ascendc_emu_a) { kernel<T>(ascendc_emu_a...); })(blocks, l2ctrl, stream)(a, b)
// without changing the line count, so the launch keeps the user's line. The arguments are evaluated once on the
// host, as for a real launch, and every block calls the kernel with copies of them. `ICPU_RUN_KF`
// (tikicpulib.h) and the generated `aclrtlaunch_<kernel>` functions (ACLRT_LAUNCH_KERNEL) use the same path.
// Semantics follow the devkit guide (编程指南/编程模型/AI-Core-SIMD编程/核函数.md: <<<numBlocks, l2ctrl or
// dynUBufSize, stream>>>, asynchronous with respect to the host): the emulator runs the launch when the host
// issues it and reports its faults through the stream's next synchronisation (ascendc_emu/program.h).
#ifndef ASCENDC_EMU_ASCENDC_EMU_LAUNCH_H_
#define ASCENDC_EMU_ASCENDC_EMU_LAUNCH_H_
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
#include "runtime.h"

namespace ascendc_emu {

// Runs fn(arg) once per block as launch number N of the program (program.h); `sync` marks launches the host
// waits for by construction (ICPU_RUN_KF), `stream` the aclrtStream (nullptr = default stream).
EMU_RT_FN void program_launch(const char* kernel, const Loc& loc, uint32_t blocks, void* stream, bool sync,
                              void (*fn)(void*), void* arg);

template <class F>
struct KernelCall {
    F fn;
    const char* name;
    Loc loc;
    uint32_t blocks;
    void* stream;
    bool sync;
    template <class... A>
    void operator()(A&&... a) const {
        std::tuple<typename std::decay<A>::type...> args(std::forward<A>(a)...);
        auto body = [&]() { std::apply(fn, args); };
        using Body = decltype(body);
        program_launch(name, loc, blocks, stream, sync, [](void* p) { (*(Body*)p)(); }, (void*)&body);
    }
};

template <class F>
struct KernelLaunch {
    F fn;
    const char* name;
    Loc loc;
    // <<<blocks, l2ctrl (nullptr) or dynUBufSize (bytes), stream>>>; the second value does not change the
    // emulation (the UB budget is the SoC's), so it is accepted whatever its type.
    template <class Second = std::nullptr_t>
    KernelCall<F> operator()(uint32_t blocks, Second second = Second(), void* stream = nullptr) const {
        (void)second;
        return KernelCall<F>{fn, name, loc, blocks, stream, false};
    }
};

template <class F>
KernelLaunch<F> kernel_launch(const char* name, const char* file, int line, F fn) {
    return KernelLaunch<F>{fn, name, Loc(file, line)};
}

// ICPU_RUN_KF: a synchronous launch (the CPU-debug twin runs the kernel before returning).
template <class F>
KernelCall<F> kernel_run_sync(const char* name, const char* file, int line, uint32_t blocks, F fn) {
    return KernelCall<F>{fn, name, Loc(file, line), blocks, nullptr, true};
}

}  // namespace ascendc_emu

// Header-only builds (no emulator runtime object): the runtime bodies come with the declarations.
#if ASCENDC_EMU_RT_BODIES && !defined(ASCENDC_EMU_RUNTIME_IMPL)
#include "program.h"
#endif
#endif  // ASCENDC_EMU_ASCENDC_EMU_LAUNCH_H_

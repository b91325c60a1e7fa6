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
#include <cstdio>
#include <functional>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>
#include "runtime.h"

// HAVE_WORKSPACE / HAVE_TILING (ascendc_compile_definitions of the kernel library, devkit guide 附录/基于样例工程完成
// Kernel直调.md): the framework takes the last kernel argument (the one before the tiling with HAVE_TILING) as the
// workspace, makes its start the system workspace (GetSysWorkSpacePtr) and passes the kernel the user workspace
// that follows it.
#if defined(HAVE_WORKSPACE) && defined(HAVE_TILING)
#define ASCENDC_EMU_WORKSPACE_FROM_END 2
#elif defined(HAVE_WORKSPACE)
#define ASCENDC_EMU_WORKSPACE_FROM_END 1
#else
#define ASCENDC_EMU_WORKSPACE_FROM_END 0
#endif

namespace ascendc_emu {

// Runs fn(arg) as launch number N of the program (program.h): `blocks` logical blocks, each of `task_ratio` AIV
// cores (2 for a mix AIC:AIV 1:2 kernel; 0 = the CPU twin's SetKernelMode, MIX by default); `sync` marks launches
// the host waits for by construction (ICPU_RUN_KF), `stream` the aclrtStream (nullptr = default stream),
// `sys_workspace` the system workspace the framework sets for this launch (HAVE_WORKSPACE), else nullptr.
EMU_RT_FN void program_launch(const char* kernel, const Loc& loc, uint32_t blocks, int task_ratio, void* stream,
                              bool sync, void* sys_workspace, void (*fn)(void*), void* arg);
// Host-side error or warning at a host call's location (program.h).
EMU_RT_FN void host_report(bool error, const char* check, const char* category, const char* api, const Loc& loc,
                           const char* fmt, ...);
// Stream capture (aclmdlRICaptureBegin .. End, acl/acl_mdl.h): a task issued to a capturing stream is kept in
// the model instead of running; `task(exec_stream)` runs it when the model is executed on exec_stream.
EMU_RT_FN bool stream_capturing(void* stream);
EMU_RT_FN void capture_task(void* stream, const char* what, const Loc& loc, std::function<void(void*)> task);
// The user workspace that follows a system workspace starting at `sys` (GetUserWorkspace).
EMU_RT_FN uint8_t* program_user_workspace(uint8_t* sys);

// Kernels launchable by name (aclrtBinaryGetFunction + aclrtLaunchKernel*): the toolchain registers every
// non-template kernel of the program with a thunk that unpacks the appended argument bytes in parameter order
// (false when they do not add up to the kernel's parameters) and launches it.
using KernelThunk = bool (*)(uint32_t blocks, void* stream, const uint8_t* args, size_t size, const Loc& loc);
EMU_RT_FN bool register_kernel(const char* name, KernelThunk thunk);
inline bool take_arg(void* dst, size_t bytes, const uint8_t* args, size_t size, size_t& off) {
    if (off + bytes > size) return false;
    for (size_t i = 0; i < bytes; i++) ((uint8_t*)dst)[i] = args[off + i];
    off += bytes;
    return true;
}

// SIMT launches (<<<blocks, threads, dynUBufSize, stream>>>, devkit api SIMT-API/SIMT编程简介/扩展语法/核函数配置.md):
// the grid and block extents. simt.h (included by simt_api/asc_simt.h)
// registers the runner that executes one block's threads; a program that launches with threads without it
// gets a clear error.
struct SimtDims {
    uint32_t x = 0, y = 1, z = 1;
};
template <class D>
SimtDims simt_dims(const D& d) {
    if constexpr (std::is_integral<D>::value) return SimtDims{(uint32_t)d, 1, 1};
    else return SimtDims{(uint32_t)d.x, (uint32_t)d.y, (uint32_t)d.z};
}
using SimtBlockRunner = void (*)(const SimtDims& grid, const SimtDims& block, void (*fn)(void*), void* arg);
inline SimtBlockRunner& simt_block_runner() {
    static SimtBlockRunner runner = nullptr;
    return runner;
}

// The dynamic Unified Buffer of the running core (`extern __ubuf__ T name[]`, sized by <<<..., dynUBufSize, ...>>>;
// guide 编程指南/编程模型/AI-Core-SIMT编程 共享内存): the lowering pass (toolchain/program/simt.py) turns the extern
// array into a pointer to it. One per core of a launch (blocks beyond 128 share, which only SIMD launches with more
// than 128 concurrently live blocks could notice); 256 KB, the Unified Buffer of dav-3510.
constexpr size_t kDynUbufBytes = 256u << 10;
constexpr int kDynUbufCores = 128;
inline uint8_t* dyn_ubuf() {
    static uint8_t* bufs[kDynUbufCores] = {};
    Block* b = rt().cur;
    int core = b ? b->idx % kDynUbufCores : 0;
    if (!bufs[core]) bufs[core] = new (std::align_val_t(64)) uint8_t[kDynUbufBytes]();
    return bufs[core];
}

template <class F>
struct KernelCall {
    F fn;
    const char* name;
    Loc loc;
    uint32_t blocks;
    void* stream;
    bool sync;
    int workspace_from_end;
    int task_ratio;
    SimtDims grid{};
    SimtDims threads{};
    bool simt = false;
    template <class... A>
    void operator()(A&&... a) const {
        if constexpr (std::is_invocable<const F&, typename std::decay<A>::type&...>::value) {
            run(std::forward<A>(a)...);
        } else {
            // a kernel library's launch wrapper whose arguments do not convert to the kernel's parameters
            // (lower.py, library=True): it compiles as in the real build, but running it would be a guess
            host_report(true, "launch-arguments", "host-runtime-api", name, loc,
                        "the arguments of this launch do not convert to the parameters of kernel '%s' "
                        "(e.g. a pointer where the kernel takes a struct by value): the kernel was not run",
                        name);
        }
    }

private:
    template <class... A>
    void run(A&&... a) const {
        std::tuple<typename std::decay<A>::type...> args(std::forward<A>(a)...);
        if (!sync && stream_capturing(stream)) {  // kept with copies of its arguments; each execution reuses them
            KernelCall self = *this;
            capture_task(stream, name, loc, [self, args](void* exec) {
                KernelCall c = self;
                c.stream = exec;
                c.launch_tuple(args);
            });
            return;
        }
        launch_tuple(std::move(args));
    }

    template <class... T>
    void launch_tuple(std::tuple<T...> args) const {
        void* sys_ws = nullptr;
        constexpr int n = (int)sizeof...(T);
        if (workspace_from_end > 0 && workspace_from_end <= n)
            take_workspace(args, (size_t)(n - workspace_from_end), sys_ws, std::index_sequence_for<T...>{});
        auto body = [&]() { std::apply(fn, args); };
        using Body = decltype(body);
        if (simt) {
            SimtBlockRunner runner = simt_block_runner();
            if (!runner) {
                fprintf(stderr, "%s:%d: the launch of %s gives threads per block (a SIMT launch) but the program does "
                        "not include simt_api/asc_simt.h\n", loc.file ? loc.file : "?", loc.line, name);
                return;
            }
            auto simt_body = [&]() { runner(grid, threads, [](void* p) { (*(Body*)p)(); }, (void*)&body); };
            using SimtBody = decltype(simt_body);
            program_launch(name, loc, blocks, 1, stream, sync, sys_ws, [](void* p) { (*(SimtBody*)p)(); },
                           (void*)&simt_body);
            return;
        }
        program_launch(name, loc, blocks, task_ratio, stream, sync, sys_ws, [](void* p) { (*(Body*)p)(); },
                       (void*)&body);
    }

    template <class T>
    static void take_one(T& v, void*& sys_ws) {
        if constexpr (std::is_pointer<T>::value) {
            sys_ws = (void*)v;
            if (v) v = (T)program_user_workspace((uint8_t*)v);
        }
    }
    template <class Tup, size_t... I>
    static void take_workspace(Tup& t, size_t k, void*& sys_ws, std::index_sequence<I...>) {
        ((I == k ? take_one(std::get<I>(t), sys_ws) : void()), ...);
    }
};

template <class F>
struct KernelLaunch {
    F fn;
    const char* name;
    Loc loc;
    // <<<blocks, l2ctrl (nullptr) or dynUBufSize (bytes), stream>>>; the second value does not change the
    // emulation (the UB budget is the SoC's), so it is accepted whatever its type.
    int workspace_from_end;
    int task_ratio;
    template <class Second = std::nullptr_t>
    KernelCall<F> operator()(uint32_t blocks, Second second = Second(), void* stream = nullptr) const {
        (void)second;
        return KernelCall<F>{fn, name, loc, blocks, stream, false, workspace_from_end, task_ratio};
    }
    // SIMT: <<<blocks_per_grid, threads_per_block, dyn_ubuf_size, stream>>> (dim3 or integers).
    template <class Blocks, class Threads>
    KernelCall<F> operator()(const Blocks& blocks, const Threads& threads, size_t dyn_ubuf, void* stream) const {
        (void)dyn_ubuf;
        SimtDims g = simt_dims(blocks), t = simt_dims(threads);
        KernelCall<F> call{fn, name, loc, g.x * g.y * g.z, stream, false, 0, 1};
        call.grid = g;
        call.threads = t;
        call.simt = true;
        return call;
    }
};

// `task_ratio`: AIV cores per block, 2 for a kernel the toolchain found to be mix AIC:AIV 1:2 (lower.py).
template <class F>
KernelLaunch<F> kernel_launch(const char* name, const char* file, int line, F fn,
                              int workspace_from_end = ASCENDC_EMU_WORKSPACE_FROM_END, int task_ratio = 1) {
    return KernelLaunch<F>{fn, name, Loc(file, line), workspace_from_end, task_ratio};
}

// ICPU_RUN_KF: a synchronous launch (the CPU-debug twin runs the kernel before returning and provides the
// system workspace itself).
template <class F>
KernelCall<F> kernel_run_sync(const char* name, const char* file, int line, uint32_t blocks, F fn) {
    return KernelCall<F>{fn, name, Loc(file, line), blocks, nullptr, true, 0, 0};
}

}  // namespace ascendc_emu

// Header-only builds (no emulator runtime object): the runtime bodies come with the declarations.
#if ASCENDC_EMU_RT_BODIES && !defined(ASCENDC_EMU_RUNTIME_IMPL)
#include "program.h"
#endif
#endif  // ASCENDC_EMU_ASCENDC_EMU_LAUNCH_H_

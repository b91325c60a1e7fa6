// "tikicpulib.h" for the CPU-debug branch of kernel-launch samples (#ifdef ASCENDC_CPU_DEBUG), on the emulator.
// Written from the devkit API pages api/SIMD-API/基础API/调试接口/CPU孪生调试/{GmAlloc,GmFree,ICPU_RUN_KF,
// ICPU_SET_TILING_KEY,SetKernelMode}.md: GmAlloc returns memory that both the host and the kernel use (emulator
// GM with red zones, host-addressable), ICPU_RUN_KF(func, numBlocks, args...) runs the kernel on numBlocks cores
// and returns when it has finished, ICPU_SET_TILING_KEY selects the TILING_KEY_IS branch, SetKernelMode picks
// AIV / AIC / MIX (the emulator runs the vector view of every kernel).
#ifndef ASCENDC_EMU_TIKICPULIB_H_
#define ASCENDC_EMU_TIKICPULIB_H_
#include "kernel_operator.h"
#include "ascendc_emu/launch.h"

enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE };

namespace ascendc_emu {
EMU_RT_FN void* gm_alloc_shared(size_t size, const Loc& loc);
EMU_RT_FN void gm_free_shared(void* ptr, const Loc& loc);
EMU_RT_FN void set_kernel_mode(int mode);
}  // namespace ascendc_emu

namespace AscendC {
inline void* GmAlloc(size_t size, ascendc_emu::Loc loc = ascendc_emu::Loc()) {
    return ascendc_emu::gm_alloc_shared(size, loc);
}
inline void GmFree(void* ptr, ascendc_emu::Loc loc = ascendc_emu::Loc()) { ascendc_emu::gm_free_shared(ptr, loc); }
inline void SetKernelMode(KernelMode mode) { ascendc_emu::set_kernel_mode((int)mode); }
}  // namespace AscendC

// At most 32 arguments, like the CPU twin (a 33rd is a compile error there too).
#define ICPU_RUN_KF(func, numBlocks, ...)                                                                      \
    ::ascendc_emu::kernel_run_sync(#func, __FILE__, __LINE__, (numBlocks),                                     \
                                   [&](auto&&... ascendc_emu_a) { func(ascendc_emu_a...); })(__VA_ARGS__)
#endif  // ASCENDC_EMU_TIKICPULIB_H_

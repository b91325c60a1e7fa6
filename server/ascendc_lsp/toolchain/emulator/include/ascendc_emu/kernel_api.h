// Language-level pieces of the AscendC dialect for g++: qualifiers as empty macros, GM_ADDR, block ids,
// tiling macros, TILING_KEY_IS, printf/ASSERT, system workspace.
#ifndef ASCENDC_EMU_ASCENDC_EMU_KERNEL_API_H_
#define ASCENDC_EMU_ASCENDC_EMU_KERNEL_API_H_
#include "vector.h"
#include "debug.h"

#ifndef __aicore__
#define __aicore__
#endif
#define __global__
#define __gm__
#define __ubuf__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __fbuf__
#define __ssbuf__
#define __vector__
#define __cube__
#define __mix__(...)
#define __inout_pipe__(...)
#define __in_pipe__(...)
#define __out_pipe__(...)
#define __sync_alias__
#define __sync_in__
#define __sync_out__
#define __check_sync_alias__
#define __aicore_host__
#define __simt_vf__
#ifndef GM_ADDR
#define GM_ADDR uint8_t*
#endif
// The emulator is a CPU build, like CANN's CPU twin-debug mode: samples hide their `<<<...>>>` launch helpers
// behind #ifndef ASCENDC_CPU_DEBUG. A direct-launch program built for the NPU branch (toolchain/program, run mode
// npu: -DASCENDC_EMU_NPU_BRANCH) keeps those helpers, whose launches the toolchain lowers onto the emulator.
#if !defined(ASCENDC_CPU_DEBUG) && !defined(ASCENDC_EMU_NPU_BRANCH)
#define ASCENDC_CPU_DEBUG 1
#endif
#ifndef __CCE_AICORE__
#define __CCE_AICORE__ 220
#endif
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif
#ifndef __DAV_C220_VEC__
#define __DAV_C220_VEC__ 1
#endif
// The emulator runs the vector (AIV) side; cube code paths are not emulated yet.
#define ASCEND_IS_AIV (true)
#define ASCEND_IS_AIC (false)
#define ASCEND_IS_NOT_AIV (false)
#define ASCEND_IS_NOT_AIC (true)

enum KernelMetaType {
    KERNEL_TYPE_AIV_ONLY, KERNEL_TYPE_AIC_ONLY, KERNEL_TYPE_MIX_AIV_1_0, KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1, KERNEL_TYPE_MIX_AIC_1_2, KERNEL_TYPE_MIX_AIV_HARD_SYNC, KERNEL_TYPE_MIX_AIC_HARD_SYNC,
    KERNEL_TYPE_MAX
};
#define KERNEL_TASK_TYPE_DEFAULT(...) ((void)0)
#define KERNEL_TASK_TYPE(...) ((void)0)
#define ENABLE_FEATURE_FOR_COMPILE(...) ((void)0)

namespace ascendc_emu {
// Fields in declaration order with natural alignment, exactly like the host struct: a memcpy is the deserialiser.
EMU_RT_FN void load_tiling(void* dst, const void* src, size_t bytes, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    uint64_t lo, hi;
    if (!src) {
        report_error("tiling-null", "tiling-runtime", P_S, "GET_TILING_DATA", loc,
                     "GET_TILING_DATA reads %s B from a null tiling pointer", EMU_N(bytes));
        memset(dst, 0, bytes);
        return;
    }
    memset(dst, 0, bytes);
    begin_epoch(P_S);
    if (gm_check(src, bytes, false, P_S, "GET_TILING_DATA", loc, &lo, &hi)) memcpy((uint8_t*)dst + lo, (const uint8_t*)src + lo, hi - lo);
    for (size_t i = 0; i < bytes; i += 64) trace_scalar("GET_TILING_DATA", SP_GM, loc, dcache_access((const uint8_t*)src + i));
}
#else
;
#endif
}  // namespace ascendc_emu

#ifdef ASCENDC_EMU_TILING_TYPE
#define GET_TILING_DATA(var, tiling)                                                                  \
    ASCENDC_EMU_TILING_TYPE var;                                                                      \
    ::ascendc_emu::load_tiling(&var, (const void*)(tiling), sizeof(var), ::ascendc_emu::Loc())
#else
#define GET_TILING_DATA(var, tiling)                                                                  \
    static_assert(false && sizeof(tiling), "GET_TILING_DATA needs the tiling struct: define ASCENDC_EMU_TILING_TYPE")
#endif
#define GET_TILING_DATA_WITH_STRUCT(type, var, tiling) \
    type var;                                          \
    ::ascendc_emu::load_tiling(&var, (const void*)(tiling), sizeof(var), ::ascendc_emu::Loc())
#define GET_TILING_DATA_PTR_WITH_STRUCT(type, var, tiling) const type* var = reinterpret_cast<const type*>(tiling)
#define GET_TILING_DATA_MEMBER(type, member, var, tiling)                                              \
    decltype(type::member) var;                                                                       \
    ::ascendc_emu::load_tiling(&var, (const uint8_t*)(tiling) + offsetof(type, member), sizeof(var),   \
                               ::ascendc_emu::Loc())
#define REGISTER_TILING_DEFAULT(...)
#define REGISTER_TILING_FOR_TILINGKEY(...)
#define TILING_KEY_IS(k) (::ascendc_emu::rt().tiling_key == (uint64_t)(k))
#define ICPU_SET_TILING_KEY(k) (::ascendc_emu::rt().tiling_key = (uint64_t)(k))

namespace AscendC {
// GetBlockNum.md / GetBlockIdx.md: a launch of numBlocks blocks of a mix kernel with AIC:AIV 1:2 runs 2 * numBlocks
// AIV cores, whose GetBlockIdx is in [0, 2 * numBlocks) while GetBlockNum is numBlocks (task_ratio 2; the
// emulator runs the AIV view of a kernel, see PROTOCOL.md).
inline int64_t GetBlockIdx() { return ascendc_emu::blk().idx; }
inline int64_t GetBlockNum() { return ascendc_emu::rt().block_dim / ascendc_emu::rt().task_ratio; }
inline int64_t GetSubBlockIdx() { return ascendc_emu::blk().idx % ascendc_emu::rt().task_ratio; }
inline int64_t GetSubBlockNum() { return ascendc_emu::rt().task_ratio; }
inline int64_t GetTaskRatio() { return ascendc_emu::rt().task_ratio; }
// GetTaskRation: the older spelling public kernels still call (43 files of the public corpus); same value.
inline int64_t GetTaskRation() { return GetTaskRatio(); }
inline void InitSocState() {}
// api/SIMD-API/基础API/资源管理/临时空间管理/workspace/SetSysWorkSpace.md: sets the pointer GetSysWorkSpacePtr returns
inline void SetSysWorkspace(GM_ADDR workspace) { ascendc_emu::rt().sys_workspace = workspace; }
EMU_RT_FN GM_ADDR GetSysWorkSpacePtr();
EMU_RT_FN GM_ADDR GetUserWorkspace(GM_ADDR workspace);
enum KernelLogLevel { KERNEL_DEBUG, KERNEL_INFO, KERNEL_WARN, KERNEL_ERROR };
// The UB a vector core's kernel may claim as its own: the UB size less the 8 KB that the reserved-UB APIs use
// (guide/编程指南/编程模型/AI-Core-SIMD编程/基于Tensor的CPP编程/静态Tensor编程.md: "Select等API内部使用了8KB的预留UB空间";
// UB sizes per SoC: memory.ub_bytes of knowledge/hardware/*.yaml). Public matmul kernels InitBuffer all of it
// for SetLocalWorkspace; it is not in the API docs, the framework build defines it per SoC.
// A 4-bit signed integer, values [-8, 7] (api/Utils-API/CPP标准库/容器函数/tuple.md constructs AscendC::int4b_t(1);
// api/附录/Memory矢量计算接口边界值汇总.md: MIN -8). Only the scalar type: op kernels name it in type tests
// (IsSameType<T, int4b_t>); tensors of it (two values per byte on the NPU) are not emulated, and the vector APIs'
// dtype checks do not accept it.
struct int4b_t {
    int8_t value = 0;
    int4b_t() = default;
    template <class U>
    constexpr explicit int4b_t(U x) : value((int8_t)((((int)x & 0xF) ^ 0x8) - 0x8)) {}
    constexpr operator int() const { return value; }
};
#if __NPU_ARCH__ == 2002 || __NPU_ARCH__ == 1001 || __NPU_ARCH__ == 3510
constexpr int32_t TOTAL_VEC_LOCAL_SIZE = 248 * 1024;
#else
constexpr int32_t TOTAL_VEC_LOCAL_SIZE = 184 * 1024;
#endif
#if __NPU_ARCH__ == 3510
// Ascend 950 only (工具接口/系统资源与变量/GetUBSizeInBytes.md: the constant 248 KB; GetVecLen.md: VL, the constant
// 256 B; GetRuntimeUBSize.md: the UB size at run time, 248 KB outside SIMD/SIMT mixed kernels: the SoC profile's).
inline constexpr uint32_t GetUBSizeInBytes() { return 248 * 1024; }
inline constexpr uint32_t GetVecLen() { return 256; }
inline uint32_t GetRuntimeUBSize() { return (uint32_t)ascendc_emu::rt().soc.bytes[ascendc_emu::SP_UB]; }
#endif
}  // namespace AscendC
inline int64_t get_block_idx() { return AscendC::GetBlockIdx(); }
inline int64_t get_block_num() { return AscendC::GetBlockNum(); }
inline int64_t get_subblockid() { return AscendC::GetSubBlockIdx(); }

#define KERNEL_LOG(level, fmt, ...) ::fprintf(stderr, "[KERNEL_LOG] " fmt "\n", ##__VA_ARGS__)
#endif  // ASCENDC_EMU_ASCENDC_EMU_KERNEL_API_H_

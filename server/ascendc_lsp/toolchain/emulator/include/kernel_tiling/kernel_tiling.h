// Kernel-side tiling structs of the high-level APIs (clean-room). TCubeTiling carries the Matmul tiling that
// the host computes (matmul_tiling::MultiCoreMatmulTiling: the op project's TilingFunc run on the CPU, or
// explicit fields in an emulator spec). Field list and meaning: docs/zh/api/SIMD-API/高阶API/矩阵计算/
// Matmul-Tiling类/TCubeTiling结构体.md. Every field is an int32_t and the field count is even, so a struct that
// follows TCubeTiling in a tiling buffer (a uint64_t, say) starts right at sizeof(TCubeTiling). Fields left 0
// get defaults in Matmul::Init. The field lists are X-macros so the host shim (host_include/) declares
// optiling::TCubeTiling with exactly the same layout; the kernel also sees them as AscendC::tiling::<Name>.
#ifndef ASCENDC_EMU_KERNEL_TILING_KERNEL_TILING_H_
#define ASCENDC_EMU_KERNEL_TILING_KERNEL_TILING_H_
#include <cstdint>

#define ASCENDC_EMU_TCUBE_TILING_FIELDS(X)                                                                 \
    X(int32_t, usedCoreNum)                                                                                \
    X(int32_t, M) X(int32_t, N) X(int32_t, Ka) X(int32_t, Kb)                                              \
    X(int32_t, singleCoreM) X(int32_t, singleCoreN) X(int32_t, singleCoreK)                                \
    X(int32_t, baseM) X(int32_t, baseN) X(int32_t, baseK)                                                  \
    X(int32_t, depthA1) X(int32_t, depthB1)                                                                \
    X(int32_t, stepM) X(int32_t, stepN)                                                                    \
    X(int32_t, isBias)                                                                                     \
    X(int32_t, transLength)                                                                                \
    X(int32_t, iterateOrder) /* 0: along M first, 1: along N first */                                      \
    X(int32_t, shareMode) X(int32_t, shareL1Size) X(int32_t, shareL0CSize) X(int32_t, shareUbSize)         \
    X(int32_t, batchM) X(int32_t, batchN) X(int32_t, singleBatchM) X(int32_t, singleBatchN)                \
    X(int32_t, stepKa) X(int32_t, stepKb)                                                                  \
    X(int32_t, depthAL1CacheUB) X(int32_t, depthBL1CacheUB)                                                \
    X(int32_t, dbL0A) X(int32_t, dbL0B) X(int32_t, dbL0C)                                                  \
    X(int32_t, ALayoutInfoB) X(int32_t, ALayoutInfoS) X(int32_t, ALayoutInfoN) X(int32_t, ALayoutInfoG)    \
    X(int32_t, ALayoutInfoD)                                                                               \
    X(int32_t, BLayoutInfoB) X(int32_t, BLayoutInfoS) X(int32_t, BLayoutInfoN) X(int32_t, BLayoutInfoG)    \
    X(int32_t, BLayoutInfoD)                                                                               \
    X(int32_t, CLayoutInfoB) X(int32_t, CLayoutInfoS1) X(int32_t, CLayoutInfoN) X(int32_t, CLayoutInfoG)   \
    X(int32_t, CLayoutInfoS2)                                                                              \
    X(int32_t, BatchNum)                                                                                   \
    X(int32_t, reserved)

#define ASCENDC_EMU_SOFTMAX_TILING_FIELDS(X)                                                               \
    X(uint32_t, srcM) X(uint32_t, srcK) X(uint32_t, srcSize) X(uint32_t, outMaxM) X(uint32_t, outMaxK)     \
    X(uint32_t, outMaxSize) X(uint32_t, splitM) X(uint32_t, splitK) X(uint32_t, splitSize)                 \
    X(uint32_t, reduceM) X(uint32_t, reduceK) X(uint32_t, reduceSize) X(uint32_t, rangeM)                  \
    X(uint32_t, tailM) X(uint32_t, tailSplitSize) X(uint32_t, tailReduceSize)

#define ASCENDC_EMU_DECLARE_TILING_FIELD(type, name) type name;

struct TCubeTiling {
    ASCENDC_EMU_TCUBE_TILING_FIELDS(ASCENDC_EMU_DECLARE_TILING_FIELD)
};
static_assert(sizeof(TCubeTiling) % 8 == 0, "TCubeTiling keeps 8-byte size granularity");

struct SoftMaxTiling {
    ASCENDC_EMU_SOFTMAX_TILING_FIELDS(ASCENDC_EMU_DECLARE_TILING_FIELD)
};

namespace AscendC {
namespace tiling {
using ::SoftMaxTiling;
using ::TCubeTiling;
}  // namespace tiling
}  // namespace AscendC
#include "kernel_tiling_adv.h"  // the high-level APIs' tiling structs (LayerNormTiling, TopkTiling, ...)
#endif  // ASCENDC_EMU_KERNEL_TILING_KERNEL_TILING_H_

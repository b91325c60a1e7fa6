// Kernel-side tiling structs of the high-level APIs (clean-room). TCubeTiling carries the Matmul tiling that
// the host computes (matmul_tiling::MultiCoreMatmulTiling on CANN; explicit fields in an emulator spec).
// Every field is an int32_t and the field count is even, so a struct that follows TCubeTiling in a tiling
// buffer (a uint64_t, say) starts right at sizeof(TCubeTiling). Fields left 0 get defaults in Matmul::Init.
#ifndef ASCENDC_EMU_KERNEL_TILING_KERNEL_TILING_H_
#define ASCENDC_EMU_KERNEL_TILING_KERNEL_TILING_H_
#include <cstdint>

struct TCubeTiling {
    int32_t usedCoreNum;
    int32_t M, N, Ka, Kb;
    int32_t singleCoreM, singleCoreN, singleCoreK;
    int32_t baseM, baseN, baseK;
    int32_t depthA1, depthB1;
    int32_t stepM, stepN;
    int32_t isBias;
    int32_t transLength;
    int32_t iterateOrder;  // 0: along M first, 1: along N first
    int32_t shareMode, shareL1Size, shareL0CSize, shareUbSize;
    int32_t batchM, batchN, singleBatchM, singleBatchN;
    int32_t stepKa, stepKb;
    int32_t depthAL1CacheUB, depthBL1CacheUB;
    int32_t dbL0A, dbL0B, dbL0C;
    int32_t ALayoutInfoB, ALayoutInfoS, ALayoutInfoN, ALayoutInfoG, ALayoutInfoD;
    int32_t BLayoutInfoB, BLayoutInfoS, BLayoutInfoN, BLayoutInfoG, BLayoutInfoD;
    int32_t CLayoutInfoB, CLayoutInfoS1, CLayoutInfoN, CLayoutInfoG, CLayoutInfoS2;
    int32_t BatchNum;
    int32_t reserved;
};
static_assert(sizeof(TCubeTiling) % 8 == 0, "TCubeTiling keeps 8-byte size granularity");

struct SoftMaxTiling {
    uint32_t srcM, srcK, srcSize, outMaxM, outMaxK, outMaxSize, splitM, splitK, splitSize, reduceM, reduceK,
        reduceSize, rangeM, tailM, tailSplitSize, tailReduceSize;
};
#include "kernel_tiling_adv.h"  // the high-level APIs' tiling structs (LayerNormTiling, TopkTiling, ...)
#endif  // ASCENDC_EMU_KERNEL_TILING_KERNEL_TILING_H_

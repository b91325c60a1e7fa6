// Kernel-side tiling structs of the high-level (lib/) APIs (clean-room): field names, types and order as the
// devkit docs print them (each list names its page), so a tiling struct that embeds one (TILING_DATA_FIELD_DEF_STRUCT
// on the host, a plain member in the kernel) has the same layout on both sides. The field lists are X-macros that
// host_include/tiling/adv_api_tiling.h expands into the host classes (optiling::SoftMaxTiling, ...): one list.
// Declared in AscendC::tiling (the namespace the docs' kernel-compatible overloads name) and aliased at global scope,
// where kernels name them unqualified. SoftMaxTiling (like TCubeTiling) is defined in kernel_tiling.h, which
// includes this file at its end; AscendC::tiling names it too.
#ifndef ASCENDC_EMU_KERNEL_TILING_KERNEL_TILING_ADV_H_
#define ASCENDC_EMU_KERNEL_TILING_KERNEL_TILING_ADV_H_
#include <cstdint>
#include <type_traits>
#include "kernel_tiling.h"  // SoftMaxTiling and TCubeTiling (defined there; the field list below matches)

// docs/zh/api/SIMD-API/高阶API/归一化操作/BatchNorm-Tiling.md
#define ASCENDC_EMU_TILING_FIELDS_BatchNormTiling(X) \
    X(uint32_t, originalBLength) \
    X(uint32_t, meanVarSize) \
    X(uint32_t, meanTmpTensorPos) \
    X(uint32_t, varianceTmpTensorPos) \
    X(uint32_t, tmpBufSize) \
    X(uint32_t, oneTmpSize) \
    X(uint32_t, firstTmpStartPos) \
    X(uint32_t, secondTmpStartPos) \
    X(uint32_t, thirdTmpStartPos) \
    X(uint32_t, loopRound) \
    X(uint32_t, inputTailSize) \
    X(uint32_t, inputTailPos) \
    X(uint32_t, meanVarTailSize) \
    X(uint32_t, meanVarTailPos) \
    X(uint32_t, bshCurLength) \
    X(uint32_t, shCurLength) \
    X(float, firstDimValueBack) \
    X(uint32_t, castHalfRepStride) \
    X(uint32_t, shCurLengthBlockNum) \
    X(uint32_t, castHalfOutRepStride)
// docs/zh/api/SIMD-API/高阶API/归一化操作/DeepNorm-Tiling.md
#define ASCENDC_EMU_TILING_FIELDS_DeepNormTiling(X) \
    X(uint32_t, bLength) \
    X(uint32_t, sLength) \
    X(uint32_t, hLength) \
    X(uint32_t, originalHLength) \
    X(uint32_t, inputXSize) \
    X(uint32_t, meanVarSize) \
    X(uint32_t, numberOfTmpBuf) \
    X(uint32_t, meanTmpTensorPos) \
    X(uint32_t, meanTmpTensorSize) \
    X(uint32_t, varianceTmpTensorPos) \
    X(uint32_t, varianceTmpTensorSize) \
    X(uint32_t, tmpBufSize) \
    X(uint32_t, oneTmpSize) \
    X(uint32_t, firstTmpStartPos) \
    X(uint32_t, secondTmpStartPos) \
    X(uint32_t, thirdTmpStartPos) \
    X(uint32_t, loopRound) \
    X(uint32_t, inputRoundSize) \
    X(uint32_t, inputTailSize) \
    X(uint32_t, inputTailPos) \
    X(uint32_t, meanVarRoundSize) \
    X(uint32_t, meanVarTailSize) \
    X(uint32_t, meanVarTailPos) \
    X(uint32_t, bshCurLength) \
    X(uint32_t, bsCurLength) \
    X(float, lastDimValueBack)
// docs/zh/api/SIMD-API/高阶API/归一化操作/GroupNorm-Tiling.md
#define ASCENDC_EMU_TILING_FIELDS_GroupNormTiling(X) \
    X(uint32_t, n) \
    X(uint32_t, c) \
    X(uint32_t, hw) \
    X(uint32_t, g) \
    X(uint32_t, d) \
    X(uint32_t, hwAlignSize) \
    X(uint32_t, dhwAlignSize) \
    X(uint32_t, inputXSize) \
    X(uint32_t, meanVarSize) \
    X(uint32_t, numberOfTmpBuf) \
    X(uint32_t, meanTmpTensorPos) \
    X(uint32_t, meanTmpTensorSize) \
    X(uint32_t, varianceTmpTensorPos) \
    X(uint32_t, varianceTmpTensorSize) \
    X(uint32_t, tmpBufSize) \
    X(uint32_t, oneTmpSize) \
    X(uint32_t, firstTmpStartPos) \
    X(uint32_t, secondTmpStartPos) \
    X(uint32_t, thirdTmpStartPos) \
    X(uint32_t, loopRound) \
    X(uint32_t, inputRoundSize) \
    X(uint32_t, inputTailSize) \
    X(uint32_t, inputTailPos) \
    X(uint32_t, meanVarRoundSize) \
    X(uint32_t, meanVarTailSize) \
    X(uint32_t, meanVarTailPos) \
    X(uint32_t, bshCurLength) \
    X(uint32_t, bsCurLength) \
    X(float, factor) \
    X(bool, smallShape)
// docs/zh/api/SIMD-API/高阶API/归一化操作/LayerNorm-Tiling.md
#define ASCENDC_EMU_TILING_FIELDS_LayerNormTiling(X) \
    X(uint32_t, bLength) \
    X(uint32_t, sLength) \
    X(uint32_t, hLength) \
    X(uint32_t, originalHLength) \
    X(uint32_t, inputXSize) \
    X(uint32_t, meanVarSize) \
    X(uint32_t, numberOfTmpBuf) \
    X(uint32_t, meanTmpTensorPos) \
    X(uint32_t, meanTmpTensorSize) \
    X(uint32_t, varianceTmpTensorPos) \
    X(uint32_t, varianceTmpTensorSize) \
    X(uint32_t, tmpBufSize) \
    X(uint32_t, oneTmpSize) \
    X(uint32_t, firstTmpStartPos) \
    X(uint32_t, secondTmpStartPos) \
    X(uint32_t, thirdTmpStartPos) \
    X(uint32_t, loopRound) \
    X(uint32_t, inputRoundSize) \
    X(uint32_t, inputTailSize) \
    X(uint32_t, inputTailPos) \
    X(uint32_t, meanVarRoundSize) \
    X(uint32_t, meanVarTailSize) \
    X(uint32_t, meanVarTailPos) \
    X(uint32_t, bshCurLength) \
    X(uint32_t, bsCurLength) \
    X(float, lastDimValueBack)
// docs/zh/api/SIMD-API/高阶API/归一化操作/LayerNorm-Tiling.md
#define ASCENDC_EMU_TILING_FIELDS_LayerNormSeparateTiling(X) \
    X(uint32_t, aLength) \
    X(uint32_t, rLength) \
    X(uint32_t, halfAddRepeatTimes) \
    X(uint32_t, rHeadLength) \
    X(float, k2Rec) \
    X(float, k2RRec) \
    X(uint32_t, inputXSize) \
    X(uint32_t, meanVarSize) \
    X(uint32_t, numberOfTmpBuf) \
    X(uint32_t, varianceTmpTensorPos) \
    X(uint32_t, varianceTmpTensorSize) \
    X(uint32_t, tmpBufSize) \
    X(uint32_t, oneTmpSize) \
    X(uint32_t, firstTmpStartPos) \
    X(uint32_t, secondTmpStartPos) \
    X(uint32_t, thirdTmpStartPos) \
    X(uint32_t, loopRound) \
    X(uint32_t, inputRoundSize) \
    X(uint32_t, inputTailSize) \
    X(uint32_t, inputTailPos) \
    X(uint32_t, meanVarRoundSize) \
    X(uint32_t, meanVarTailSize) \
    X(uint32_t, meanVarTailPos) \
    X(uint32_t, arCurLength) \
    X(uint32_t, aCurLength) \
    X(float, rValueBack)
// docs/zh/api/SIMD-API/高阶API/归一化操作/LayerNormGrad-Tiling.md
#define ASCENDC_EMU_TILING_FIELDS_LayerNormGradTiling(X) \
    X(uint32_t, stackBufferSize) \
    X(uint32_t, bLength) \
    X(uint32_t, sLength) \
    X(uint32_t, hLength) \
    X(uint32_t, originalHLength) \
    X(uint32_t, oneCalSize) \
    X(uint32_t, nohCalSize) \
    X(uint32_t, loopNum) \
    X(uint32_t, tailSize) \
    X(uint32_t, nohTailSize) \
    X(uint32_t, tmpTensorBSHPos) \
    X(uint32_t, tmpTensorBSHSize) \
    X(uint32_t, pdVarTensorPos) \
    X(uint32_t, pdVarTensorSize) \
    X(uint32_t, pdMeanTensorPos) \
    X(uint32_t, pdMeanTensorSize) \
    X(uint32_t, x1TensorPos) \
    X(uint32_t, x1TensorSize) \
    X(uint32_t, x2TensorPos) \
    X(uint32_t, x2TensorSize) \
    X(uint32_t, x3TensorPos) \
    X(uint32_t, x3TensorSize) \
    X(uint32_t, tmpTensorPos) \
    X(uint32_t, tmpTensorSize) \
    X(uint32_t, tmpTensor1Pos) \
    X(uint32_t, tmpTensor1Size) \
    X(uint32_t, tmpTensor2Pos) \
    X(uint32_t, tmpTensor2Size) \
    X(uint32_t, lastDimValueBack) \
    X(uint32_t, lastDimValueBackMulTwo)
// docs/zh/api/SIMD-API/高阶API/归一化操作/LayerNormGradBeta-Tiling.md
#define ASCENDC_EMU_TILING_FIELDS_LayerNormGradBetaTiling(X) \
    X(uint32_t, stackBufferSize) \
    X(uint32_t, bLength) \
    X(uint32_t, sLength) \
    X(uint32_t, hLength) \
    X(uint32_t, originalHLength) \
    X(uint32_t, bshLength) \
    X(uint32_t, bsLength) \
    X(uint32_t, oneCalSize) \
    X(uint32_t, numberOfTmpBuf) \
    X(uint32_t, loopRound) \
    X(uint32_t, inputTailSize) \
    X(uint32_t, inputTailPos) \
    X(uint32_t, bsTailSize) \
    X(uint32_t, bshCurLength) \
    X(uint32_t, bsCurLength) \
    X(uint32_t, gammaTempTensorPos) \
    X(uint32_t, betaTempTensorPos) \
    X(uint32_t, inputDyTmpTensorPos) \
    X(uint32_t, resForGammaTmpTensorPos) \
    X(uint32_t, reserved)
// docs/zh/api/SIMD-API/高阶API/归一化操作/RmsNorm-Tiling.md
#define ASCENDC_EMU_TILING_FIELDS_RmsNormTiling(X) \
    X(uint32_t, bLength) \
    X(uint32_t, sLength) \
    X(uint32_t, hLength) \
    X(uint32_t, originalHLength) \
    X(float, reciprocalOfHLength) \
    X(uint32_t, mainBshLength) \
    X(uint32_t, mainBsLength) \
    X(uint32_t, mainBsLengthAlign) \
    X(uint32_t, loopRound) \
    X(uint32_t, inputTailPos) \
    X(uint32_t, tailBshLength) \
    X(uint32_t, tailBsLength)
// docs/zh/api/SIMD-API/高阶API/排序操作/TopK-Tiling.md
#define ASCENDC_EMU_TILING_FIELDS_TopkTiling(X) \
    X(int32_t, tmpLocalSize) \
    X(int32_t, allDataSize) \
    X(int32_t, innerDataSize) \
    X(uint32_t, sortRepeat) \
    X(int32_t, mrgSortRepeat) \
    X(int32_t, kAlignFourBytes) \
    X(int32_t, kAlignTwoBytes) \
    X(int32_t, maskOffset) \
    X(int32_t, maskVreducev2FourBytes) \
    X(int32_t, maskVreducev2TwoBytes) \
    X(int32_t, mrgSortSrc1offset) \
    X(int32_t, mrgSortSrc2offset) \
    X(int32_t, mrgSortSrc3offset) \
    X(int32_t, mrgSortTwoQueueSrc1Offset) \
    X(int32_t, mrgFourQueueTailPara1) \
    X(int32_t, mrgFourQueueTailPara2) \
    X(int32_t, srcIndexOffset) \
    X(uint32_t, copyUbToUbBlockCount) \
    X(int32_t, topkMrgSrc1MaskSizeOffset) \
    X(int32_t, topkNSmallSrcIndexOffset) \
    X(uint32_t, vreduceValMask0) \
    X(uint32_t, vreduceValMask1) \
    X(uint32_t, vreduceIdxMask0) \
    X(uint32_t, vreduceIdxMask1) \
    X(uint16_t, vreducehalfValMask0) \
    X(uint16_t, vreducehalfValMask1) \
    X(uint16_t, vreducehalfValMask2) \
    X(uint16_t, vreducehalfValMask3) \
    X(uint16_t, vreducehalfValMask4) \
    X(uint16_t, vreducehalfValMask5) \
    X(uint16_t, vreducehalfValMask6) \
    X(uint16_t, vreducehalfValMask7)
// docs/zh/api/SIMD-API/高阶API/激活函数/SoftMax接口/SoftMax-Tiling使用说明.md
#define ASCENDC_EMU_TILING_FIELDS_SoftMaxTiling(X) \
    X(uint32_t, srcM) \
    X(uint32_t, srcK) \
    X(uint32_t, srcSize) \
    X(uint32_t, outMaxM) \
    X(uint32_t, outMaxK) \
    X(uint32_t, outMaxSize) \
    X(uint32_t, splitM) \
    X(uint32_t, splitK) \
    X(uint32_t, splitSize) \
    X(uint32_t, reduceM) \
    X(uint32_t, reduceK) \
    X(uint32_t, reduceSize) \
    X(uint32_t, rangeM) \
    X(uint32_t, tailM) \
    X(uint32_t, tailSplitSize) \
    X(uint32_t, tailReduceSize)
// docs/zh/api/SIMD-API/高阶API/激活函数/LogSoftMax接口/LogSoftMax-Tiling.md (fields not published: the SoftMaxTiling set)
#define ASCENDC_EMU_TILING_FIELDS_LogSoftMaxTiling(X) \
    X(uint32_t, srcM) \
    X(uint32_t, srcK) \
    X(uint32_t, srcSize) \
    X(uint32_t, outMaxM) \
    X(uint32_t, outMaxK) \
    X(uint32_t, outMaxSize) \
    X(uint32_t, splitM) \
    X(uint32_t, splitK) \
    X(uint32_t, splitSize) \
    X(uint32_t, reduceM) \
    X(uint32_t, reduceK) \
    X(uint32_t, reduceSize) \
    X(uint32_t, rangeM) \
    X(uint32_t, tailM) \
    X(uint32_t, tailSplitSize) \
    X(uint32_t, tailReduceSize)
// docs/zh/api/SIMD-API/高阶API/张量变换/Pad-Tiling.md (fields not published: the emulator's own)
#define ASCENDC_EMU_TILING_FIELDS_PadTiling(X) \
    X(uint32_t, srcHeight) \
    X(uint32_t, srcWidth) \
    X(uint32_t, srcOriHeight) \
    X(uint32_t, srcOriWidth) \
    X(uint32_t, tmpBufSize) \
    X(uint32_t, typeSize)
// docs/zh/api/SIMD-API/高阶API/张量变换/UnPad-Tiling.md (fields not published: the emulator's own)
#define ASCENDC_EMU_TILING_FIELDS_UnPadTiling(X) \
    X(uint32_t, srcHeight) \
    X(uint32_t, srcWidth) \
    X(uint32_t, tmpBufSize) \
    X(uint32_t, typeSize)
// docs/zh/api/SIMD-API/高阶API/张量变换/Transpose-Tiling.md (fields not published: the emulator's own)
#define ASCENDC_EMU_TILING_FIELDS_ConfusionTransposeTiling(X) \
    X(uint32_t, transposeType) \
    X(uint32_t, typeSize) \
    X(uint32_t, b) \
    X(uint32_t, n) \
    X(uint32_t, s) \
    X(uint32_t, hnDiv) \
    X(uint32_t, h) \
    X(uint32_t, tmpBufSize)
// Every API tiling struct, for code that handles them all; _OWN: the ones this file defines (all but SoftMaxTiling).
#define ASCENDC_EMU_ADV_TILING_STRUCTS_OWN(X)                                                                   \
    X(BatchNormTiling) X(DeepNormTiling) X(GroupNormTiling) X(LayerNormTiling) X(LayerNormSeparateTiling)       \
    X(LayerNormGradTiling) X(LayerNormGradBetaTiling) X(RmsNormTiling) X(TopkTiling) X(LogSoftMaxTiling)        \
    X(PadTiling) X(UnPadTiling) X(ConfusionTransposeTiling)
#define ASCENDC_EMU_ADV_TILING_STRUCTS(X) ASCENDC_EMU_ADV_TILING_STRUCTS_OWN(X) X(SoftMaxTiling)

#define ASCENDC_EMU_KERNEL_TILING_FIELD(type, name) type name = 0;
namespace AscendC {
namespace tiling {
struct BatchNormTiling {
    ASCENDC_EMU_TILING_FIELDS_BatchNormTiling(ASCENDC_EMU_KERNEL_TILING_FIELD)
};
struct DeepNormTiling {
    ASCENDC_EMU_TILING_FIELDS_DeepNormTiling(ASCENDC_EMU_KERNEL_TILING_FIELD)
};
struct GroupNormTiling {
    ASCENDC_EMU_TILING_FIELDS_GroupNormTiling(ASCENDC_EMU_KERNEL_TILING_FIELD)
};
struct LayerNormTiling {
    ASCENDC_EMU_TILING_FIELDS_LayerNormTiling(ASCENDC_EMU_KERNEL_TILING_FIELD)
};
struct LayerNormSeparateTiling {
    ASCENDC_EMU_TILING_FIELDS_LayerNormSeparateTiling(ASCENDC_EMU_KERNEL_TILING_FIELD)
};
struct LayerNormGradTiling {
    ASCENDC_EMU_TILING_FIELDS_LayerNormGradTiling(ASCENDC_EMU_KERNEL_TILING_FIELD)
};
struct LayerNormGradBetaTiling {
    ASCENDC_EMU_TILING_FIELDS_LayerNormGradBetaTiling(ASCENDC_EMU_KERNEL_TILING_FIELD)
};
struct RmsNormTiling {
    ASCENDC_EMU_TILING_FIELDS_RmsNormTiling(ASCENDC_EMU_KERNEL_TILING_FIELD)
};
struct TopkTiling {
    ASCENDC_EMU_TILING_FIELDS_TopkTiling(ASCENDC_EMU_KERNEL_TILING_FIELD)
};
using ::SoftMaxTiling;  // kernel_tiling.h
using ::TCubeTiling;
struct LogSoftMaxTiling {
    ASCENDC_EMU_TILING_FIELDS_LogSoftMaxTiling(ASCENDC_EMU_KERNEL_TILING_FIELD)
};
struct PadTiling {
    ASCENDC_EMU_TILING_FIELDS_PadTiling(ASCENDC_EMU_KERNEL_TILING_FIELD)
};
struct UnPadTiling {
    ASCENDC_EMU_TILING_FIELDS_UnPadTiling(ASCENDC_EMU_KERNEL_TILING_FIELD)
};
struct ConfusionTransposeTiling {
    ASCENDC_EMU_TILING_FIELDS_ConfusionTransposeTiling(ASCENDC_EMU_KERNEL_TILING_FIELD)
};
}  // namespace tiling
}  // namespace AscendC
#undef ASCENDC_EMU_KERNEL_TILING_FIELD

using BatchNormTiling = AscendC::tiling::BatchNormTiling;
using DeepNormTiling = AscendC::tiling::DeepNormTiling;
using GroupNormTiling = AscendC::tiling::GroupNormTiling;
using LayerNormTiling = AscendC::tiling::LayerNormTiling;
using LayerNormSeparateTiling = AscendC::tiling::LayerNormSeparateTiling;
using LayerNormGradTiling = AscendC::tiling::LayerNormGradTiling;
using LayerNormGradBetaTiling = AscendC::tiling::LayerNormGradBetaTiling;
using RmsNormTiling = AscendC::tiling::RmsNormTiling;
using TopkTiling = AscendC::tiling::TopkTiling;
using LogSoftMaxTiling = AscendC::tiling::LogSoftMaxTiling;
using PadTiling = AscendC::tiling::PadTiling;
using UnPadTiling = AscendC::tiling::UnPadTiling;
using ConfusionTransposeTiling = AscendC::tiling::ConfusionTransposeTiling;
static_assert(std::is_trivially_copyable<BatchNormTiling>::value, "BatchNormTiling is copied byte-wise");
static_assert(std::is_trivially_copyable<DeepNormTiling>::value, "DeepNormTiling is copied byte-wise");
static_assert(std::is_trivially_copyable<GroupNormTiling>::value, "GroupNormTiling is copied byte-wise");
static_assert(std::is_trivially_copyable<LayerNormTiling>::value, "LayerNormTiling is copied byte-wise");
static_assert(std::is_trivially_copyable<LayerNormSeparateTiling>::value, "LayerNormSeparateTiling is copied byte-wise");
static_assert(std::is_trivially_copyable<LayerNormGradTiling>::value, "LayerNormGradTiling is copied byte-wise");
static_assert(std::is_trivially_copyable<LayerNormGradBetaTiling>::value, "LayerNormGradBetaTiling is copied byte-wise");
static_assert(std::is_trivially_copyable<RmsNormTiling>::value, "RmsNormTiling is copied byte-wise");
static_assert(std::is_trivially_copyable<TopkTiling>::value, "TopkTiling is copied byte-wise");
static_assert(std::is_trivially_copyable<SoftMaxTiling>::value, "SoftMaxTiling is copied byte-wise");
#define ASCENDC_EMU_TILING_FIELD_BYTES(type, name) +sizeof(type)
static_assert(sizeof(SoftMaxTiling) == 0 ASCENDC_EMU_TILING_FIELDS_SoftMaxTiling(ASCENDC_EMU_TILING_FIELD_BYTES),
              "kernel_tiling.h's SoftMaxTiling has the field list above");
#undef ASCENDC_EMU_TILING_FIELD_BYTES
static_assert(std::is_trivially_copyable<LogSoftMaxTiling>::value, "LogSoftMaxTiling is copied byte-wise");
static_assert(std::is_trivially_copyable<PadTiling>::value, "PadTiling is copied byte-wise");
static_assert(std::is_trivially_copyable<UnPadTiling>::value, "UnPadTiling is copied byte-wise");
static_assert(std::is_trivially_copyable<ConfusionTransposeTiling>::value, "ConfusionTransposeTiling is copied byte-wise");
#endif  // ASCENDC_EMU_KERNEL_TILING_KERNEL_TILING_ADV_H_

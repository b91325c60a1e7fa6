// Kernel-side tiling structs of the high-level (lib/) APIs (clean-room): field names, types and order as the
// devkit docs print them (each struct names its page), so a tiling struct that embeds one (TILING_DATA_FIELD_DEF_STRUCT
// on the host, a plain member in the kernel) has the same layout on both sides; the host shims in
// host_include/tiling/adv_api_tiling.h fill the same fields. Declared in AscendC::tiling (the namespace the docs'
// kernel-compatible overloads name) and aliased at global scope, where kernels name them unqualified.
#ifndef ASCENDC_EMU_KERNEL_TILING_KERNEL_TILING_ADV_H_
#define ASCENDC_EMU_KERNEL_TILING_KERNEL_TILING_ADV_H_
#include <cstdint>
#include <type_traits>

namespace AscendC {
namespace tiling {
// docs/zh/api/SIMD-API/高阶API/归一化操作/BatchNorm-Tiling.md
struct BatchNormTiling {
    uint32_t originalBLength = 0;
    uint32_t meanVarSize = 0;
    uint32_t meanTmpTensorPos = 0;
    uint32_t varianceTmpTensorPos = 0;
    uint32_t tmpBufSize = 0;
    uint32_t oneTmpSize = 0;
    uint32_t firstTmpStartPos = 0;
    uint32_t secondTmpStartPos = 0;
    uint32_t thirdTmpStartPos = 0;
    uint32_t loopRound = 0;
    uint32_t inputTailSize = 0;
    uint32_t inputTailPos = 0;
    uint32_t meanVarTailSize = 0;
    uint32_t meanVarTailPos = 0;
    uint32_t bshCurLength = 0;
    uint32_t shCurLength = 0;
    float firstDimValueBack = 0;
    uint32_t castHalfRepStride = 0;
    uint32_t shCurLengthBlockNum = 0;
    uint32_t castHalfOutRepStride = 0;
};
// docs/zh/api/SIMD-API/高阶API/归一化操作/DeepNorm-Tiling.md
struct DeepNormTiling {
    uint32_t bLength = 0;
    uint32_t sLength = 0;
    uint32_t hLength = 0;
    uint32_t originalHLength = 0;
    uint32_t inputXSize = 0;
    uint32_t meanVarSize = 0;
    uint32_t numberOfTmpBuf = 0;
    uint32_t meanTmpTensorPos = 0;
    uint32_t meanTmpTensorSize = 0;
    uint32_t varianceTmpTensorPos = 0;
    uint32_t varianceTmpTensorSize = 0;
    uint32_t tmpBufSize = 0;
    uint32_t oneTmpSize = 0;
    uint32_t firstTmpStartPos = 0;
    uint32_t secondTmpStartPos = 0;
    uint32_t thirdTmpStartPos = 0;
    uint32_t loopRound = 0;
    uint32_t inputRoundSize = 0;
    uint32_t inputTailSize = 0;
    uint32_t inputTailPos = 0;
    uint32_t meanVarRoundSize = 0;
    uint32_t meanVarTailSize = 0;
    uint32_t meanVarTailPos = 0;
    uint32_t bshCurLength = 0;
    uint32_t bsCurLength = 0;
    float lastDimValueBack = 0;
};
// docs/zh/api/SIMD-API/高阶API/归一化操作/GroupNorm-Tiling.md
struct GroupNormTiling {
    uint32_t n = 0;
    uint32_t c = 0;
    uint32_t hw = 0;
    uint32_t g = 0;
    uint32_t d = 0;
    uint32_t hwAlignSize = 0;
    uint32_t dhwAlignSize = 0;
    uint32_t inputXSize = 0;
    uint32_t meanVarSize = 0;
    uint32_t numberOfTmpBuf = 0;
    uint32_t meanTmpTensorPos = 0;
    uint32_t meanTmpTensorSize = 0;
    uint32_t varianceTmpTensorPos = 0;
    uint32_t varianceTmpTensorSize = 0;
    uint32_t tmpBufSize = 0;
    uint32_t oneTmpSize = 0;
    uint32_t firstTmpStartPos = 0;
    uint32_t secondTmpStartPos = 0;
    uint32_t thirdTmpStartPos = 0;
    uint32_t loopRound = 0;
    uint32_t inputRoundSize = 0;
    uint32_t inputTailSize = 0;
    uint32_t inputTailPos = 0;
    uint32_t meanVarRoundSize = 0;
    uint32_t meanVarTailSize = 0;
    uint32_t meanVarTailPos = 0;
    uint32_t bshCurLength = 0;
    uint32_t bsCurLength = 0;
    float factor = 0;
    bool smallShape = 0;
};
// docs/zh/api/SIMD-API/高阶API/归一化操作/LayerNorm-Tiling.md
struct LayerNormTiling {
    uint32_t bLength = 0;
    uint32_t sLength = 0;
    uint32_t hLength = 0;
    uint32_t originalHLength = 0;
    uint32_t inputXSize = 0;
    uint32_t meanVarSize = 0;
    uint32_t numberOfTmpBuf = 0;
    uint32_t meanTmpTensorPos = 0;
    uint32_t meanTmpTensorSize = 0;
    uint32_t varianceTmpTensorPos = 0;
    uint32_t varianceTmpTensorSize = 0;
    uint32_t tmpBufSize = 0;
    uint32_t oneTmpSize = 0;
    uint32_t firstTmpStartPos = 0;
    uint32_t secondTmpStartPos = 0;
    uint32_t thirdTmpStartPos = 0;
    uint32_t loopRound = 0;
    uint32_t inputRoundSize = 0;
    uint32_t inputTailSize = 0;
    uint32_t inputTailPos = 0;
    uint32_t meanVarRoundSize = 0;
    uint32_t meanVarTailSize = 0;
    uint32_t meanVarTailPos = 0;
    uint32_t bshCurLength = 0;
    uint32_t bsCurLength = 0;
    float lastDimValueBack = 0;
};
// docs/zh/api/SIMD-API/高阶API/归一化操作/LayerNorm-Tiling.md
struct LayerNormSeparateTiling {
    uint32_t aLength = 0;
    uint32_t rLength = 0;
    uint32_t halfAddRepeatTimes = 0;
    uint32_t rHeadLength = 0;
    float k2Rec = 0;
    float k2RRec = 0;
    uint32_t inputXSize = 0;
    uint32_t meanVarSize = 0;
    uint32_t numberOfTmpBuf = 0;
    uint32_t varianceTmpTensorPos = 0;
    uint32_t varianceTmpTensorSize = 0;
    uint32_t tmpBufSize = 0;
    uint32_t oneTmpSize = 0;
    uint32_t firstTmpStartPos = 0;
    uint32_t secondTmpStartPos = 0;
    uint32_t thirdTmpStartPos = 0;
    uint32_t loopRound = 0;
    uint32_t inputRoundSize = 0;
    uint32_t inputTailSize = 0;
    uint32_t inputTailPos = 0;
    uint32_t meanVarRoundSize = 0;
    uint32_t meanVarTailSize = 0;
    uint32_t meanVarTailPos = 0;
    uint32_t arCurLength = 0;
    uint32_t aCurLength = 0;
    float rValueBack = 0;
};
// docs/zh/api/SIMD-API/高阶API/归一化操作/LayerNormGrad-Tiling.md
struct LayerNormGradTiling {
    uint32_t stackBufferSize = 0;
    uint32_t bLength = 0;
    uint32_t sLength = 0;
    uint32_t hLength = 0;
    uint32_t originalHLength = 0;
    uint32_t oneCalSize = 0;
    uint32_t nohCalSize = 0;
    uint32_t loopNum = 0;
    uint32_t tailSize = 0;
    uint32_t nohTailSize = 0;
    uint32_t tmpTensorBSHPos = 0;
    uint32_t tmpTensorBSHSize = 0;
    uint32_t pdVarTensorPos = 0;
    uint32_t pdVarTensorSize = 0;
    uint32_t pdMeanTensorPos = 0;
    uint32_t pdMeanTensorSize = 0;
    uint32_t x1TensorPos = 0;
    uint32_t x1TensorSize = 0;
    uint32_t x2TensorPos = 0;
    uint32_t x2TensorSize = 0;
    uint32_t x3TensorPos = 0;
    uint32_t x3TensorSize = 0;
    uint32_t tmpTensorPos = 0;
    uint32_t tmpTensorSize = 0;
    uint32_t tmpTensor1Pos = 0;
    uint32_t tmpTensor1Size = 0;
    uint32_t tmpTensor2Pos = 0;
    uint32_t tmpTensor2Size = 0;
    uint32_t lastDimValueBack = 0;
    uint32_t lastDimValueBackMulTwo = 0;
};
// docs/zh/api/SIMD-API/高阶API/归一化操作/LayerNormGradBeta-Tiling.md
struct LayerNormGradBetaTiling {
    uint32_t stackBufferSize = 0;
    uint32_t bLength = 0;
    uint32_t sLength = 0;
    uint32_t hLength = 0;
    uint32_t originalHLength = 0;
    uint32_t bshLength = 0;
    uint32_t bsLength = 0;
    uint32_t oneCalSize = 0;
    uint32_t numberOfTmpBuf = 0;
    uint32_t loopRound = 0;
    uint32_t inputTailSize = 0;
    uint32_t inputTailPos = 0;
    uint32_t bsTailSize = 0;
    uint32_t bshCurLength = 0;
    uint32_t bsCurLength = 0;
    uint32_t gammaTempTensorPos = 0;
    uint32_t betaTempTensorPos = 0;
    uint32_t inputDyTmpTensorPos = 0;
    uint32_t resForGammaTmpTensorPos = 0;
    uint32_t reserved = 0;
};
// docs/zh/api/SIMD-API/高阶API/归一化操作/RmsNorm-Tiling.md
struct RmsNormTiling {
    uint32_t bLength = 0;
    uint32_t sLength = 0;
    uint32_t hLength = 0;
    uint32_t originalHLength = 0;
    float reciprocalOfHLength = 0;
    uint32_t mainBshLength = 0;
    uint32_t mainBsLength = 0;
    uint32_t mainBsLengthAlign = 0;
    uint32_t loopRound = 0;
    uint32_t inputTailPos = 0;
    uint32_t tailBshLength = 0;
    uint32_t tailBsLength = 0;
};
// docs/zh/api/SIMD-API/高阶API/排序操作/TopK-Tiling.md
struct TopkTiling {
    int32_t tmpLocalSize = 0;
    int32_t allDataSize = 0;
    int32_t innerDataSize = 0;
    uint32_t sortRepeat = 0;
    int32_t mrgSortRepeat = 0;
    int32_t kAlignFourBytes = 0;
    int32_t kAlignTwoBytes = 0;
    int32_t maskOffset = 0;
    int32_t maskVreducev2FourBytes = 0;
    int32_t maskVreducev2TwoBytes = 0;
    int32_t mrgSortSrc1offset = 0;
    int32_t mrgSortSrc2offset = 0;
    int32_t mrgSortSrc3offset = 0;
    int32_t mrgSortTwoQueueSrc1Offset = 0;
    int32_t mrgFourQueueTailPara1 = 0;
    int32_t mrgFourQueueTailPara2 = 0;
    int32_t srcIndexOffset = 0;
    uint32_t copyUbToUbBlockCount = 0;
    int32_t topkMrgSrc1MaskSizeOffset = 0;
    int32_t topkNSmallSrcIndexOffset = 0;
    uint32_t vreduceValMask0 = 0;
    uint32_t vreduceValMask1 = 0;
    uint32_t vreduceIdxMask0 = 0;
    uint32_t vreduceIdxMask1 = 0;
    uint16_t vreducehalfValMask0 = 0;
    uint16_t vreducehalfValMask1 = 0;
    uint16_t vreducehalfValMask2 = 0;
    uint16_t vreducehalfValMask3 = 0;
    uint16_t vreducehalfValMask4 = 0;
    uint16_t vreducehalfValMask5 = 0;
    uint16_t vreducehalfValMask6 = 0;
    uint16_t vreducehalfValMask7 = 0;
};
// docs/zh/api/SIMD-API/高阶API/激活函数/SoftMax接口/SoftMax-Tiling使用说明.md
struct SoftMaxTiling {
    uint32_t srcM = 0;
    uint32_t srcK = 0;
    uint32_t srcSize = 0;
    uint32_t outMaxM = 0;
    uint32_t outMaxK = 0;
    uint32_t outMaxSize = 0;
    uint32_t splitM = 0;
    uint32_t splitK = 0;
    uint32_t splitSize = 0;
    uint32_t reduceM = 0;
    uint32_t reduceK = 0;
    uint32_t reduceSize = 0;
    uint32_t rangeM = 0;
    uint32_t tailM = 0;
    uint32_t tailSplitSize = 0;
    uint32_t tailReduceSize = 0;
};
// docs/zh/api/SIMD-API/高阶API/激活函数/LogSoftMax接口/LogSoftMax-Tiling.md (fields not published: the SoftMaxTiling set)
struct LogSoftMaxTiling {
    uint32_t srcM = 0;
    uint32_t srcK = 0;
    uint32_t srcSize = 0;
    uint32_t outMaxM = 0;
    uint32_t outMaxK = 0;
    uint32_t outMaxSize = 0;
    uint32_t splitM = 0;
    uint32_t splitK = 0;
    uint32_t splitSize = 0;
    uint32_t reduceM = 0;
    uint32_t reduceK = 0;
    uint32_t reduceSize = 0;
    uint32_t rangeM = 0;
    uint32_t tailM = 0;
    uint32_t tailSplitSize = 0;
    uint32_t tailReduceSize = 0;
};
// docs/zh/api/SIMD-API/高阶API/张量变换/Pad-Tiling.md (fields not published: the emulator's own)
struct PadTiling {
    uint32_t srcHeight = 0;
    uint32_t srcWidth = 0;
    uint32_t srcOriHeight = 0;
    uint32_t srcOriWidth = 0;
    uint32_t tmpBufSize = 0;
    uint32_t typeSize = 0;
};
// docs/zh/api/SIMD-API/高阶API/张量变换/UnPad-Tiling.md (fields not published: the emulator's own)
struct UnPadTiling {
    uint32_t srcHeight = 0;
    uint32_t srcWidth = 0;
    uint32_t tmpBufSize = 0;
    uint32_t typeSize = 0;
};
// docs/zh/api/SIMD-API/高阶API/张量变换/Transpose-Tiling.md (fields not published: the emulator's own)
struct ConfusionTransposeTiling {
    uint32_t transposeType = 0;
    uint32_t typeSize = 0;
    uint32_t b = 0;
    uint32_t n = 0;
    uint32_t s = 0;
    uint32_t hnDiv = 0;
    uint32_t h = 0;
    uint32_t tmpBufSize = 0;
};
}  // namespace tiling
}  // namespace AscendC

using BatchNormTiling = AscendC::tiling::BatchNormTiling;
using DeepNormTiling = AscendC::tiling::DeepNormTiling;
using GroupNormTiling = AscendC::tiling::GroupNormTiling;
using LayerNormTiling = AscendC::tiling::LayerNormTiling;
using LayerNormSeparateTiling = AscendC::tiling::LayerNormSeparateTiling;
using LayerNormGradTiling = AscendC::tiling::LayerNormGradTiling;
using LayerNormGradBetaTiling = AscendC::tiling::LayerNormGradBetaTiling;
using RmsNormTiling = AscendC::tiling::RmsNormTiling;
using TopkTiling = AscendC::tiling::TopkTiling;
using SoftMaxTiling = AscendC::tiling::SoftMaxTiling;
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
static_assert(std::is_trivially_copyable<LogSoftMaxTiling>::value, "LogSoftMaxTiling is copied byte-wise");
static_assert(std::is_trivially_copyable<PadTiling>::value, "PadTiling is copied byte-wise");
static_assert(std::is_trivially_copyable<UnPadTiling>::value, "UnPadTiling is copied byte-wise");
static_assert(std::is_trivially_copyable<ConfusionTransposeTiling>::value, "ConfusionTransposeTiling is copied byte-wise");
#endif  // ASCENDC_EMU_KERNEL_TILING_KERNEL_TILING_ADV_H_

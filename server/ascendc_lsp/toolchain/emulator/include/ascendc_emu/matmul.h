// Matmul high-level API (clean-room, from the documented behaviour): C = op(A) x op(B) (+ bias) for this core's
// single-core tile (singleCoreM x singleCoreN x singleCoreK, or what SetSingleShape / SetTail say), accumulated in
// fp32 (int32 for int8 inputs) and converted once to C's type. The AIC/AIV messaging and the L1/L0 blocking of the
// real implementation are not emulated: the result is, plus trace events (MTE2 -> MTE1 -> M -> FIX per base block)
// that the cost model charges with the baseM/baseN/baseK blocking of the tiling.
// Matrices in GM (ND, row-major): A [M, Ka] (transposed: [Ka, M]), B [Kb, N] (transposed: [N, Kb]), C [M, N];
// the row strides come from SetOrgShape (default: the tiling's M, N, Ka, Kb). NZ format (A/B) uses the L1 layout
// of cube.h with the single-core shape rounded up to 16 rows.
#ifndef ASCENDC_EMU_ASCENDC_EMU_MATMUL_H_
#define ASCENDC_EMU_ASCENDC_EMU_MATMUL_H_
#include "../kernel_operator.h"
#include "../kernel_tiling/kernel_tiling.h"

// The kernel-parameter qualifier of the Matmul message workspace in direct-launch kernels (`__kfc_workspace__
// GM_ADDR workspace`): no meaning on the CPU.
#ifndef __kfc_workspace__
#define __kfc_workspace__
#endif

// ---- Matmul configuration (docs: Matmul-Kernel侧接口/MatmulConfig.md, GetMMConfig.md, Matmul模板参数.md,
// GetMatmulApiTiling.md). As in the SDK these live at global scope (kernels write `CubeFormat::ND`, `CFG_MDL`,
// `MatmulConfig` without a namespace) and AscendC names them too.
constexpr uint32_t SHARED_CO1_BUFFER_SIZE = 64 * 1024;
enum class CubeFormat { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW_MAJOR = ND, COLUMN_MAJOR = 8 };
enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum BatchOutMode { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum IterateMode : uint8_t {
    ITERATE_MODE_NORMAL = 0b00000001,
    ITERATE_MODE_ALL = 0b00000010,
    ITERATE_MODE_BATCH = 0b00000100,
    ITERATE_MODE_N_BATCH = 0b00001000,
    ITERATE_MODE_DEFAULT = 0b11111111,
};
enum class DecompressionMode {
    DECOMP_NONE = 0, DECOMP_2bitTo8bit, DECOMP_3bitTo8bit, DECOMP_4bitTo8bit, DECOMP_16bitTo64bit,
    DECOMP_1bitTo8bit, DECOMP_1bitTo4bit, DECOMP_2bitTo4bit, DECOMP_3bitTo4bit,
};

// Field order as MatmulConfig.md's table (kernels aggregate-initialise the leading fields:
// `MatmulConfig cfg{false, true, false, 128, 128, 64}`).
struct MatmulConfig {
    bool doNorm = true;
    bool doBasicBlock = false;
    bool doMultiDataLoad = false;
    uint32_t basicM = 0, basicN = 0, basicK = 0;
    bool intrinsicsCheck = false;
    bool isNBatch = false;
    bool enVecND2NZ = false;
    bool doSpecialBasicBlock = false;
    uint32_t doMTE2Preload = 0;
    uint32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
    uint32_t stepM = 0, stepN = 0;
    uint32_t baseMN = 0, singleCoreMN = 0;
    bool enUnitFlag = true;
    bool isPerTensor = false;
    bool hasAntiQuantOffset = false;
    bool doIBShareNorm = false;
    bool doSpecialMDL = false;
    bool enableInit = true;
    BatchMode batchMode = BatchMode::NONE;
    bool enableEnd = true;
    bool enableGetTensorC = true;
    bool enableSetOrgShape = true;
    bool enableSetBias = true;
    bool enableSetTail = true;
    bool enableQuantVector = true;
    bool enableSetDefineData = true;
    uint8_t iterateMode = IterateMode::ITERATE_MODE_DEFAULT;
    bool enableReuse = true;
    bool enableUBReuse = false;
    bool enableL1CacheUB = false;
    bool intraBlockPartSum = false;
    IterateOrder iterateOrder = IterateOrder::UNDEF;
    ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
    bool enableDoubleCache = false;
    bool isBiasBatch = true;
    bool enableStaticPadZeros = false;
    bool isPartialOutput = false;
    bool enableMixDualMaster = false;
    bool isA2B2Shared = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
    bool isCO1Shared = false;
    uint32_t sharedCO1BufferSize = SHARED_CO1_BUFFER_SIZE;
    BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
    bool enableL1BankConflictOptimise = false;
    bool enableRelu = false;  // Relu on C as it leaves L0C
    DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};
constexpr MatmulConfig GetNormalConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                       const bool isVecND2NZ = false,
                                       const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                       const bool isMsgReuse = true,
                                       const IterateOrder iterateOrder = IterateOrder::UNDEF,
                                       const ScheduleType scheduleType = ScheduleType::INNER_PRODUCT,
                                       const bool enUnitFlag = true, const bool enableMixDualMaster = false,
                                       const BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH) {
    MatmulConfig c{};
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.enVecND2NZ = isVecND2NZ;
    c.batchMode = bmmMode;
    c.enableReuse = isMsgReuse;
    c.iterateOrder = iterateOrder;
    c.scheduleType = scheduleType;
    c.enUnitFlag = enUnitFlag;
    c.enableMixDualMaster = enableMixDualMaster;
    c.bmmOutMode = bmmOutMode;
    return c;
}
constexpr MatmulConfig GetMDLConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                    const uint32_t doMTE2Preload = 0, const bool isVecND2NZ = false,
                                    bool isPerTensor = false, bool hasAntiQuantOffset = false,
                                    const bool enUnitFlag = false, const bool isMsgReuse = true,
                                    const bool enableUBReuse = true, const bool enableL1CacheUB = false,
                                    const bool enableMixDualMaster = false, const bool enableKdimReorderLoad = false) {
    MatmulConfig c{};
    c.doNorm = false;
    c.doMultiDataLoad = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.doMTE2Preload = doMTE2Preload;
    c.enVecND2NZ = isVecND2NZ;
    c.isPerTensor = isPerTensor;
    c.hasAntiQuantOffset = hasAntiQuantOffset;
    c.enUnitFlag = enUnitFlag;
    c.enableReuse = isMsgReuse;
    c.enableUBReuse = enableUBReuse;
    c.enableL1CacheUB = enableL1CacheUB;
    c.enableMixDualMaster = enableMixDualMaster;
    c.enableKdimReorderLoad = enableKdimReorderLoad;
    return c;
}
constexpr MatmulConfig GetSpecialMDLConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                           const uint32_t doMTE2Preload = 0, const bool isVecND2NZ = false,
                                           bool isPerTensor = false, bool hasAntiQuantOffset = false) {
    MatmulConfig c = GetMDLConfig(intrinsicsLimit, batchLoop, doMTE2Preload, isVecND2NZ, isPerTensor,
                                  hasAntiQuantOffset);
    c.doMultiDataLoad = false;
    c.doSpecialMDL = true;
    return c;
}
constexpr MatmulConfig GetBasicConfig(const uint32_t basicM, const uint32_t basicN, const uint32_t basicK,
                                      const bool intrinsicsLimit = false, const bool batchLoop = false,
                                      const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
    MatmulConfig c{};
    c.doNorm = false;
    c.doBasicBlock = true;
    c.basicM = basicM;
    c.basicN = basicN;
    c.basicK = basicK;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.batchMode = bmmMode;
    return c;
}
constexpr MatmulConfig GetSpecialBasicConfig(const uint32_t basicM, const uint32_t basicN, const uint32_t basicK,
                                             const uint32_t singleCoreM, const uint32_t singleCoreN,
                                             const uint32_t singleCoreK, const uint32_t stepM, const uint32_t stepN,
                                             const bool intrinsicsLimit = false, const bool batchLoop = false,
                                             const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
    MatmulConfig c = GetBasicConfig(basicM, basicN, basicK, intrinsicsLimit, batchLoop, bmmMode);
    c.doBasicBlock = false;
    c.doSpecialBasicBlock = true;
    c.singleCoreM = singleCoreM;
    c.singleCoreN = singleCoreN;
    c.singleCoreK = singleCoreK;
    c.stepM = stepM;
    c.stepN = stepN;
    c.baseMN = basicM * basicN;
    c.singleCoreMN = singleCoreM * singleCoreN;
    return c;
}
constexpr MatmulConfig GetIBShareNormConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                            const bool isVecND2NZ = false,
                                            const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                            const bool isDoubleCache = false, const bool enUnitFlag = true) {
    MatmulConfig c = GetNormalConfig(intrinsicsLimit, batchLoop, isVecND2NZ, bmmMode);
    c.doNorm = false;
    c.doIBShareNorm = true;
    c.enableDoubleCache = isDoubleCache;
    c.enUnitFlag = enUnitFlag;
    return c;
}
constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();
constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();
constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);

// GetMMConfig.md: a template (MatmulConfigMode) modified by any of the second-level configs, in any order.
enum class MatmulConfigMode { CONFIG_NORM, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };
struct MatmulShapeParams {
    uint32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
    uint32_t basicM = 0, basicN = 0, basicK = 0;
};
struct MatmulQuantParams {
    bool isPerTensor = false;
    bool hasAntiQuantOffset = false;
};
struct MatmulBatchParams {
    bool isNBatch = false;
    BatchMode batchMode = BatchMode::NONE;
    bool isBiasBatch = true;
    BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
};
struct MatmulFuncParams {
    bool intrinsicsLimit = false;
    bool enVecND2NZ = false;
    bool enableDoubleCache = false;
    bool enableL1CacheUB = false;
    uint32_t doMTE2Preload = 0;
    IterateOrder iterateOrder = IterateOrder::ORDER_M;
    ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
    bool enableReuse = true;
    bool enableUBReuse = false;
    bool isPartialOutput = false;
    bool isA2B2Shared = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
    bool enableL1BankConflictOptimise = false;
    bool enableRelu = false;
    DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};
struct MatmulBiasParams {
    bool enableSetBias = true;
};
namespace ascendc_emu_mm {
constexpr void apply(MatmulConfig& c, const MatmulShapeParams& p) {
    c.singleCoreM = p.singleCoreM; c.singleCoreN = p.singleCoreN; c.singleCoreK = p.singleCoreK;
    c.basicM = p.basicM; c.basicN = p.basicN; c.basicK = p.basicK;
    c.baseMN = p.basicM * p.basicN;
    c.singleCoreMN = p.singleCoreM * p.singleCoreN;
}
constexpr void apply(MatmulConfig& c, const MatmulQuantParams& p) {
    c.isPerTensor = p.isPerTensor; c.hasAntiQuantOffset = p.hasAntiQuantOffset;
}
constexpr void apply(MatmulConfig& c, const MatmulBatchParams& p) {
    c.isNBatch = p.isNBatch; c.batchMode = p.batchMode; c.isBiasBatch = p.isBiasBatch; c.bmmOutMode = p.bmmOutMode;
}
constexpr void apply(MatmulConfig& c, const MatmulFuncParams& p) {
    c.intrinsicsCheck = p.intrinsicsLimit; c.enVecND2NZ = p.enVecND2NZ; c.enableDoubleCache = p.enableDoubleCache;
    c.enableL1CacheUB = p.enableL1CacheUB; c.doMTE2Preload = p.doMTE2Preload; c.iterateOrder = p.iterateOrder;
    c.scheduleType = p.scheduleType; c.enableReuse = p.enableReuse; c.enableUBReuse = p.enableUBReuse;
    c.isPartialOutput = p.isPartialOutput; c.isA2B2Shared = p.isA2B2Shared;
    c.isEnableChannelSplit = p.isEnableChannelSplit; c.enableKdimReorderLoad = p.enableKdimReorderLoad;
    c.enableL1BankConflictOptimise = p.enableL1BankConflictOptimise; c.enableRelu = p.enableRelu;
    c.decompMode = p.decompMode;
}
constexpr void apply(MatmulConfig& c, const MatmulBiasParams& p) { c.enableSetBias = p.enableSetBias; }
}  // namespace ascendc_emu_mm
template <MatmulConfigMode configMode, typename... ArgTypes>
constexpr MatmulConfig GetMMConfig(ArgTypes&&... args) {
    MatmulConfig c = configMode == MatmulConfigMode::CONFIG_MDL          ? GetMDLConfig()
                     : configMode == MatmulConfigMode::CONFIG_SPECIALMDL ? GetSpecialMDLConfig()
                     : configMode == MatmulConfigMode::CONFIG_IBSHARE    ? GetIBShareNormConfig()
                                                                         : GetNormalConfig();
    (ascendc_emu_mm::apply(c, args), ...);
    return c;
}

// Matmul模板参数.md table 1: constant tiling values (int32_t, as the TCubeTiling fields of the same names) and the
// template. A value of 0 in the shape fields means "not constant" (a partly constant tiling: the base block only).
struct MatmulApiStaticTiling {
    int32_t M = 0, N = 0, Ka = 0, Kb = 0;
    int32_t singleCoreM = 0, singleCoreN = 0, singleCoreK = 0;
    int32_t baseM = 0, baseN = 0, baseK = 0;
    int32_t depthA1 = 0, depthB1 = 0;
    int32_t stepM = 0, stepN = 0, stepKa = 0, stepKb = 0;
    int32_t isBias = 0;
    int32_t transLength = 0;
    int32_t iterateOrder = 0;
    int32_t dbL0A = 0, dbL0B = 0;
    int32_t dbL0C = 0;
    int32_t shareMode = 0;
    int32_t shareL1Size = 0;
    int32_t shareL0CSize = 0;
    int32_t shareUbSize = 0;
    int32_t batchM = 0;
    int32_t batchN = 0;
    int32_t singleBatchM = 0;
    int32_t singleBatchN = 0;
    int32_t mxTypePara = 0;
    MatmulConfig cfg{};
};

namespace AscendC {
using ::BatchMode;
using ::BatchOutMode;
using ::CubeFormat;
using ::DecompressionMode;
using ::GetBasicConfig;
using ::GetIBShareNormConfig;
using ::GetMDLConfig;
using ::GetMMConfig;
using ::GetNormalConfig;
using ::GetSpecialBasicConfig;
using ::GetSpecialMDLConfig;
using ::IterateMode;
using ::IterateOrder;
using ::LayoutMode;
using ::MatmulApiStaticTiling;
using ::MatmulBatchParams;
using ::MatmulBiasParams;
using ::MatmulConfig;
using ::MatmulConfigMode;
using ::MatmulFuncParams;
using ::MatmulQuantParams;
using ::MatmulShapeParams;
using ::ScheduleType;
using ::CFG_IBSHARE_NORM;
using ::CFG_MDL;
using ::CFG_NORM;
using ::MM_CFG_BB;
enum MatmulVersion : uint8_t { NORMAL = 0, MULTI_DATA_LOAD, BASIC_BLOCK, IBSHARE_NORM };
namespace Impl {
constexpr int32_t L1_SIZE = 512 * 1024;  // the default l1Size of GetMatmulApiTiling (Atlas A2 L1 Buffer)
}  // namespace Impl

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct MatmulType {
    constexpr static TPosition pos = POSITION;
    constexpr static CubeFormat format = FORMAT;
    using T = TYPE;
    constexpr static bool isTrans = ISTRANS;
    constexpr static LayoutMode layout = LAYOUT;
    constexpr static bool ibShare = IBSHARE;
};

// GetMatmulApiTiling.md: the constant tiling of a template whose base block (and maybe single-core shape) are
// constants. The values other than those the template fixes are the emulator's own choice (the SDK's search is
// not published): K fully resident in L1 when A's and B's single-core strips fit in half of l1Size each, else one
// base block of K; double-buffered L0A/L0B.
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& mmCFG, int32_t l1Size = Impl::L1_SIZE) {
    MatmulApiStaticTiling t{};
    t.cfg = mmCFG;
    t.singleCoreM = (int32_t)mmCFG.singleCoreM;
    t.singleCoreN = (int32_t)mmCFG.singleCoreN;
    t.singleCoreK = (int32_t)mmCFG.singleCoreK;
    t.M = t.singleCoreM;
    t.N = t.singleCoreN;
    t.Ka = t.Kb = t.singleCoreK;
    t.baseM = (int32_t)mmCFG.basicM;
    t.baseN = (int32_t)mmCFG.basicN;
    t.baseK = (int32_t)mmCFG.basicK;
    t.stepM = t.stepN = 1;
    const int32_t ka = t.baseK > 0 && t.singleCoreK > 0 ? (t.singleCoreK + t.baseK - 1) / t.baseK : 1;
    const int64_t aStrip = (int64_t)t.baseM * t.baseK * (int64_t)sizeof(typename A_TYPE::T) * ka;
    const int64_t bStrip = (int64_t)t.baseN * t.baseK * (int64_t)sizeof(typename B_TYPE::T) * ka;
    const bool kFull = aStrip * 2 <= l1Size / 2 && bStrip * 2 <= l1Size / 2;
    t.stepKa = t.stepKb = kFull ? ka : 1;
    t.depthA1 = t.stepM * t.stepKa * 2;
    t.depthB1 = t.stepN * t.stepKb * 2;
    t.isBias = mmCFG.enableSetBias ? 1 : 0;
    t.iterateOrder = mmCFG.iterateOrder == IterateOrder::ORDER_N ? 1 : 0;
    t.dbL0A = t.dbL0B = 2;
    t.dbL0C = 1;
    (void)sizeof(typename C_TYPE::T);
    (void)sizeof(typename BIAS_TYPE::T);
    return t;
}

template <auto... Callbacks>
struct MatmulCallBackFunc {};

// MatmulPolicy.md: the built-in policies (Impl::Detail). TrianUpper/TrianLower skip the base blocks below/above
// the diagonal of the single-core C; the others change only the NPU's data movement, which the emulator does not
// model separately (MatmulWithScalePolicy's scale matrices are not emulated).
namespace Impl {
namespace Detail {
template <const auto& MM_CFG, typename... Ts> struct MatmulPolicy { static constexpr int triangle = 0; };
template <const auto& MM_CFG, typename... Ts> struct TrianUpperMatmulPolicy { static constexpr int triangle = 1; };
template <const auto& MM_CFG, typename... Ts> struct TrianLowerMatmulPolicy { static constexpr int triangle = 2; };
template <const auto& MM_CFG, typename... Ts> struct NBuffer33MatmulPolicy { static constexpr int triangle = 0; };
template <const auto& MM_CFG, typename... Ts> struct MatmulWithScalePolicy { static constexpr int triangle = 0; };
template <const auto& MM_CFG, typename... Ts> struct SplitMMatmulPolicy { static constexpr int triangle = 0; };
template <const auto& MM_CFG, typename... Ts> struct SplitNMatmulPolicy { static constexpr int triangle = 0; };
}  // namespace Detail
}  // namespace Impl
}  // namespace AscendC
#define MATMUL_POLICY_DEFAULT_OF(DEFAULT) \
    template <const auto& = MM_CFG, typename...> class MATMUL_POLICY = AscendC::Impl::Detail::DEFAULT

namespace ascendc_emu {
// One matrix operand: where it lives and how element (row, col) of op(X) is found.
struct MmOperand {
    const uint8_t* ptr = nullptr;  // GM or local host address
    bool gm = true;
    bool set = false;
    bool trans = false;
    bool nz = false;
    bool scalar = false;
    double scalar_value = 0;
    AscendC::LocalTensor<uint8_t> local;  // when !gm
};

struct MatmulCore {
    bool inited = false;
    TCubeTiling t{};
    AscendC::TPipe* pipe = nullptr;
    int32_t orgM = 0, orgN = 0, orgKa = 0, orgKb = 0, orgKc = 0;
    int32_t sM = 0, sN = 0, sK = 0;
    MmOperand a, b, bias;
    bool bias_on = false;
    // Iterate state
    int32_t iter = -1, mIter = 0, nIter = 0, curM = 0, curN = 0;
    bool fetched = false;  // the current block was taken by an asynchronous GetTensorC<false>
    std::vector<float> block;  // the current base block, row-major, curMLen x curNLen
    int32_t curMLen = 0, curNLen = 0;
    Loc init_loc{nullptr, 0};
    // template / policy state (set by the Matmul constructor)
    int triangle = 0;  // 1: TrianUpperMatmulPolicy, 2: TrianLowerMatmulPolicy
    bool relu = false;  // MatmulConfig::enableRelu
    bool stat_base = false, stat_full = false;  // a MatmulApiStaticTiling template: base block / all shapes constant
    TCubeTiling stat{};
    // SetQuantScalar / SetQuantVector
    int quant = 0;  // 0 none, 1 scalar, 2 vector
    uint64_t quant_scalar = 0;
    const uint8_t* quant_vec = nullptr;
    bool quant_gm = true;
    AscendC::LocalTensor<uint8_t> quant_local;
    uint8_t* ws = nullptr;  // SetWorkspace

    void set_static(int32_t M, int32_t N, int32_t Ka, int32_t Kb, int32_t sm, int32_t sn, int32_t sk, int32_t bm,
                    int32_t bn, int32_t bk, int32_t order) {
        stat_base = bm > 0 && bn > 0 && bk > 0;
        stat_full = stat_base && sm > 0 && sn > 0 && sk > 0;
        stat.M = M; stat.N = N; stat.Ka = Ka; stat.Kb = Kb;
        stat.singleCoreM = sm; stat.singleCoreN = sn; stat.singleCoreK = sk;
        stat.baseM = bm; stat.baseN = bn; stat.baseK = bk;
        stat.iterateOrder = order;
        stat.usedCoreNum = 1;
    }
    // TrianUpper/TrianLower policies: the base blocks of the single-core C the Matmul neither computes nor writes.
    bool skip_block(int32_t bi, int32_t bj) const { return (triangle == 1 && bi > bj) || (triangle == 2 && bi < bj); }
    bool skip_elem(int32_t row, int32_t col) const {
        return triangle && skip_block(row / (t.baseM > 0 ? t.baseM : 1), col / (t.baseN > 0 ? t.baseN : 1));
    }

    bool ready(const char* api, const Loc& loc) {
        if (inited) return true;
        report_error("matmul-uninitialised", "tiling-runtime", P_S, api, loc,
                     "%s on a Matmul object that was never initialised: call REGIST_MATMUL_OBJ(&pipe, "
                     "GetSysWorkSpacePtr(), mm, &tiling) (or mm.Init(&tiling)) first", api);
        return false;
    }
    void init(const TCubeTiling* tiling, AscendC::TPipe* p, const Loc& loc) {
        inited = true;
        pipe = p;
        init_loc = loc;
        if (!tiling && stat_full) tiling = &stat;  // GetMatmulApiTiling.md: a fully constant tiling needs none
        if (!tiling) return;  // REGIST_MATMUL_OBJ(..., mm, nullptr) and a later Init(&tiling)
        t = *tiling;
        if (stat_base && tiling != &stat) check_static(loc);
        // defaults for fields a spec may leave at 0 (a tiny host-tiling shim)
        if (!t.Kb) t.Kb = t.Ka;
        if (!t.singleCoreM) t.singleCoreM = t.M;
        if (!t.singleCoreN) t.singleCoreN = t.N;
        if (!t.singleCoreK) t.singleCoreK = t.Ka;
        if (!t.baseM) t.baseM = t.singleCoreM < 128 ? ((t.singleCoreM + 15) / 16 * 16) : 128;
        if (!t.baseN) t.baseN = t.singleCoreN < 256 ? ((t.singleCoreN + 15) / 16 * 16) : 256;
        if (!t.baseK) t.baseK = 64;
        if (!t.usedCoreNum) t.usedCoreNum = 1;
        orgM = t.M; orgN = t.N; orgKa = t.Ka; orgKb = t.Kb; orgKc = 0;
        sM = t.singleCoreM; sN = t.singleCoreN; sK = t.singleCoreK;
        check_tiling(loc);
    }
    // GetMatmulApiTiling.md: the constants of the template "need to equal the values the tiling computes".
    void check_static(const Loc& loc) {
        if (t.baseM != stat.baseM || t.baseN != stat.baseN || t.baseK != stat.baseK)
            report_error("matmul-static-tiling", "tiling-runtime", P_S, "REGIST_MATMUL_OBJ", loc,
                         "the Matmul's constant tiling (GetMatmulApiTiling) has base block %d x %d x %d but the "
                         "runtime TCubeTiling has %d x %d x %d: the template's basicM/N/K must equal the tiling's",
                         stat.baseM, stat.baseN, stat.baseK, t.baseM, t.baseN, t.baseK);
        if (stat_full && (t.singleCoreM != stat.singleCoreM || t.singleCoreN != stat.singleCoreN ||
                          t.singleCoreK != stat.singleCoreK))
            report_error("matmul-static-tiling", "tiling-runtime", P_S, "REGIST_MATMUL_OBJ", loc,
                         "the Matmul's constant tiling has single-core shape %d x %d x %d but the runtime TCubeTiling "
                         "has %d x %d x %d", stat.singleCoreM, stat.singleCoreN, stat.singleCoreK, t.singleCoreM,
                         t.singleCoreN, t.singleCoreK);
    }
    void check_tiling(const Loc& loc) {
        const char* api = "REGIST_MATMUL_OBJ";
        if (t.M <= 0 || t.N <= 0 || t.Ka <= 0)
            report_error("matmul-tiling", "tiling-runtime", P_S, api, loc,
                         "TCubeTiling has M=%d N=%d Ka=%d: the shape must be positive (was the tiling copied in?)",
                         t.M, t.N, t.Ka);
        if (t.Ka != t.Kb)
            report_error("matmul-tiling", "tiling-runtime", P_S, api, loc,
                         "TCubeTiling has Ka=%d but Kb=%d: A's K and B's K must agree", t.Ka, t.Kb);
        if (t.singleCoreM > t.M || t.singleCoreN > t.N || t.singleCoreK > t.Ka)
            report_warning("matmul-tiling", "tiling-runtime", P_S, api, loc,
                           "TCubeTiling single-core shape %d x %d x %d exceeds the whole shape %d x %d x %d",
                           t.singleCoreM, t.singleCoreN, t.singleCoreK, t.M, t.N, t.Ka);
        if (t.baseM <= 0 || t.baseN <= 0 || t.baseK <= 0) {
            report_error("matmul-tiling", "tiling-runtime", P_S, api, loc,
                         "TCubeTiling base block %d x %d x %d must be positive", t.baseM, t.baseN, t.baseK);
            t.baseM = t.baseM > 0 ? t.baseM : 16; t.baseN = t.baseN > 0 ? t.baseN : 16; t.baseK = t.baseK > 0 ? t.baseK : 16;
        }
        const Soc& s = rt().soc;
        uint64_t l0c = (uint64_t)t.baseM * t.baseN * 4u * (t.dbL0C > 1 ? 2u : 1u);
        if (l0c > s.bytes[SP_L0C])
            report_error("matmul-tiling", "tiling-runtime", P_S, api, loc,
                         "TCubeTiling baseM x baseN = %d x %d needs %s B of L0C%s; %s has %s B", t.baseM, t.baseN,
                         EMU_N(l0c), t.dbL0C > 1 ? " (double-buffered)" : "", s.name, EMU_N(s.bytes[SP_L0C]));
    }
    void set_operand(MmOperand& o, const void* p, bool gm, bool trans, bool nz, const Loc& loc, const char* api) {
        (void)loc; (void)api;
        o.ptr = (const uint8_t*)p;
        o.gm = gm;
        o.trans = trans;
        o.nz = nz;
        o.set = true;
        o.scalar = false;
        iter = -1;
    }
};

template <class T> inline float mm_ld(const uint8_t* p) { T v; memcpy(&v, p, sizeof(T)); return (float)(calc_t<T>)v; }

// Join every pipe's clock: the synchronous Matmul calls return after the cube finished (internal sync).
EMU_RT_FN void mm_full_sync()
#if ASCENDC_EMU_RT_BODIES
{
    join_all_pipes();
}
#else
;
#endif
}  // namespace ascendc_emu

namespace AscendC {
// Matmul模板参数.md: MM_CFG is a MatmulConfig or a MatmulApiStaticTiling; MM_CB's callbacks are accepted but
// not run (the emulator reads A/B and writes C itself); MATMUL_POLICY one of the Impl::Detail policies.
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>, MATMUL_POLICY_DEFAULT_OF(MatmulPolicy)>
class MatmulImpl {
    static constexpr bool kStatic =
        std::is_same<typename std::decay<decltype(MM_CFG)>::type, MatmulApiStaticTiling>::value;
    static constexpr const MatmulConfig& cfg() {
        if constexpr (kStatic) return MM_CFG.cfg; else return MM_CFG;
    }
    using Policy = MATMUL_POLICY<MM_CFG, MatmulImpl, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE>;

public:
    using SrcAT = typename A_TYPE::T;
    using SrcBT = typename B_TYPE::T;
    using DstT = typename C_TYPE::T;
    using BiasT = typename BIAS_TYPE::T;
    using L0cT = typename std::conditional<std::is_integral<SrcAT>::value, int32_t, float>::type;

    ascendc_emu::MatmulCore core_;

    MatmulImpl() {
        core_.triangle = Policy::triangle;
        core_.relu = cfg().enableRelu;
        if constexpr (kStatic) core_.set_static(MM_CFG.M, MM_CFG.N, MM_CFG.Ka, MM_CFG.Kb, MM_CFG.singleCoreM,
                                                MM_CFG.singleCoreN, MM_CFG.singleCoreK, MM_CFG.baseM, MM_CFG.baseN,
                                                MM_CFG.baseK, MM_CFG.iterateOrder);
    }
    void Init(const TCubeTiling* tiling, TPipe* tpipe = nullptr, EMU_LOC) { core_.init(tiling, tpipe, loc); }
    void SetOrgShape(int orgM, int orgN, int orgK, EMU_LOC) { SetOrgShape(orgM, orgN, orgK, orgK, 0, loc); }
    void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0, EMU_LOC) {
        if (!core_.ready("SetOrgShape", loc)) return;
        core_.orgM = orgM; core_.orgN = orgN; core_.orgKa = orgKa; core_.orgKb = orgKb; core_.orgKc = orgKc;
    }
    void SetSingleShape(int singleM, int singleN, int singleK, EMU_LOC) {
        if (!core_.ready("SetSingleShape", loc)) return;
        core_.sM = singleM; core_.sN = singleN; core_.sK = singleK;
        core_.iter = -1;
    }
    void SetTail(int tailM = -1, int tailN = -1, int tailK = -1, EMU_LOC) {
        if (!core_.ready("SetTail", loc)) return;
        if (tailM > 0) core_.sM = tailM;
        if (tailN > 0) core_.sN = tailN;
        if (tailK > 0) core_.sK = tailK;
        core_.iter = -1;
    }
    void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false, EMU_LOC) {
        if (!core_.ready("SetTensorA", loc)) return;
        core_.set_operand(core_.a, gm.ptr_, true, isTransposeA, A_TYPE::format == CubeFormat::NZ,
                          loc, "SetTensorA");
    }
    void SetTensorA(const LocalTensor<SrcAT>& t, bool isTransposeA = false, EMU_LOC) {
        if (!core_.ready("SetTensorA", loc)) return;
        core_.set_operand(core_.a, t.ptr_, false, isTransposeA, A_TYPE::format == CubeFormat::NZ, loc, "SetTensorA");
        core_.a.local = t.template ReinterpretCast<uint8_t>();
    }
    void SetTensorA(SrcAT scalar, EMU_LOC) {
        if (!core_.ready("SetTensorA", loc)) return;
        core_.a.set = true; core_.a.scalar = true; core_.a.scalar_value = (double)(ascendc_emu::calc_t<SrcAT>)scalar;
    }
    void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false, EMU_LOC) {
        if (!core_.ready("SetTensorB", loc)) return;
        core_.set_operand(core_.b, gm.ptr_, true, isTransposeB, B_TYPE::format == CubeFormat::NZ, loc, "SetTensorB");
    }
    void SetTensorB(const LocalTensor<SrcBT>& t, bool isTransposeB = false, EMU_LOC) {
        if (!core_.ready("SetTensorB", loc)) return;
        core_.set_operand(core_.b, t.ptr_, false, isTransposeB, B_TYPE::format == CubeFormat::NZ, loc, "SetTensorB");
        core_.b.local = t.template ReinterpretCast<uint8_t>();
    }
    void SetTensorB(SrcBT scalar, EMU_LOC) {
        if (!core_.ready("SetTensorB", loc)) return;
        core_.b.set = true; core_.b.scalar = true; core_.b.scalar_value = (double)(ascendc_emu::calc_t<SrcBT>)scalar;
    }
    void SetBias(const GlobalTensor<BiasT>& gm, EMU_LOC) {
        if (!core_.ready("SetBias", loc)) return;
        core_.set_operand(core_.bias, gm.ptr_, true, false, false, loc, "SetBias");
        core_.bias_on = true;
    }
    void SetBias(const LocalTensor<BiasT>& t, EMU_LOC) {
        if (!core_.ready("SetBias", loc)) return;
        core_.set_operand(core_.bias, t.ptr_, false, false, false, loc, "SetBias");
        core_.bias.local = t.template ReinterpretCast<uint8_t>();
        core_.bias_on = true;
    }
    void DisableBias() { core_.bias_on = false; }
    void ClearBias() { core_.bias_on = false; }
    template <class U> void SetLocalWorkspace(const LocalTensor<U>&) {}
    // SetWorkspace.md: the GM space the asynchronous GetTensorC() returns C's blocks in.
    template <class U> void SetWorkspace(const GlobalTensor<U>& addr, EMU_LOC) {
        if (!core_.ready("SetWorkspace", loc)) return;
        core_.ws = (uint8_t*)addr.ptr_;
    }
    template <class U> void SetWorkspace(U* addr, int size, EMU_LOC) {
        (void)size;
        if (!core_.ready("SetWorkspace", loc)) return;
        core_.ws = (uint8_t*)addr;
    }
    void SetHF32(bool = false, int32_t = 0) {}
    void SetSubBlockIdx(uint8_t) {}
    void SetSelfDefineData(uint64_t) {}
    void SetUserDefInfo(uint64_t) {}
    // SetQuantScalar.md / SetQuantVector.md: C leaves L0C (de)quantised: C = acc x scale (+ offset for an
    // int8_t C), scale the float in bits 13..31 of the parameter (the low 13 mantissa bits dropped), offset the
    // 9-bit signed value in bits 37..45.
    void SetQuantScalar(const uint64_t quantScalar, EMU_LOC) {
        if (!core_.ready("SetQuantScalar", loc)) return;
        core_.quant = 1; core_.quant_scalar = quantScalar;
    }
    void SetQuantVector(const GlobalTensor<uint64_t>& quantTensor, EMU_LOC) {
        if (!core_.ready("SetQuantVector", loc)) return;
        core_.quant = 2; core_.quant_vec = (const uint8_t*)quantTensor.ptr_; core_.quant_gm = true;
    }
    void SetQuantVector(const LocalTensor<uint64_t>& quantTensor, EMU_LOC) {
        if (!core_.ready("SetQuantVector", loc)) return;
        core_.quant = 2; core_.quant_vec = (const uint8_t*)quantTensor.ptr_; core_.quant_gm = false;
        core_.quant_local = quantTensor.template ReinterpretCast<uint8_t>();
    }

    // The whole single-core C to GM (row stride orgN, or orgKc when set). IterateAll.md's `sync` template
    // parameter: the emulated cube computes at once, so the asynchronous form (<false>, then WaitIterateAll) has its
    // result in place when it returns.
    template <bool sync = true>
    void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                    bool waitIterateAll = false, bool fakeMsg = false, EMU_LOC) {
        (void)enSequentialWrite; (void)waitIterateAll; (void)fakeMsg;
        if (!core_.ready("IterateAll", loc) || !operands_ok("IterateAll", loc)) return;
        int32_t ldc = core_.orgKc > 0 ? core_.orgKc : core_.orgN;
        run_blocks(0, 0, core_.sM, core_.sN, loc, "IterateAll", [&](int32_t m0, int32_t n0, int32_t ml, int32_t nl,
                                                                    const float* blkv) {
            write_gm(gm, (uint64_t)m0 * ldc + n0, ldc, ml, nl, blkv, enAtomic, loc, "IterateAll");
        });
    }
    // The whole single-core C to a local tensor (ND, row stride singleN).
    template <bool sync = true>
    void IterateAll(const LocalTensor<DstT>& ub, uint8_t enAtomic = 0, EMU_LOC) {
        if (!core_.ready("IterateAll", loc) || !operands_ok("IterateAll", loc)) return;
        run_blocks(0, 0, core_.sM, core_.sN, loc, "IterateAll", [&](int32_t m0, int32_t n0, int32_t ml, int32_t nl,
                                                                    const float* blkv) {
            write_local(ub, (uint64_t)m0 * core_.sN + n0, core_.sN, ml, nl, blkv, enAtomic, loc, "IterateAll");
        });
    }
    template <bool sync = true>
    bool Iterate(bool enPartialSum = false, EMU_LOC) {
        (void)enPartialSum;
        if (!core_.ready("Iterate", loc) || !operands_ok("Iterate", loc)) return false;
        return next_block(loc);
    }
    // Iterate.md: the next base block into the kernel's own L0C tensor (CO1, NZ fractals: (r, c) at
    // ((c / 16) * ceil(rows / 16) + r / 16) * 256 + (r % 16) * 16 + c % 16), accumulated when enPartialSum.
    template <bool sync = true, typename T>
    bool Iterate(bool enPartialSum, const LocalTensor<T>& localCmatrix, EMU_LOC) {
        using namespace ascendc_emu;
        if (!Iterate<sync>(false, loc)) return false;
        const int32_t ml = core_.curMLen, nl = core_.curNLen, m16 = (ml + 15) / 16;
        want_pos(localCmatrix.pos_, {TPosition::CO1}, "localCmatrix", "Iterate", P_M, loc);
        const uint64_t n = (uint64_t)m16 * 16 * ((nl + 15) / 16 * 16);
        mm_full_sync();
        begin_epoch(P_M);
        if (!localCmatrix.emu_check(0, n, true, P_M, "Iterate", loc)) return true;
        T* d = (T*)localCmatrix.ptr_;
        for (int32_t r = 0; r < ml; r++)
            for (int32_t c = 0; c < nl; c++) {
                uint64_t o = ((uint64_t)(c / 16) * m16 + r / 16) * 256 + (r % 16) * 16 + c % 16;
                double v = core_.block[(size_t)r * nl + c] + (enPartialSum ? (double)(calc_t<T>)d[o] : 0.0);
                std_<T>((uint8_t*)(d + o), v);
            }
        mm_full_sync();  // the synchronous Iterate returns with the block in L0C
        return true;
    }
    // GetTensorC.md (asynchronous form): the current block in the SetWorkspace space (row-major baseM x baseN),
    // returned as a GlobalTensor for the kernel to copy itself.
    template <bool sync = true>
    GlobalTensor<DstT> GetTensorC(uint8_t enAtomic = 0, bool enSequentialWrite = false, EMU_LOC) {
        (void)enSequentialWrite;
        GlobalTensor<DstT> out;
        if (!(sync ? current("GetTensorC", loc) : async_next("GetTensorC", loc))) return out;
        if (!core_.ws) {
            ascendc_emu::report_error("matmul-workspace", "tiling-runtime", ascendc_emu::P_FIX, "GetTensorC", loc,
                                      "GetTensorC() returns C's block in the workspace of SetWorkspace, which was not "
                                      "called before Iterate");
            return out;
        }
        out.SetGlobalBuffer((__gm__ DstT*)core_.ws, (uint64_t)core_.t.baseM * core_.t.baseN);
        write_gm(out, 0, core_.t.baseN, core_.curMLen, core_.curNLen, core_.block.data(), enAtomic, loc, "GetTensorC",
                 core_.curM, core_.curN);
        return out;
    }
    // The current base block to UB: row-major baseM x baseN (row stride baseN).
    template <bool sync = true>
    void GetTensorC(const LocalTensor<DstT>& c, uint8_t enAtomic = 0, bool enSequentialWrite = false, EMU_LOC) {
        (void)enSequentialWrite;
        if (!(sync ? current("GetTensorC", loc) : async_next("GetTensorC", loc))) return;
        write_local(c, 0, core_.t.baseN, core_.curMLen, core_.curNLen, core_.block.data(), enAtomic, loc, "GetTensorC",
                    core_.curM, core_.curN);
    }
    // The current base block to GM: at its place in C (row stride orgN), or packed at gm when enSequentialWrite.
    template <bool sync = true>
    void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false, EMU_LOC) {
        if (!(sync ? current("GetTensorC", loc) : async_next("GetTensorC", loc))) return;
        int32_t ldc = core_.orgKc > 0 ? core_.orgKc : core_.orgN;
        if (enSequentialWrite)
            write_gm(gm, 0, core_.t.baseN, core_.curMLen, core_.curNLen, core_.block.data(), enAtomic, loc, "GetTensorC",
                     core_.curM, core_.curN);
        else
            write_gm(gm, (uint64_t)core_.curM * ldc + core_.curN, ldc, core_.curMLen, core_.curNLen, core_.block.data(),
                     enAtomic, loc, "GetTensorC");
    }
    template <bool sync = true>
    void GetTensorC(const GlobalTensor<DstT>& gm, const LocalTensor<DstT>& c, uint8_t enAtomic = 0,
                    bool enSequentialWrite = false, EMU_LOC) {
        if (!sync && !async_next("GetTensorC", loc)) return;  // one block for both destinations
        GetTensorC<true>(gm, enAtomic, enSequentialWrite, loc);
        GetTensorC<true>(c, enAtomic, enSequentialWrite, loc);
    }
    void WaitIterateAll() {}
    void WaitGetTensorC() {}
    void End() { core_.iter = -1; }

private:
    // Iterate.md: advances to the next base block (iterateOrder) and computes it; false after the last one.
    bool next_block(const ascendc_emu::Loc& loc) {
        ascendc_emu::MatmulCore& c = core_;
        c.fetched = false;
        if (c.iter < 0) {
            c.mIter = (int32_t)ascendc_emu::ceil_div((uint32_t)c.sM, (uint32_t)c.t.baseM);
            c.nIter = (int32_t)ascendc_emu::ceil_div((uint32_t)c.sN, (uint32_t)c.t.baseN);
        }
        int32_t total = c.mIter * c.nIter;
        int32_t mi, ni;
        do {  // the triangle policies do not visit the blocks they skip
            if (c.iter + 1 >= total) { c.iter = -1; return false; }
            c.iter++;
            if (c.t.iterateOrder == 1) { ni = c.iter % c.nIter; mi = c.iter / c.nIter; }
            else { mi = c.iter % c.mIter; ni = c.iter / c.mIter; }
        } while (c.skip_block(mi, ni));
        c.curM = mi * c.t.baseM;
        c.curN = ni * c.t.baseN;
        c.curMLen = c.sM - c.curM < c.t.baseM ? c.sM - c.curM : c.t.baseM;
        c.curNLen = c.sN - c.curN < c.t.baseN ? c.sN - c.curN : c.t.baseN;
        run_blocks(c.curM, c.curN, c.curMLen, c.curNLen, loc, "Iterate", [&](int32_t, int32_t, int32_t ml, int32_t nl,
                                                                            const float* blkv) {
            c.block.assign(blkv, blkv + (size_t)ml * nl);
        });
        return true;
    }
    // GetTensorC.md, asynchronous mode: one Iterate<false>() computes every base block; each GetTensorC<false>
    // returns the next one (the first returns the block Iterate computed). A kernel that calls Iterate<false>() per
    // block gets that block, as every call takes a block not yet taken.
    bool async_next(const char* api, const ascendc_emu::Loc& loc) {
        if (!current(api, loc)) return false;
        if (core_.fetched && !next_block(loc)) {
            ascendc_emu::report_error("matmul-iterate", "tiling-runtime", ascendc_emu::P_FIX, api, loc,
                                      "%s<false> after the last base block of the asynchronous Iterate", api);
            return false;
        }
        core_.fetched = true;
        return true;
    }
    bool current(const char* api, const ascendc_emu::Loc& loc) {
        if (!core_.ready(api, loc)) return false;
        if (core_.iter < 0) {
            ascendc_emu::report_error("matmul-iterate", "tiling-runtime", ascendc_emu::P_FIX, api, loc,
                                      "%s without a preceding Iterate() that returned true", api);
            return false;
        }
        return true;
    }
    bool operands_ok(const char* api, const ascendc_emu::Loc& loc) {
        if (core_.a.set && core_.b.set) return true;
        ascendc_emu::report_error("matmul-operands", "tiling-runtime", ascendc_emu::P_S, api, loc,
                                  "%s before SetTensor%s: the Matmul has no %s matrix", api,
                                  core_.a.set ? "B" : "A", core_.a.set ? "B" : "A");
        return false;
    }
    // Element loaders: op(A)[i, k], op(B)[k, j] of the single-core tile.
    template <class T>
    static float load(const ascendc_emu::MmOperand& o, int32_t row, int32_t col, int32_t ld, int32_t rows_nz) {
        if (o.scalar) return (float)o.scalar_value;
        uint64_t off;
        if (o.nz) {
            const uint32_t c0 = ascendc_emu::c0_of<T>();
            int32_t r16 = (rows_nz + 15) / 16 * 16;
            off = (uint64_t)(col / (int32_t)c0) * r16 * c0 + (uint64_t)row * c0 + col % c0;
        } else {
            off = (uint64_t)row * ld + col;
        }
        return ascendc_emu::mm_ld<T>(o.ptr + off * sizeof(T));
    }
    template <class F>
    void run_blocks(int32_t m0, int32_t n0, int32_t ml, int32_t nl, const ascendc_emu::Loc& loc, const char* api,
                    F&& sink) {
        using namespace ascendc_emu;
        MatmulCore& c = core_;
        Block& b = blk();
        const int32_t K = c.sK;
        if (ml <= 0 || nl <= 0) return;
        // GM / local range checks for the operands of this block
        const MmOperand& A = c.a;
        const MmOperand& B = c.b;
        int32_t lda = A.gm ? (A.trans ? c.orgM : c.orgKa) : (A.trans ? c.sM : c.sK);
        int32_t ldb = B.gm ? (B.trans ? c.orgKb : c.orgN) : (B.trans ? c.sK : c.sN);
        // stored matrix coordinates of the block's corners
        auto extent = [](bool trans, int32_t r0, int32_t rl, int32_t c0, int32_t cl, int32_t ld) -> std::pair<uint64_t, uint64_t> {
            int32_t sr0 = trans ? c0 : r0, srl = trans ? cl : rl, sc0 = trans ? r0 : c0, scl = trans ? rl : cl;
            uint64_t first = (uint64_t)sr0 * ld + sc0;
            return {first, (uint64_t)(sr0 + srl - 1) * ld + sc0 + scl - first};
        };
        uint32_t site = intern_site(loc.file, loc.line, api);
        bool ok = true;
        // ex: (first element, element count) of the stored ND range; NZ operands: the whole stored tile
        auto check = [&](const MmOperand& o, std::pair<uint64_t, uint64_t> ex, size_t es, int32_t rows, int32_t cols) {
            if (o.scalar || !o.ptr) return;
            if (o.nz) {
                uint32_t c0 = 32u / (uint32_t)es;
                ex = {0, (uint64_t)((rows + 15) / 16 * 16) * (uint64_t)(ceil_div((uint32_t)cols, c0) * c0)};
            }
            uint64_t lo, hi;
            if (o.gm) {
                if (!gm_check(o.ptr + ex.first * es, ex.second * es, false, P_MTE2, api, loc, &lo, &hi) || lo || hi != ex.second * es)
                    ok = false;
                else
                    gm_shadow_access(o.ptr + ex.first * es, ex.second * es, false, P_MTE2, site, api, loc);
            } else if (!o.local.emu_check_bytes(ex.first * es, ex.second * es, false, P_MTE2, api, loc, 1)) {
                ok = false;
            }
        };
        begin_epoch(P_MTE2);
        check(A, extent(A.trans, m0, ml, 0, K, lda), sizeof(SrcAT), A.trans ? K : c.sM, A.trans ? c.sM : K);
        check(B, extent(B.trans, 0, K, n0, nl, ldb), sizeof(SrcBT), B.trans ? c.sN : K, B.trans ? K : c.sN);
        if (c.bias_on && c.bias.ptr) {
            if (c.bias.gm) {
                uint64_t lo, hi;
                if (!gm_check(c.bias.ptr + (uint64_t)n0 * sizeof(BiasT), (uint64_t)nl * sizeof(BiasT), false, P_MTE2,
                              api, loc, &lo, &hi) || lo || hi != (uint64_t)nl * sizeof(BiasT))
                    ok = false;
            } else if (!c.bias.local.emu_check_bytes((uint64_t)n0 * sizeof(BiasT), (uint64_t)nl * sizeof(BiasT), false,
                                                     P_MTE2, api, loc, 1)) {
                ok = false;
            }
        }
        // trace: per base block, MTE2 (GM->L1) -> MTE1 (L1->L0) -> M (Mmad over K in baseK steps) -> FIX
        const int32_t bm = c.t.baseM, bn = c.t.baseN, bk = c.t.baseK > 0 ? c.t.baseK : K;
        for (int32_t i0 = 0; i0 < ml; i0 += bm)
            for (int32_t j0 = 0; j0 < nl; j0 += bn) {
                int32_t il = ml - i0 < bm ? ml - i0 : bm, jl = nl - j0 < bn ? nl - j0 : bn;
                if (c.skip_elem(m0 + i0, n0 + j0)) continue;
                uint64_t abytes = (uint64_t)il * K * sizeof(SrcAT), bbytes = (uint64_t)K * jl * sizeof(SrcBT);
                Ev e1;
                trace_begin(e1, P_MTE2, "DataCopy", loc);
                if (e1.on) e1.j.i("bytes", (long long)(abytes + bbytes)).s("src", "gm").s("dst", "l1").s("matmul", api);
                uint64_t s1 = e1.seq;
                trace_end(e1);
                Ev e2;
                trace_begin(e2, P_MTE1, "LoadData", loc);
                if (e2.on) e2.j.i("bytes", (long long)(abytes + bbytes)).s("src", "l1").s("dst", "l0a").s("matmul", api);
                trace_after(e2, &s1, 1);
                uint64_t s2 = e2.seq;
                trace_end(e2);
                Ev e3;
                trace_begin(e3, P_M, "Mmad", loc);
                if (e3.on) {
                    e3.j.i("m", il).i("n", jl).i("k", K).s("dtype", cube_dtype<SrcAT>()).s("matmul", api);
                    e3.j.i("k_steps", (long long)ceil_div((uint32_t)K, (uint32_t)bk));
                }
                trace_after(e3, &s2, 1);
                uint64_t s3 = e3.seq;
                trace_end(e3);
                Ev e4;
                trace_begin(e4, P_FIX, "Fixpipe", loc);
                if (e4.on) e4.j.i("bytes", (long long)((uint64_t)il * jl * sizeof(DstT))).s("src", "l0c").s("matmul", api);
                trace_after(e4, &s3, 1);
                trace_end(e4);
            }
        (void)b;
        std::vector<float> out((size_t)ml * nl, 0.0f);
        if (ok && K > 0) {
            std::vector<float> av((size_t)ml * K), bv((size_t)K * nl);
            for (int32_t i = 0; i < ml; i++)
                for (int32_t k = 0; k < K; k++)
                    av[(size_t)i * K + k] = A.trans ? load<SrcAT>(A, k, m0 + i, lda, K) : load<SrcAT>(A, m0 + i, k, lda, c.sM);
            for (int32_t k = 0; k < K; k++)
                for (int32_t j = 0; j < nl; j++)
                    bv[(size_t)k * nl + j] = B.trans ? load<SrcBT>(B, n0 + j, k, ldb, c.sN) : load<SrcBT>(B, k, n0 + j, ldb, K);
            if (std::is_integral<L0cT>::value) {
                std::vector<int64_t> acc((size_t)nl);
                for (int32_t i = 0; i < ml; i++) {
                    for (int32_t j = 0; j < nl; j++) acc[(size_t)j] = 0;
                    for (int32_t k = 0; k < K; k++) {
                        int64_t x = (int64_t)av[(size_t)i * K + k];
                        const float* bk2 = &bv[(size_t)k * nl];
                        for (int32_t j = 0; j < nl; j++) acc[(size_t)j] += x * (int64_t)bk2[j];
                    }
                    for (int32_t j = 0; j < nl; j++) out[(size_t)i * nl + j] = (float)(int32_t)acc[(size_t)j];
                }
            } else {
                for (int32_t i = 0; i < ml; i++) {
                    float* o = &out[(size_t)i * nl];
                    for (int32_t k = 0; k < K; k++) {
                        float x = av[(size_t)i * K + k];
                        const float* bk2 = &bv[(size_t)k * nl];
                        for (int32_t j = 0; j < nl; j++) o[j] += x * bk2[j];
                    }
                }
            }
            if (c.bias_on && c.bias.ptr)
                for (int32_t j = 0; j < nl; j++) {
                    float bj = mm_ld<BiasT>(c.bias.ptr + (uint64_t)(n0 + j) * sizeof(BiasT));
                    for (int32_t i = 0; i < ml; i++) out[(size_t)i * nl + j] += bj;
                }
            if (!fixpipe(n0, nl, out, loc, api)) ok = false;
        } else if (!ok) {
            for (float& v : out) v = __builtin_nanf("");
        }
        sink(m0, n0, ml, nl, out.data());
    }
    // (r0, c0): where the written rows/columns start in the single-core C (for the triangle policies' skips).
    // The Fixpipe step of C leaving L0C: (de)quantisation (SetQuantScalar/SetQuantVector) and Relu (enableRelu).
    // Dequantisation: int8_t A/B to a half or int8_t C; quantisation: half/bfloat16_t A/B to an int8_t C.
    static constexpr bool kQuantPath = (std::is_same<SrcAT, int8_t>::value &&
                                        (std::is_same<DstT, half>::value || std::is_same<DstT, int8_t>::value)) ||
                                       (!std::is_integral<SrcAT>::value && std::is_same<DstT, int8_t>::value);
    static void quant_decode(uint64_t q, float& scale, float& offset) {
        uint32_t bits = (uint32_t)q & 0xFFFFE000u;
        memcpy(&scale, &bits, 4);
        int32_t o = (int32_t)((q >> 37) & 0x1FF);
        if (o & 0x100) o -= 0x200;
        offset = std::is_same<DstT, int8_t>::value ? (float)o : 0.0f;
    }
    bool fixpipe(int32_t n0, int32_t nl, std::vector<float>& out, const ascendc_emu::Loc& loc, const char* api) {
        using namespace ascendc_emu;
        MatmulCore& c = core_;
        if (kQuantPath) {
            if (!c.quant) {
                report_warning("matmul-quant", "precision-mismatch", P_FIX, api, loc,
                               "%s with %s A/B and a %s C: the NPU (de)quantises C as it leaves L0C with the "
                               "parameter of SetQuantScalar or SetQuantVector, and neither was called", api,
                               dtype_name<SrcAT>(), dtype_name<DstT>());
            } else {
                std::vector<uint64_t> q((size_t)nl, c.quant_scalar);
                if (c.quant == 2) {
                    uint64_t bytes = (uint64_t)nl * 8, lo, hi;
                    const uint8_t* p = c.quant_vec + (uint64_t)n0 * 8;
                    if (c.quant_gm) {
                        if (!gm_check(p, bytes, false, P_FIX, api, loc, &lo, &hi) || lo || hi != bytes) return false;
                    } else if (!c.quant_local.emu_check_bytes((uint64_t)n0 * 8, bytes, false, P_FIX, api, loc, 1)) {
                        return false;
                    }
                    memcpy(q.data(), p, bytes);
                }
                const size_t rows = out.size() / (size_t)nl;
                for (int32_t j = 0; j < nl; j++) {
                    float scale, offset;
                    quant_decode(q[(size_t)j], scale, offset);
                    for (size_t i = 0; i < rows; i++) out[i * nl + j] = out[i * nl + j] * scale + offset;
                }
            }
        }
        if (c.relu)
            for (float& v : out) v = v > 0.0f ? v : 0.0f;
        return true;
    }
    void write_gm(const GlobalTensor<DstT>& gm, uint64_t off, int32_t ld, int32_t ml, int32_t nl, const float* v,
                  uint8_t enAtomic, const ascendc_emu::Loc& loc, const char* api, int32_t r0 = 0, int32_t c0 = 0) {
        using namespace ascendc_emu;
        begin_epoch(P_FIX);
        uint8_t* base = (uint8_t*)(gm.ptr_ + off);
        uint64_t ext = ((uint64_t)(ml - 1) * ld + nl) * sizeof(DstT), lo, hi;
        if (!gm_check(base, ext, true, P_FIX, api, loc, &lo, &hi)) return;
        gm_shadow_access(base + lo, hi - lo, true, P_FIX, intern_site(loc.file, loc.line, api), api, loc);
        bool atomic = enAtomic == 1 || blk().atomic == 1;
        for (int32_t i = 0; i < ml; i++)
            for (int32_t j = 0; j < nl; j++) {
                uint64_t o = ((uint64_t)i * ld + j) * sizeof(DstT);
                if (o < lo || o + sizeof(DstT) > hi || core_.skip_elem(r0 + i, c0 + j)) continue;
                double x = v[(size_t)i * nl + j];
                if (atomic) x += ldd<DstT>(base + o);
                std_<DstT>(base + o, x);
            }
        mm_full_sync();
    }
    void write_local(const LocalTensor<DstT>& t, uint64_t off, int32_t ld, int32_t ml, int32_t nl, const float* v,
                     uint8_t enAtomic, const ascendc_emu::Loc& loc, const char* api, int32_t r0 = 0, int32_t c0 = 0) {
        using namespace ascendc_emu;
        mm_full_sync();
        begin_epoch(P_V);
        uint64_t ext = ((uint64_t)(ml - 1) * ld + nl) * sizeof(DstT);
        if (!t.emu_check_bytes(off * sizeof(DstT), ext, true, P_V, api, loc, 32)) return;
        uint8_t* base = t.ptr_ + off * sizeof(DstT);
        for (int32_t i = 0; i < ml; i++)
            for (int32_t j = 0; j < nl; j++) {
                if (core_.skip_elem(r0 + i, c0 + j)) continue;
                uint8_t* p = base + ((uint64_t)i * ld + j) * sizeof(DstT);
                double x = v[(size_t)i * nl + j];
                if (enAtomic == 1) x += ldd<DstT>(p);
                std_<DstT>(p, x);
            }
        mm_full_sync();
    }
};
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>, MATMUL_POLICY_DEFAULT_OF(MatmulPolicy)>
using Matmul = MatmulImpl<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB, MATMUL_POLICY>;
}  // namespace AscendC

namespace matmul {
using namespace AscendC;
}  // namespace matmul

namespace ascendc_emu {
EMU_RT_FN void matmul_regist(const Loc&, AscendC::TPipe*, GM_ADDR)
#if ASCENDC_EMU_RT_BODIES
{}
#else
;
#endif
template <class MM, class... Rest>
inline void matmul_regist(const Loc& loc, AscendC::TPipe* pipe, GM_ADDR ws, MM& mm, const TCubeTiling* tiling,
                          Rest&&... rest) {
    mm.core_.init(tiling, pipe, loc);
    matmul_regist(loc, pipe, ws, std::forward<Rest>(rest)...);
}
// The tiling as an untyped pointer (rfft1_d passes `(void*)&tiling`): REGIST_MATMUL_OBJ.md requires it to be a
// TCubeTiling, so it is read as one.
template <class MM, class... Rest>
inline void matmul_regist(const Loc& loc, AscendC::TPipe* pipe, GM_ADDR ws, MM& mm, const void* tiling,
                          Rest&&... rest) {
    mm.core_.init(static_cast<const TCubeTiling*>(tiling), pipe, loc);
    matmul_regist(loc, pipe, ws, std::forward<Rest>(rest)...);
}
template <class MM, class... Rest>
inline void matmul_regist(const Loc& loc, AscendC::TPipe* pipe, GM_ADDR ws, MM& mm, std::nullptr_t, Rest&&... rest) {
    mm.core_.init(nullptr, pipe, loc);
    matmul_regist(loc, pipe, ws, std::forward<Rest>(rest)...);
}
}  // namespace ascendc_emu
// Registers (and initialises) one or more Matmul objects: REGIST_MATMUL_OBJ(&pipe, ws, mm1, &tiling1, mm2, ...).
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...) \
    ::ascendc_emu::matmul_regist(::ascendc_emu::Loc(), (tpipe), (GM_ADDR)(workspace), __VA_ARGS__)
#define REGIST_CUBE_OBJ(tpipe, workspace, ...) REGIST_MATMUL_OBJ(tpipe, workspace, __VA_ARGS__)
#define REGIST_MATMUL_OBJ_STATIC(tpipe, workspace, ...) REGIST_MATMUL_OBJ(tpipe, workspace, __VA_ARGS__)
#endif  // ASCENDC_EMU_ASCENDC_EMU_MATMUL_H_

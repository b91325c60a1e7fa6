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

namespace AscendC {
enum class CubeFormat : uint8_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class LayoutMode : uint8_t { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
enum class IterateOrder : uint8_t { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType : uint8_t { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum class BatchMode : uint8_t { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum MatmulVersion : uint8_t { NORMAL = 0, MULTI_DATA_LOAD, BASIC_BLOCK, IBSHARE_NORM };

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
    uint8_t iterateMode = 0;
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
};
constexpr MatmulConfig GetNormalConfig(bool intrinsicsLimit = false, bool batchLoop = false, bool isVecND2NZ = false,
                                       BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1, bool isMsgReuse = true,
                                       IterateOrder iterateOrder = IterateOrder::UNDEF,
                                       ScheduleType scheduleType = ScheduleType::INNER_PRODUCT, bool enUnitFlag = true,
                                       bool enableMixDualMaster = false) {
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
    return c;
}
constexpr MatmulConfig GetMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false, uint32_t doMTE2Preload = 0,
                                    bool isVecND2NZ = false, bool isPerTensor = false, bool hasAntiQuantOffset = false,
                                    bool enUnitFlag = false, bool isMsgReuse = true, bool enableUBReuse = true,
                                    bool enableL1CacheUB = false, bool enableMixDualMaster = false,
                                    bool enableKdimReorderLoad = false) {
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
constexpr MatmulConfig GetSpecialMDLConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                           uint32_t doMTE2Preload = 0, bool isVecND2NZ = false,
                                           bool isPerTensor = false, bool hasAntiQuantOffset = false) {
    MatmulConfig c = GetMDLConfig(intrinsicsLimit, batchLoop, doMTE2Preload, isVecND2NZ, isPerTensor,
                                  hasAntiQuantOffset);
    c.doSpecialMDL = true;
    return c;
}
constexpr MatmulConfig GetBasicConfig(uint32_t basicM, uint32_t basicN, uint32_t basicK, bool intrinsicsLimit = false,
                                      bool batchLoop = false, BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
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
constexpr MatmulConfig GetSpecialBasicConfig(uint32_t basicM, uint32_t basicN, uint32_t basicK, uint32_t singleCoreM,
                                             uint32_t singleCoreN, uint32_t singleCoreK, uint32_t stepM,
                                             uint32_t stepN, bool intrinsicsLimit = false, bool batchLoop = false,
                                             BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
    MatmulConfig c = GetBasicConfig(basicM, basicN, basicK, intrinsicsLimit, batchLoop, bmmMode);
    c.doSpecialBasicBlock = true;
    c.singleCoreM = singleCoreM;
    c.singleCoreN = singleCoreN;
    c.singleCoreK = singleCoreK;
    c.stepM = stepM;
    c.stepN = stepN;
    return c;
}
constexpr MatmulConfig GetIBShareNormConfig(bool intrinsicsLimit = false, bool batchLoop = false,
                                            bool isVecND2NZ = false, BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                            bool isDoubleCache = false, bool enUnitFlag = true) {
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

template <auto... Callbacks>
struct MatmulCallBackFunc {};
}  // namespace AscendC

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
    std::vector<float> block;  // the current base block, row-major, curMLen x curNLen
    int32_t curMLen = 0, curNLen = 0;
    Loc init_loc{nullptr, 0};

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
        if (!tiling) return;  // REGIST_MATMUL_OBJ(..., mm, nullptr) and a later Init(&tiling)
        t = *tiling;
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
template <class A_TYPE, class B_TYPE, class C_TYPE,
          class BIAS_TYPE = MatmulType<TPosition::GM, CubeFormat::ND, typename C_TYPE::T>,
          const MatmulConfig& MM_CFG = CFG_NORM, class MM_CB = MatmulCallBackFunc<>, class... POLICY>
class Matmul {
public:
    using SrcAT = typename A_TYPE::T;
    using SrcBT = typename B_TYPE::T;
    using DstT = typename C_TYPE::T;
    using BiasT = typename BIAS_TYPE::T;
    using L0cT = typename std::conditional<std::is_integral<SrcAT>::value, int32_t, float>::type;

    ascendc_emu::MatmulCore core_;

    Matmul() = default;
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
    template <class U> void SetWorkspace(const GlobalTensor<U>&) {}
    template <class U> void SetWorkspace(U*, int) {}
    void SetHF32(bool = false, int32_t = 0) {}
    void SetSubBlockIdx(uint8_t) {}
    void SetSelfDefineData(uint64_t) {}
    void SetUserDefInfo(uint64_t) {}
    void SetQuantScalar(uint64_t) {}
    template <class U> void SetQuantVector(const GlobalTensor<U>&) {}

    // The whole single-core C to GM (row stride orgN, or orgKc when set).
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
        ascendc_emu::MatmulCore& c = core_;
        if (c.iter < 0) {
            c.mIter = (int32_t)ascendc_emu::ceil_div((uint32_t)c.sM, (uint32_t)c.t.baseM);
            c.nIter = (int32_t)ascendc_emu::ceil_div((uint32_t)c.sN, (uint32_t)c.t.baseN);
        }
        int32_t total = c.mIter * c.nIter;
        if (c.iter + 1 >= total) { c.iter = -1; return false; }
        c.iter++;
        int32_t mi, ni;
        if (c.t.iterateOrder == 1) { ni = c.iter % c.nIter; mi = c.iter / c.nIter; }
        else { mi = c.iter % c.mIter; ni = c.iter / c.mIter; }
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
    // The current base block to UB: row-major baseM x baseN (row stride baseN).
    template <bool sync = true>
    void GetTensorC(const LocalTensor<DstT>& c, uint8_t enAtomic = 0, bool enSequentialWrite = false, EMU_LOC) {
        (void)enSequentialWrite;
        if (!current("GetTensorC", loc)) return;
        write_local(c, 0, core_.t.baseN, core_.curMLen, core_.curNLen, core_.block.data(), enAtomic, loc, "GetTensorC");
    }
    // The current base block to GM: at its place in C (row stride orgN), or packed at gm when enSequentialWrite.
    template <bool sync = true>
    void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false, EMU_LOC) {
        if (!current("GetTensorC", loc)) return;
        int32_t ldc = core_.orgKc > 0 ? core_.orgKc : core_.orgN;
        if (enSequentialWrite)
            write_gm(gm, 0, core_.t.baseN, core_.curMLen, core_.curNLen, core_.block.data(), enAtomic, loc, "GetTensorC");
        else
            write_gm(gm, (uint64_t)core_.curM * ldc + core_.curN, ldc, core_.curMLen, core_.curNLen, core_.block.data(),
                     enAtomic, loc, "GetTensorC");
    }
    template <bool sync = true>
    void GetTensorC(const GlobalTensor<DstT>& gm, const LocalTensor<DstT>& c, uint8_t enAtomic = 0,
                    bool enSequentialWrite = false, EMU_LOC) {
        GetTensorC<sync>(gm, enAtomic, enSequentialWrite, loc);
        GetTensorC<sync>(c, enAtomic, enSequentialWrite, loc);
    }
    void WaitIterateAll() {}
    void WaitGetTensorC() {}
    void End() { core_.iter = -1; }

private:
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
        } else if (!ok) {
            for (float& v : out) v = __builtin_nanf("");
        }
        sink(m0, n0, ml, nl, out.data());
    }
    void write_gm(const GlobalTensor<DstT>& gm, uint64_t off, int32_t ld, int32_t ml, int32_t nl, const float* v,
                  uint8_t enAtomic, const ascendc_emu::Loc& loc, const char* api) {
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
                if (o < lo || o + sizeof(DstT) > hi) continue;
                double x = v[(size_t)i * nl + j];
                if (atomic) x += ldd<DstT>(base + o);
                std_<DstT>(base + o, x);
            }
        mm_full_sync();
    }
    void write_local(const LocalTensor<DstT>& t, uint64_t off, int32_t ld, int32_t ml, int32_t nl, const float* v,
                     uint8_t enAtomic, const ascendc_emu::Loc& loc, const char* api) {
        using namespace ascendc_emu;
        mm_full_sync();
        begin_epoch(P_V);
        uint64_t ext = ((uint64_t)(ml - 1) * ld + nl) * sizeof(DstT);
        if (!t.emu_check_bytes(off * sizeof(DstT), ext, true, P_V, api, loc, 32)) return;
        uint8_t* base = t.ptr_ + off * sizeof(DstT);
        for (int32_t i = 0; i < ml; i++)
            for (int32_t j = 0; j < nl; j++) {
                uint8_t* p = base + ((uint64_t)i * ld + j) * sizeof(DstT);
                double x = v[(size_t)i * nl + j];
                if (enAtomic == 1) x += ldd<DstT>(p);
                std_<DstT>(p, x);
            }
        mm_full_sync();
    }
};
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
#endif  // ASCENDC_EMU_ASCENDC_EMU_MATMUL_H_

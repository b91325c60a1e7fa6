// Host-side Matmul tiling (clean-room): matmul_tiling::MatmulApiTiling / MultiCoreMatmulTiling /
// BatchMatmulTiling, written from docs/zh/api/SIMD-API/高阶API/矩阵计算/Matmul-Tiling类/*.md. The algorithm is
// ours: it splits M x N over the cores (SetDim), picks base blocks that satisfy the documented TCubeTiling
// constraints (table 2 of TCubeTiling结构体.md: L0A/L0B/L0C sizes with double buffering, 16-element fractal
// alignment, L1 size of the step/depth caches) starting from the recommended (128, 256, 64), and honours
// SetSingleShape / SetFixSplit / SetBufferSpace / SetTraverse. It is not bit-identical to CANN's search; the
// result is a consistent TCubeTiling that the emulator's kernel-side Matmul accepts.
#ifndef ASCENDC_EMU_HOST_MATMUL_TILING_H_
#define ASCENDC_EMU_HOST_MATMUL_TILING_H_
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "../kernel_tiling/kernel_tiling.h"
#include "../register/tilingdata_base.h"
#include "../tiling/platform/platform_ascendc.h"

namespace optiling {
#define ASCENDC_EMU_HOST_TILING_FIELD(type, name) TILING_DATA_FIELD_DEF(type, name);
BEGIN_TILING_DATA_DEF(TCubeTiling)
ASCENDC_EMU_TCUBE_TILING_FIELDS(ASCENDC_EMU_HOST_TILING_FIELD)
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(SoftMaxTiling)
ASCENDC_EMU_SOFTMAX_TILING_FIELDS(ASCENDC_EMU_HOST_TILING_FIELD)
END_TILING_DATA_DEF;
#undef ASCENDC_EMU_HOST_TILING_FIELD
static_assert(sizeof(TCubeTiling) == sizeof(::TCubeTiling), "host and kernel TCubeTiling must have one layout");
static_assert(sizeof(SoftMaxTiling) == sizeof(::SoftMaxTiling), "host and kernel SoftMaxTiling must have one layout");
}  // namespace optiling

namespace matmul_tiling {
enum class TPosition { GM = 0, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM,
                       TSCM, MAX };
enum class CubeFormat { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW_MAJOR = ND, COLUMN_MAJOR };
// The ge numbering, so op_host code may cast a ge::DataType to it.
enum class DataType {
    DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7,
    DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_STRING = 13,
    DT_DUAL_SUB_INT8 = 14, DT_DUAL_SUB_UINT8 = 15, DT_COMPLEX64 = 16, DT_COMPLEX128 = 17, DT_QINT8 = 18,
    DT_QINT16 = 19, DT_QINT32 = 20, DT_QUINT8 = 21, DT_QUINT16 = 22, DT_RESOURCE = 23, DT_STRING_REF = 24,
    DT_DUAL = 25, DT_VARIANT = 26, DT_BF16 = 27, DT_UNDEFINED = 28, DT_INT4 = 29, DT_UINT1 = 30, DT_INT2 = 31,
    DT_UINT2 = 32, DT_COMPLEX32 = 33, DT_HIFLOAT8 = 34, DT_FLOAT8_E5M2 = 35, DT_FLOAT8_E4M3FN = 36,
    DT_FLOAT8_E8M0 = 37, DT_FLOAT4_E2M1 = 40, DT_FLOAT4_E1M2 = 41, DT_MAX
};
enum class MatrixTraverse { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class MatrixMadType { NORMAL = 0, HF32 = 1, MXMODE = 2 };
enum class DequantType { SCALAR = 0, TENSOR = 1 };
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT = 1, N_BUFFER_33 = 2 };
// SetMatmulConfigParams.md (struct MatmulConfigParams): the MatmulConfig settings a tiling is computed for.
struct MatmulConfigParams {
    int32_t mmConfigType;
    bool enableL1CacheUB;
    ScheduleType scheduleType;
    MatrixTraverse traverse;
    bool enVecND2NZ;
    MatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                       ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                       MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false)
        : mmConfigType(mmConfigTypeIn), enableL1CacheUB(enableL1CacheUBIn), scheduleType(scheduleTypeIn),
          traverse(traverseIn), enVecND2NZ(enVecND2NZIn) {}
};
enum class MatrixPosition { ALL = 0 };

struct PlatformInfo {
    platform_ascendc::SocVersion socVersion = platform_ascendc::SocVersion::ASCEND910B;
    uint64_t l1Size = 0, l0CSize = 0, ubSize = 0, l0ASize = 0, l0BSize = 0, btSize = 0;
};

struct SysTilingTempBufSize {
    int32_t ubSize = 0, l1Size = 0, l0cSize = 0;
};

class MatmulApiTilingBase {
public:
    MatmulApiTilingBase() { from_platform(platform_ascendc::PlatformAscendC()); }
    explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& p) { from_platform(p); }
    explicit MatmulApiTilingBase(const PlatformInfo& p) {
        from_platform(platform_ascendc::PlatformAscendC());
        if (p.l1Size) l1_ = p.l1Size;
        if (p.l0CSize) l0c_ = p.l0CSize;
        if (p.ubSize) ub_ = p.ubSize;
        if (p.l0ASize) l0a_ = p.l0ASize;
        if (p.l0BSize) l0b_ = p.l0BSize;
    }
    virtual ~MatmulApiTilingBase() = default;

    int32_t SetAType(TPosition pos, CubeFormat fmt, DataType dt, bool isTrans = false) {
        a_ = {pos, fmt, dt, isTrans};
        return 0;
    }
    int32_t SetBType(TPosition pos, CubeFormat fmt, DataType dt, bool isTrans = false) {
        b_ = {pos, fmt, dt, isTrans};
        return 0;
    }
    int32_t SetCType(TPosition pos, CubeFormat fmt, DataType dt) {
        c_ = {pos, fmt, dt, false};
        return 0;
    }
    int32_t SetBiasType(TPosition pos, CubeFormat fmt, DataType dt) {
        bias_ = {pos, fmt, dt, false};
        return 0;
    }
    int32_t SetScaleAType(TPosition, CubeFormat, bool = false) { return 0; }
    int32_t SetScaleBType(TPosition, CubeFormat, bool = true) { return 0; }
    int32_t SetDequantType(DequantType) { return 0; }
    int32_t SetShape(int32_t m, int32_t n, int32_t k) {
        m_ = m;
        n_ = n;
        k_ = k;
        if (orgM_ <= 0) orgM_ = m;
        if (orgN_ <= 0) orgN_ = n;
        if (orgKa_ <= 0) orgKa_ = k;
        if (orgKb_ <= 0) orgKb_ = k;
        return 0;
    }
    int32_t SetOrgShape(int32_t m, int32_t n, int32_t k) { return SetOrgShape(m, n, k, k); }
    int32_t SetOrgShape(int32_t m, int32_t n, int32_t ka, int32_t kb) {
        orgM_ = m;
        orgN_ = n;
        orgKa_ = ka;
        orgKb_ = kb;
        return 0;
    }
    int32_t SetSingleShape(int32_t sm = -1, int32_t sn = -1, int32_t sk = -1) {
        singleM_ = sm;
        singleN_ = sn;
        singleK_ = sk;
        return 0;
    }
    int32_t SetFixSplit(int32_t bm = -1, int32_t bn = -1, int32_t bk = -1) {
        fixM_ = bm;
        fixN_ = bn;
        fixK_ = bk;
        return 0;
    }
    int32_t SetBufferSpace(int32_t l1 = -1, int32_t l0c = -1, int32_t ub = -1, int32_t bt = -1) {
        if (l1 > 0) l1_ = static_cast<uint64_t>(l1);
        if (l0c > 0) l0c_ = static_cast<uint64_t>(l0c);
        if (ub > 0) ub_ = static_cast<uint64_t>(ub);
        (void)bt;
        return 0;
    }
    int32_t SetBias(bool on = true) {
        bias_on_ = on;
        return 0;
    }
    int32_t EnableBias(bool on = true) { return SetBias(on); }
    int32_t SetTraverse(MatrixTraverse t) {
        traverse_ = t;
        return 0;
    }
    int32_t SetMadType(MatrixMadType) { return 0; }
    int32_t SetSplitRange(int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1) {
        return 0;
    }
    int32_t SetDoubleBuffer(bool, bool, bool, bool, bool = true, bool = true) { return 0; }
    // SetMatmulConfigParams.md: the traverse order is the one setting the emulated tiling carries (iterateOrder);
    // the template type, L1 caching of UB, schedule type and ND2NZ only change the NPU's data movement.
    int32_t SetMatmulConfigParams(int32_t = 1, bool = false, ScheduleType = ScheduleType::INNER_PRODUCT,
                                  MatrixTraverse traverse = MatrixTraverse::NOSET, bool = false) {
        if (traverse != MatrixTraverse::NOSET) traverse_ = traverse;
        return 0;
    }
    int32_t SetMatmulConfigParams(const MatmulConfigParams& p) {
        return SetMatmulConfigParams(p.mmConfigType, p.enableL1CacheUB, p.scheduleType, p.traverse, p.enVecND2NZ);
    }
    int32_t SetSparse(bool = false) { return 0; }
    int32_t SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
        aLayout_[0] = b; aLayout_[1] = s; aLayout_[2] = n; aLayout_[3] = g; aLayout_[4] = d;
        return 0;
    }
    int32_t SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
        bLayout_[0] = b; bLayout_[1] = s; bLayout_[2] = n; bLayout_[3] = g; bLayout_[4] = d;
        return 0;
    }
    int32_t SetCLayout(int32_t b, int32_t s1, int32_t n, int32_t g, int32_t s2) {
        cLayout_[0] = b; cLayout_[1] = s1; cLayout_[2] = n; cLayout_[3] = g; cLayout_[4] = s2;
        return 0;
    }
    int32_t SetBatchNum(int32_t n) {
        batchNum_ = n;
        return 0;
    }
    int32_t SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k) {
        batchA_ = batchA;
        batchB_ = batchB;
        SetShape(m, n, k);
        return 0;
    }
    int32_t EnableL1BankConflictOptimise() { return 0; }
    int32_t GetBaseM() const { return result_.baseM; }
    int32_t GetBaseN() const { return result_.baseN; }
    int32_t GetBaseK() const { return result_.baseK; }

    int64_t GetTiling(::TCubeTiling& out) {
        if (!compute(out)) return -1;
        result_ = out;
        return 0;
    }
    int64_t GetTiling(optiling::TCubeTiling& out) {
        ::TCubeTiling k{};
        if (GetTiling(k) == -1) return -1;
        std::memcpy(static_cast<void*>(&out), &k, sizeof(k));
        return 0;
    }

protected:
    struct Operand {
        TPosition pos = TPosition::GM;
        CubeFormat fmt = CubeFormat::ND;
        DataType dt = DataType::DT_FLOAT16;
        bool trans = false;
    };
    static int32_t bytes_of(DataType d) {
        switch (d) {
            case DataType::DT_FLOAT:
            case DataType::DT_INT32:
            case DataType::DT_UINT32: return 4;
            case DataType::DT_INT8:
            case DataType::DT_UINT8:
            case DataType::DT_HIFLOAT8:
            case DataType::DT_FLOAT8_E5M2:
            case DataType::DT_FLOAT8_E4M3FN: return 1;
            case DataType::DT_INT64:
            case DataType::DT_UINT64:
            case DataType::DT_DOUBLE: return 8;
            default: return 2;
        }
    }
    static int32_t ceil_div(int64_t a, int64_t b) { return b > 0 ? static_cast<int32_t>((a + b - 1) / b) : 0; }
    static int32_t align(int64_t a, int64_t b) { return ceil_div(a, b) * static_cast<int32_t>(b); }
    void from_platform(const platform_ascendc::PlatformAscendC& p) {
        p.GetCoreMemSize(platform_ascendc::CoreMemType::L1, l1_);
        p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, l0a_);
        p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, l0b_);
        p.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, l0c_);
        p.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub_);
        cores_ = static_cast<int32_t>(p.GetCoreNumAiv());
    }

    // The multi-core split of M x N (K is never split across cores); returns false when nothing fits.
    virtual void split_cores(int32_t& sm, int32_t& sn, int32_t& used) {
        sm = singleM_ > 0 ? singleM_ : m_;
        sn = singleN_ > 0 ? singleN_ : n_;
        used = ceil_div(m_, sm) * ceil_div(n_, sn);
    }

    bool compute(::TCubeTiling& t) {
        if (m_ <= 0 || n_ <= 0 || k_ <= 0) return false;
        std::memset(&t, 0, sizeof(t));
        int32_t sm = 0, sn = 0, used = 1;
        split_cores(sm, sn, used);
        int32_t sk = singleK_ > 0 ? singleK_ : k_;
        const int32_t sa = bytes_of(a_.dt), sb = bytes_of(b_.dt);
        const int32_t c0a = 32 / sa > 0 ? 32 / sa : 16;
        // base block: the recommended (128, 256, 64), shrunk to the single-core shape (16-aligned) and to the
        // L0 buffers with double buffering (TCubeTiling结构体.md table 2)
        int32_t bm = fixM_ > 0 ? fixM_ : std::min(128, align(sm, 16));
        int32_t bn = fixN_ > 0 ? fixN_ : std::min(256, align(sn, 16));
        // baseK: 64 B... of K per fractal row for 16-bit types (the recommended 64), the same bytes otherwise
        int32_t bk = fixK_ > 0 ? fixK_ : std::min(align(sk, std::max(16, c0a)), sa >= 4 ? 32 : (sa == 1 ? 128 : 64));
        while (static_cast<uint64_t>(bm) * bn * 4 * 2 > l0c_ && (bn > 16 || bm > 16)) {
            if (fixN_ <= 0 && bn >= bm && bn > 16) bn = align(bn / 2, 16);
            else if (fixM_ <= 0 && bm > 16) bm = align(bm / 2, 16);
            else break;
        }
        int32_t dbl0c = static_cast<uint64_t>(bm) * bn * 4 * 2 <= l0c_ ? 2 : 1;
        if (static_cast<uint64_t>(bm) * bn * 4 > l0c_) return false;
        while (fixK_ <= 0 && bk > 16 &&
               (static_cast<uint64_t>(bm) * bk * sa * 2 > l0a_ || static_cast<uint64_t>(bn) * bk * sb * 2 > l0b_))
            bk = align(bk / 2, 16);
        if (static_cast<uint64_t>(bm) * bk * sa > l0a_ || static_cast<uint64_t>(bn) * bk * sb > l0b_) return false;
        // L1 caches: K fully loaded when it fits (the docs' tuning advice), else one base block of K per step
        int32_t kIters = ceil_div(sk, bk);
        int32_t stepKa = kIters, stepKb = kIters;
        auto l1_need = [&](int32_t ska, int32_t skb) {
            uint64_t a = static_cast<uint64_t>(bm) * bk * ska * 2 * sa;
            uint64_t b = static_cast<uint64_t>(bn) * bk * skb * 2 * sb;
            return a + b + (bias_on_ ? static_cast<uint64_t>(bn) * 4 : 0);
        };
        while ((stepKa > 1 || stepKb > 1) && l1_need(stepKa, stepKb) > l1_) {
            stepKa = std::max(1, stepKa / 2);
            stepKb = std::max(1, stepKb / 2);
        }
        t.usedCoreNum = used;
        t.M = orgM_ > 0 ? orgM_ : m_;
        t.N = orgN_ > 0 ? orgN_ : n_;
        t.Ka = orgKa_ > 0 ? orgKa_ : k_;
        t.Kb = orgKb_ > 0 ? orgKb_ : k_;
        t.singleCoreM = sm;
        t.singleCoreN = sn;
        t.singleCoreK = sk;
        t.baseM = bm;
        t.baseN = bn;
        t.baseK = bk;
        t.stepM = 1;
        t.stepN = 1;
        t.stepKa = stepKa;
        t.stepKb = stepKb;
        t.depthA1 = stepKa * 2;
        t.depthB1 = stepKb * 2;
        t.isBias = bias_on_ ? 1 : 0;
        t.transLength = 0;
        t.iterateOrder = traverse_ == MatrixTraverse::FIRSTN ? 1 : 0;
        t.dbL0A = 2;
        t.dbL0B = 2;
        t.dbL0C = dbl0c;
        t.shareMode = 0;
        t.shareL1Size = static_cast<int32_t>(l1_need(stepKa, stepKb));
        t.shareL0CSize = bm * bn * 4;
        t.shareUbSize = 0;
        t.batchM = batchA_;
        t.batchN = batchB_;
        t.singleBatchM = batchA_;
        t.singleBatchN = batchB_;
        t.ALayoutInfoB = aLayout_[0]; t.ALayoutInfoS = aLayout_[1]; t.ALayoutInfoN = aLayout_[2];
        t.ALayoutInfoG = aLayout_[3]; t.ALayoutInfoD = aLayout_[4];
        t.BLayoutInfoB = bLayout_[0]; t.BLayoutInfoS = bLayout_[1]; t.BLayoutInfoN = bLayout_[2];
        t.BLayoutInfoG = bLayout_[3]; t.BLayoutInfoD = bLayout_[4];
        t.CLayoutInfoB = cLayout_[0]; t.CLayoutInfoS1 = cLayout_[1]; t.CLayoutInfoN = cLayout_[2];
        t.CLayoutInfoG = cLayout_[3]; t.CLayoutInfoS2 = cLayout_[4];
        t.BatchNum = batchNum_;
        return true;
    }

    Operand a_, b_, c_{TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false}, bias_;
    int32_t m_ = 0, n_ = 0, k_ = 0, orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0;
    int32_t singleM_ = -1, singleN_ = -1, singleK_ = -1, fixM_ = -1, fixN_ = -1, fixK_ = -1;
    int32_t aLayout_[5] = {}, bLayout_[5] = {}, cLayout_[5] = {};
    int32_t batchNum_ = 0, batchA_ = 1, batchB_ = 1;
    bool bias_on_ = false;
    MatrixTraverse traverse_ = MatrixTraverse::NOSET;
    uint64_t l1_ = 0, l0a_ = 0, l0b_ = 0, l0c_ = 0, ub_ = 0;
    int32_t cores_ = 1;
    ::TCubeTiling result_{};
};

class MatmulApiTiling : public MatmulApiTilingBase {
public:
    using MatmulApiTilingBase::MatmulApiTilingBase;
};

class MultiCoreMatmulTiling : public MatmulApiTilingBase {
public:
    using MatmulApiTilingBase::MatmulApiTilingBase;
    int32_t SetDim(int32_t dim) {
        if (dim <= 0) return -1;
        dim_ = dim;
        return 0;
    }
    int32_t SetSingleRange(int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1, int32_t = -1) {
        return 0;
    }
    int32_t SetAlignSplit(int32_t am, int32_t an, int32_t ak) {
        alignM_ = am > 0 ? am : 1;
        alignN_ = an > 0 ? an : 1;
        (void)ak;
        return 0;
    }
    int32_t EnableMultiCoreSplitK(bool) { return 0; }
    int32_t SetSplitK(bool) { return 0; }
    int32_t GetSingleShape(int32_t& sm, int32_t& sn, int32_t& sk) const {
        sm = result_.singleCoreM;
        sn = result_.singleCoreN;
        sk = result_.singleCoreK;
        return 0;
    }
    int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) const {
        dim = result_.usedCoreNum;
        mDim = ceil_div(result_.M, result_.singleCoreM);
        nDim = ceil_div(result_.N, result_.singleCoreN);
        return 0;
    }

protected:
    // Split the M x N output over at most dim cores. Single-core sizes are multiples of 16 (of a fixed base
    // size when SetFixSplit gave one, so every core walks whole base blocks). Preferred, in order: splits
    // without a tail block (M and N divide evenly), more cores used, the squarest single-core block.
    void split_cores(int32_t& sm, int32_t& sn, int32_t& used) override {
        int32_t dim = dim_ > 0 ? dim_ : 1;
        if (singleM_ > 0 || singleN_ > 0) {
            sm = singleM_ > 0 ? singleM_ : m_;
            sn = singleN_ > 0 ? singleN_ : n_;
            used = ceil_div(m_, sm) * ceil_div(n_, sn);
            return;
        }
        const int32_t unitM = std::max(fixM_ > 0 ? fixM_ : 16, alignM_);
        const int32_t unitN = std::max(fixN_ > 0 ? fixN_ : 16, alignN_);
        int32_t bestM = 1, bestN = 1, bestUsed = 0;
        bool bestEven = false;
        double bestRatio = 1e30;
        for (int32_t md = 1; md <= dim; ++md) {
            for (int32_t nd = 1; md * nd <= dim; ++nd) {
                int32_t cm = std::min(align(ceil_div(m_, md), unitM), align(m_, unitM));
                int32_t cn = std::min(align(ceil_div(n_, nd), unitN), align(n_, unitN));
                int32_t u = ceil_div(m_, cm) * ceil_div(n_, cn);
                if (u > dim) continue;
                bool even = m_ % cm == 0 && n_ % cn == 0;
                double ratio = cm > cn ? static_cast<double>(cm) / cn : static_cast<double>(cn) / cm;
                bool better = (even && !bestEven) || (even == bestEven && (u > bestUsed || (u == bestUsed && ratio < bestRatio)));
                if (better) {
                    bestEven = even;
                    bestUsed = u;
                    bestRatio = ratio;
                    bestM = cm;
                    bestN = cn;
                }
            }
        }
        sm = std::min(bestM, std::max(m_, 1));
        sn = std::min(bestN, std::max(n_, 1));
        if (sm < m_ && sm % 16) sm = align(sm, 16);
        if (sn < n_ && sn % 16) sn = align(sn, 16);
        used = ceil_div(m_, sm) * ceil_div(n_, sn);
    }
    int32_t dim_ = 1, alignM_ = 1, alignN_ = 1;
};

class BatchMatmulTiling : public MultiCoreMatmulTiling {
public:
    using MultiCoreMatmulTiling::MultiCoreMatmulTiling;
};
}  // namespace matmul_tiling

#endif  // ASCENDC_EMU_HOST_MATMUL_TILING_H_

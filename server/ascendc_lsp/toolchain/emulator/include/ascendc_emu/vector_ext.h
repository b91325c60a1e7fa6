// Cast, Compare/CompareScalar, Select, reductions and Brcb (clean-room, from the documented semantics).
#ifndef ASCENDC_EMU_ASCENDC_EMU_VECTOR_EXT_H_
#define ASCENDC_EMU_ASCENDC_EMU_VECTOR_EXT_H_
#include "vector.h"
#include "vector_regs.h"

namespace ascendc_emu {
inline RM rm_of(AscendC::RoundMode m) {
    switch (m) {
        case AscendC::RoundMode::CAST_FLOOR: return RM::FLOOR;
        case AscendC::RoundMode::CAST_CEIL: return RM::CEIL;
        case AscendC::RoundMode::CAST_ROUND: return RM::ROUND;
        case AscendC::RoundMode::CAST_TRUNC: return RM::TRUNC;
        case AscendC::RoundMode::CAST_ODD: return RM::ODD;
        default: return RM::RINT;  // CAST_NONE rounds like RINT when precision is lost
    }
}
template <class S> inline double to_d(S v) { return (double)(calc_t<S>)v; }
// One element of Cast: round once from the exact source value; integer results saturate, NaN -> 0.
template <class D, class S>
inline D cast_elem(S v, RM m) {
    double x = to_d<S>(v);
    if (std::is_same<D, half>::value) return (D)half::from_bits(float_to_half_bits(x, m));
    if (std::is_same<D, bfloat16_t>::value) return (D)bfloat16_t::from_bits(float_to_bf16_bits(x, m));
    if (std::is_floating_point<D>::value) return (D)double_to_float(x, m);
    if (std::isnan(x)) return (D)0;
    double r = m == RM::FLOOR ? std::floor(x) : m == RM::CEIL ? std::ceil(x) : m == RM::ROUND ? std::round(x)
             : m == RM::TRUNC ? std::trunc(x) : std::nearbyint(x);
    double lo = (double)std::numeric_limits<D>::lowest(), hi = (double)std::numeric_limits<D>::max();
    if (r <= lo) return std::numeric_limits<D>::lowest();
    if (r >= hi) return std::numeric_limits<D>::max();
    return (D)(int64_t)r;
}
template <class D, class S> struct Caster {
    static D go(S v, RM m) { return cast_elem<D, S>(v, m); }
};
// half/bfloat16 have non-arithmetic class types: specialise the cast chain through their bit patterns.
template <class S> struct Caster<half, S> {
    static half go(S v, RM m) { return half::from_bits(float_to_half_bits(to_d<S>(v), m)); }
};
template <> struct Caster<half, int32_t> {  // int32 -> half is scaled by DEQSCALE, rounded RINT (Cast.md)
    static half go(int32_t v, RM) { return half::from_bits(float_to_half_bits((double)v * deq_scale())); }
};
template <class S> struct Caster<bfloat16_t, S> {
    static bfloat16_t go(S v, RM m) { return bfloat16_t::from_bits(float_to_bf16_bits(to_d<S>(v), m)); }
};
template <class S> struct Caster<float, S> {
    static float go(S v, RM m) { return double_to_float(to_d<S>(v), m); }
};

// Pairwise (binary-tree) sum as the vector unit reduces; 16-bit float partial sums saturate at +-65504.
template <class T> inline calc_t<T> rnd(calc_t<T> v) {
    if (std::is_same<T, half>::value) {
        if (std::isfinite(v) && v > 65504.f) v = 65504.f;
        if (std::isfinite(v) && v < -65504.f) v = -65504.f;
    }
    return (calc_t<T>)(T)v;
}
template <class T> inline calc_t<T> tree_sum(calc_t<T>* v, int n) {
    if (n <= 0) return calc_t<T>(0);
    while (n > 1) {
        int h = (n + 1) / 2;
        for (int i = 0; i < n / 2; i++) v[i] = rnd<T>(v[2 * i] + v[2 * i + 1]);
        if (n % 2) v[n / 2] = v[n - 1];
        n = h;
    }
    return v[0];
}
template <class I> inline void store_index(uint8_t* p, int sz, uint32_t idx) {
    if (sz == 2) { uint16_t i16 = (uint16_t)idx; memcpy(p, &i16, 2); }
    else { memcpy(p, &idx, 4); }
}
}  // namespace ascendc_emu

namespace AscendC {
// ---- Cast
template <typename T, typename U>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, const uint32_t count,
                 EMU_LOC) {
    using namespace ascendc_emu;
    T* d = (T*)dst.ptr_;
    const U* s = (const U*)src.ptr_;
    if (std::is_same<T, half>::value && std::is_same<U, int32_t>::value) deq_note("Cast", loc);
    cast_gate<T, U>(loc);
    RM m = rm_of(roundMode);
    run2("Cast", count, loc, [&](int64_t i) { d[i] = Caster<T, U>::go(s[i], m); }, dst, src);
}
template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, uint64_t mask,
                 const int64_t repeatTime, const UnaryRepeatParams& p, EMU_LOC) {
    using namespace ascendc_emu;
    int lsz = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);
    if (isSetMask) mask_arg_cont(256 / lsz, (int64_t)mask, "Cast", loc);
    int rep = check_repeat(repeatTime, "Cast", loc);
    if (std::is_same<T, half>::value && std::is_same<U, int32_t>::value) deq_note("Cast", loc);
    cast_gate<T, U>(loc);
    RM m = rm_of(roundMode);
    run0("Cast", lsz, rep, loc, [&](uint8_t* d, const uint8_t* x) {
        U v; memcpy(&v, x, sizeof(U)); T r = Caster<T, U>::go(v, m); memcpy(d, &r, sizeof(T)); },
        dst, p.dstBlkStride, p.dstRepStride, src_(src, p.srcBlkStride, p.srcRepStride));
}
template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, const uint64_t mask[],
                 const int64_t repeatTime, const UnaryRepeatParams& p, EMU_LOC) {
    using namespace ascendc_emu;
    int lsz = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);
    if (isSetMask) mask_arg_bits(256 / lsz, mask, "Cast", loc);
    int rep = check_repeat(repeatTime, "Cast", loc);
    if (std::is_same<T, half>::value && std::is_same<U, int32_t>::value) deq_note("Cast", loc);
    cast_gate<T, U>(loc);
    RM m = rm_of(roundMode);
    run0("Cast", lsz, rep, loc, [&](uint8_t* d, const uint8_t* x) {
        U v; memcpy(&v, x, sizeof(U)); T r = Caster<T, U>::go(v, m); memcpy(d, &r, sizeof(T)); },
        dst, p.dstBlkStride, p.dstRepStride, src_(src, p.srcBlkStride, p.srcRepStride));
}

// ---- Compare: one result bit per element, little-endian within each byte.
namespace detail_cmp {
template <class T>
inline bool cmp(ascendc_emu::calc_t<T> a, ascendc_emu::calc_t<T> b, CMPMODE m) {
    switch (m) {
        case CMPMODE::LT: return a < b;
        case CMPMODE::GT: return a > b;
        case CMPMODE::EQ: return a == b;
        case CMPMODE::LE: return a <= b;
        case CMPMODE::GE: return a >= b;
        default: return a != b;
    }
}
template <class T, class U, class G>
inline void run(const char* api, const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>* src1,
                uint32_t count, const ascendc_emu::Loc& loc, G get_b, CMPMODE m) {
    using namespace ascendc_emu;
    begin_epoch(P_V);
    // docs (比较与选择/Compare.md): only whole 256-byte repeats are compared; the tail elements are not
    if (((uint64_t)count * sizeof(T)) % 256)
        report_error("compare-count", "vector-param-invalid", P_V, api, loc,
                     "%s count %u x %zu B = %s B is not a multiple of 256 B (one repeat); the hardware compares "
                     "whole repeats and leaves the last %u results unwritten", api, count, sizeof(T),
                     EMU_N((uint64_t)count * sizeof(T)), (unsigned)(count % (256 / sizeof(T))));
    count -= count % (uint32_t)(256 / sizeof(T));
    uint64_t nbytes = (count + 7) / 8;
    bool ok = src0.emu_check(0, count, false, P_V, api, loc);
    if (src1) ok = src1->emu_check(0, count, false, P_V, api, loc) && ok;
    ok = dst.emu_check_bytes(0, nbytes, true, P_V, api, loc) && ok;
    if (ok) {
        const T* x = (const T*)src0.ptr_;
        uint8_t* d = dst.ptr_;
        memset(d, 0, nbytes);
        for (uint32_t i = 0; i < count; i++)
            if (cmp<T>((calc_t<T>)x[i], get_b(i), m)) d[i / 8] |= (uint8_t)(1u << (i % 8));
    }
    restore_norm();
    trace_vec(api, dtype_name<T>(), count, ((uint64_t)count * sizeof(T) + 255) / 256, loc);
}
}  // namespace detail_cmp
template <typename T, typename U>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    uint32_t count, EMU_LOC) {
    const T* y = (const T*)src1.ptr_;
    detail_cmp::run("Compare", dst, src0, &src1, count, loc,
                    [&](uint32_t i) { return (ascendc_emu::calc_t<T>)y[i]; }, cmpMode);
}
template <typename T, typename U>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const ascendc_emu::nd_t<T> src1Scalar,
                          CMPMODE cmpMode, uint32_t count, EMU_LOC) {
    ascendc_emu::calc_t<T> b = (ascendc_emu::calc_t<T>)src1Scalar;
    detail_cmp::run("CompareScalar", dst, src0, (const LocalTensor<T>*)nullptr, count, loc,
                    [&](uint32_t) { return b; }, cmpMode);
}
template <typename T, typename U>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const ascendc_emu::nd_t<T> src1Scalar,
                     CMPMODE cmpMode, uint32_t count, EMU_LOC) {
    CompareScalar(dst, src0, src1Scalar, cmpMode, count, loc);
}

// ---- Select: bit 1 takes src0. VSEL_CMPMASK_SPR reuses the first 256/sizeof(T) mask bits for every repeat;
// the tensor modes consume the mask bits continuously.
namespace detail_sel {
template <class T, class U, class G>
inline void run(const LocalTensor<T>& dst, const LocalTensor<U>& sel, const LocalTensor<T>& src0,
                const LocalTensor<T>* src1, SELMODE mode, uint32_t count, const ascendc_emu::Loc& loc, G get_b) {
    using namespace ascendc_emu;
    // Select.md: modes 1 and 2 keep intermediate data in the AscendC UB reserve (910B/910_93/310P)
    if (mode != SELMODE::VSEL_CMPMASK_SPR) uses_reserved_ub("Select", loc);
    begin_epoch(P_V);
    const int lanes = 256 / (int)sizeof(T);
    uint64_t mbytes = mode == SELMODE::VSEL_CMPMASK_SPR ? (uint64_t)lanes / 8 : ((uint64_t)count + 7) / 8;
    bool ok = src0.emu_check(0, count, false, P_V, "Select", loc);
    if (src1) ok = src1->emu_check(0, count, false, P_V, "Select", loc) && ok;
    ok = sel.emu_check_bytes(0, mbytes, false, P_V, "Select", loc) && ok;
    ok = dst.emu_check(0, count, true, P_V, "Select", loc) && ok;
    if (ok) {
        const uint8_t* m = sel.ptr_;
        const T* x = (const T*)src0.ptr_;
        T* d = (T*)dst.ptr_;
        for (uint32_t i = 0; i < count; i++) {
            uint32_t bit = mode == SELMODE::VSEL_CMPMASK_SPR ? i % (uint32_t)lanes : i;
            d[i] = ((m[bit / 8] >> (bit % 8)) & 1) ? x[i] : get_b(i);
        }
    }
    restore_norm();
    trace_vec("Select", dtype_name<T>(), count, ((uint64_t)count * sizeof(T) + 255) / 256, loc);
}
}  // namespace detail_sel
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, uint32_t count, EMU_LOC) {
    const T* y = (const T*)src1.ptr_;
    detail_sel::run(dst, selMask, src0, &src1, selMode, count, loc, [&](uint32_t i) { return y[i]; });
}
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   ascendc_emu::nd_t<T> src1, SELMODE selMode, uint32_t count, EMU_LOC) {
    T b = src1;
    detail_sel::run(dst, selMask, src0, (const LocalTensor<T>*)nullptr, selMode, count, loc,
                    [&](uint32_t) { return b; });
}

// ---- whole-tensor reductions (software sequences on the NPU; they need a work tensor)
namespace detail_red {
template <class T>
inline void check_work(const LocalTensor<T>& work, uint64_t count, bool idx, const char* api,
                       const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    uint64_t per_rep = 256 / sizeof(T), per_blk = 32 / sizeof(T);
    uint64_t reps = (count + per_rep - 1) / per_rep;
    uint64_t need = (reps * (idx ? 2 : 1) + per_blk - 1) / per_blk * per_blk;  // one partial per repeat, 32-B rounded
    if (count > per_rep && work.ptr_ && (uint64_t)(work.hi_ - work.addr_) < need * sizeof(T))
        report_warning("reduce-work", "ub-out-of-bounds", P_V, api, loc,
                       "%s over %s elements keeps %s partial results in the work tensor, which has only %s B left in "
                       "its buffer (needs about %s B)", api, EMU_N(count), EMU_N(reps * (idx ? 2 : 1)),
                       EMU_N(work.hi_ - work.addr_), EMU_N(need * sizeof(T)));
}
// Level-by-level sum: each 256-byte repeat is reduced by a tree, then the repeat results again.
template <class T>
inline ascendc_emu::calc_t<T> level_sum(std::vector<ascendc_emu::calc_t<T>>& v) {
    using namespace ascendc_emu;
    const size_t L = 256 / sizeof(T);
    while (v.size() > 1) {
        std::vector<calc_t<T>> nx;
        for (size_t i = 0; i < v.size(); i += L) {
            size_t n = v.size() - i < L ? v.size() - i : L;
            nx.push_back(tree_sum<T>(&v[i], (int)n));
        }
        v.swap(nx);
    }
    return v.empty() ? calc_t<T>(0) : v[0];
}
template <class T>
inline void minmax(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
                   int32_t count, bool calIndex, bool isMax, const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    begin_epoch(P_V);
    check_work(work, count > 0 ? (uint64_t)count : 0, calIndex, api, loc);
    bool ok = src.emu_check(0, count > 0 ? (uint64_t)count : 0, false, P_V, api, loc);
    // dst alignment: ReduceMax.md -> ReduceRepeat.md table 3 (value and index: 2 x sizeof(T); value only: sizeof(T))
    ok = dst.emu_check(0, calIndex ? 2 : 1, true, P_V, api, loc, calIndex ? 2 * sizeof(T) : sizeof(T)) && ok;
    if (ok && count > 0) {
        const T* x = (const T*)src.ptr_;
        uint32_t best = 0;
        for (int32_t i = 1; i < count; i++) {  // ties keep the smallest index
            calc_t<T> a = (calc_t<T>)x[i], b = (calc_t<T>)x[best];
            if (isMax ? a > b : a < b) best = (uint32_t)i;
        }
        if (sizeof(T) == 2 && calIndex && best > 65535)
            report_warning("reduce-index", "precision-mismatch", P_V, api, loc,
                           "%s index %u does not fit the 16-bit index slot of a half result", api, best);
        memcpy(dst.ptr_, &x[best], sizeof(T));
        if (calIndex) store_index<T>(dst.ptr_ + sizeof(T), (int)sizeof(T), best);
        spr_extreme<T>((double)(calc_t<T>)x[best], best, true, isMax);
    }
    restore_norm();
    trace_vec(api, dtype_name<T>(), count > 0 ? (uint64_t)count : 0, ((uint64_t)(count > 0 ? count : 0) * sizeof(T) + 255) / 256, loc);
}
}  // namespace detail_red

template <typename T, bool isSetMask = true>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const int32_t count, EMU_LOC) {
    using namespace ascendc_emu;
    begin_epoch(P_V);
    detail_red::check_work(sharedTmpBuffer, count > 0 ? (uint64_t)count : 0, false, "ReduceSum", loc);
    bool ok = src.emu_check(0, count > 0 ? (uint64_t)count : 0, false, P_V, "ReduceSum", loc);
    // dst alignment: ReduceSum.md -> ReduceRepeat.md table 3 (SUM: 2 B for half, 4 B for float)
    ok = dst.emu_check(0, 1, true, P_V, "ReduceSum", loc, sizeof(T)) && ok;
    if (ok && count > 0) {
        std::vector<calc_t<T>> v((size_t)count);
        const T* x = (const T*)src.ptr_;
        for (int32_t i = 0; i < count; i++) v[(size_t)i] = (calc_t<T>)x[i];
        T r = (T)detail_red::level_sum<T>(v);
        memcpy(dst.ptr_, &r, sizeof(T));
        spr_sum<T>(r);
    }
    restore_norm();
    trace_vec("ReduceSum", dtype_name<T>(), count > 0 ? (uint64_t)count : 0, ((uint64_t)(count > 0 ? count : 0) * sizeof(T) + 255) / 256, loc);
}
template <typename T>
inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const int32_t count, bool calIndex = false, EMU_LOC) {
    detail_red::minmax("ReduceMax", dst, src, sharedTmpBuffer, count, calIndex, true, loc);
}
template <typename T>
inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const int32_t count, bool calIndex = false, EMU_LOC) {
    detail_red::minmax("ReduceMin", dst, src, sharedTmpBuffer, count, calIndex, false, loc);
}

// ---- repeat-wise reductions (level 0)
namespace detail_red {
// Calls per_rep(r, values, lanes_idx) for each repeat with the active lanes' values.
template <class T, class F>
inline void repeats(const char* api, const LocalTensor<T>& src, int repeat, uint32_t srcBlk, uint32_t srcRep,
                    const ascendc_emu::Loc& loc, F per_rep, uint64_t& elems, int& reps) {
    using namespace ascendc_emu;
    Plan p = plan(256 / (int)sizeof(T), repeat);
    reps = p.reps;
    if (!src.emu_check_bytes(0, extent(p, (int)sizeof(T), srcBlk, srcRep), false, P_V, api, loc)) return;
    std::vector<calc_t<T>> vals;
    std::vector<int> lanes;
    for (int r = 0; r < p.reps; r++) {
        vals.clear();
        lanes.clear();
        for (int l = 0; l < p.lanes; l++)
            if (active(p, r, l)) {
                vals.push_back(ld<T>(src.ptr_ + lane_off(r, l, (int)sizeof(T), srcBlk, srcRep)));
                lanes.push_back(l);
            }
        elems += vals.size();
        per_rep(r, vals, lanes);
    }
}
}  // namespace detail_red

#define ASCENDC_EMU_MASK_FORMS(RET, NAME, PRE, POST, ...)                                                        \
    template <typename T, bool isSetMask = true>                                                                \
    inline RET NAME(PRE, const int32_t mask, POST, EMU_LOC) {                                                   \
        using namespace ascendc_emu;                                                                            \
        if (isSetMask) mask_arg_cont(256 / sizeof(T), mask, #NAME, loc);                                        \
        __VA_ARGS__                                                                                             \
    }                                                                                                           \
    template <typename T, bool isSetMask = true>                                                                \
    inline RET NAME(PRE, const uint64_t mask[], POST, EMU_LOC) {                                                \
        using namespace ascendc_emu;                                                                            \
        if (isSetMask) mask_arg_bits(256 / sizeof(T), mask, #NAME, loc);                                        \
        __VA_ARGS__                                                                                             \
    }
#define ASCENDC_EMU_COMMA ,

// WholeReduceSum: one sum per repeat at dst[r * dstRepStride] (stride in elements).
ASCENDC_EMU_MASK_FORMS(void, WholeReduceSum,
    const LocalTensor<T>& dst ASCENDC_EMU_COMMA const LocalTensor<T>& src,
    const int32_t repeatTime ASCENDC_EMU_COMMA const int32_t dstRepStride ASCENDC_EMU_COMMA const int32_t srcBlkStride
        ASCENDC_EMU_COMMA const int32_t srcRepStride,
    {
        begin_epoch(P_V);
        int rep = check_repeat(repeatTime, "WholeReduceSum", loc);
        uint64_t elems = 0;
        int reps = 0;
        Plan pl = plan(256 / (int)sizeof(T), rep);
        /* dst alignment: ReduceRepeat.md table 3 (SUM: sizeof(T)) */                                       \
        if (dst.emu_check(0, pl.reps ? (uint64_t)(pl.reps - 1) * dstRepStride + 1 : 0, true, P_V, "WholeReduceSum", loc, sizeof(T)))
            detail_red::repeats(
                "WholeReduceSum", src, rep, srcBlkStride, srcRepStride, loc,
                [&](int r, std::vector<calc_t<T>>& v, std::vector<int>&) {
                    T s = (T)tree_sum<T>(v.data(), (int)v.size());
                    memcpy(dst.ptr_ + (size_t)r * dstRepStride * sizeof(T), &s, sizeof(T));
                },
                elems, reps);
        trace_vec("WholeReduceSum", dtype_name<T>(), elems, (uint64_t)reps, loc);
    })

#define ASCENDC_EMU_WHOLE_MINMAX(NAME, ISMAX)                                                                     \
    ASCENDC_EMU_MASK_FORMS(void, NAME,                                                                          \
        const LocalTensor<T>& dst ASCENDC_EMU_COMMA const LocalTensor<T>& src,                                  \
        const int32_t repeatTime ASCENDC_EMU_COMMA const int32_t dstRepStride ASCENDC_EMU_COMMA                 \
            const int32_t srcBlkStride ASCENDC_EMU_COMMA const int32_t srcRepStride ASCENDC_EMU_COMMA           \
            ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,                                                 \
        {                                                                                                       \
            begin_epoch(P_V);                                                                                   \
            int rep = check_repeat(repeatTime, #NAME, loc);                                                     \
            uint64_t elems = 0;                                                                                 \
            int reps = 0;                                                                                       \
            Plan pl = plan(256 / (int)sizeof(T), rep);                                                          \
            bool both = order == ReduceOrder::ORDER_VALUE_INDEX || order == ReduceOrder::ORDER_INDEX_VALUE;     \
            uint64_t unit = both ? 2 * sizeof(T) : order == ReduceOrder::ORDER_ONLY_INDEX ? 4 : sizeof(T);      \
            uint64_t ext = pl.reps ? (uint64_t)(pl.reps - 1) * dstRepStride * unit + unit : 0;                  \
            bool spr_first = true;                                                                              \
            /* dst alignment: ReduceRepeat.md table 3 (value+index 2 x sizeof(T), value sizeof(T), index 4) */ \
            if (dst.emu_check_bytes(0, ext, true, P_V, #NAME, loc, both ? 2 * sizeof(T) : order == ReduceOrder::ORDER_ONLY_INDEX ? 4 : sizeof(T))) \
                detail_red::repeats(                                                                            \
                    #NAME, src, rep, srcBlkStride, srcRepStride, loc,                                           \
                    [&](int r, std::vector<calc_t<T>>& v, std::vector<int>& lanes) {                            \
                        if (v.empty()) return;                                                                  \
                        size_t best = 0;                                                                        \
                        for (size_t i = 1; i < v.size(); i++)                                                   \
                            if (ISMAX ? v[i] > v[best] : v[i] < v[best]) best = i;                              \
                        T val = (T)v[best];                                                                     \
                        uint8_t* o = dst.ptr_ + (size_t)r * dstRepStride * unit;                                \
                        uint32_t idx = (uint32_t)lanes[best];                                                   \
                        spr_extreme<T>((double)v[best], (uint32_t)(r * (256 / sizeof(T)) + idx), spr_first, ISMAX);   \
                        spr_first = false;                                                                      \
                        if (order == ReduceOrder::ORDER_VALUE_INDEX) {                                          \
                            memcpy(o, &val, sizeof(T)); store_index<T>(o + sizeof(T), sizeof(T), idx);          \
                        } else if (order == ReduceOrder::ORDER_INDEX_VALUE) {                                   \
                            store_index<T>(o, sizeof(T), idx); memcpy(o + sizeof(T), &val, sizeof(T));          \
                        } else if (order == ReduceOrder::ORDER_ONLY_VALUE) {                                    \
                            memcpy(o, &val, sizeof(T));                                                         \
                        } else {                                                                                \
                            memcpy(o, &idx, 4);                                                                 \
                        }                                                                                       \
                    },                                                                                          \
                    elems, reps);                                                                               \
            trace_vec(#NAME, dtype_name<T>(), elems, (uint64_t)reps, loc);                                      \
        })
ASCENDC_EMU_WHOLE_MINMAX(WholeReduceMax, true)
ASCENDC_EMU_WHOLE_MINMAX(WholeReduceMin, false)

// BlockReduce*: 8 results per repeat (one per 32-byte block), at dst[r * dstRepStride * 8 + b].
#define ASCENDC_EMU_BLOCK_REDUCE(NAME, KIND)                                                                      \
    ASCENDC_EMU_MASK_FORMS(void, NAME,                                                                          \
        const LocalTensor<T>& dst ASCENDC_EMU_COMMA const LocalTensor<T>& src ASCENDC_EMU_COMMA                 \
            const int32_t repeatTime,                                                                           \
        const int32_t dstRepStride ASCENDC_EMU_COMMA const int32_t srcBlkStride ASCENDC_EMU_COMMA               \
            const int32_t srcRepStride,                                                                         \
        {                                                                                                       \
            begin_epoch(P_V);                                                                                   \
            int rep = check_repeat(repeatTime, #NAME, loc);                                                     \
            uint64_t elems = 0;                                                                                 \
            int reps = 0;                                                                                       \
            Plan pl = plan(256 / (int)sizeof(T), rep);                                                          \
            const int epb = 32 / (int)sizeof(T);                                                                \
            /* dst alignment: ReduceDataBlock.md (16 B for half, 32 B for float) */                             \
            if (dst.emu_check(0, pl.reps ? (uint64_t)(pl.reps - 1) * dstRepStride * 8 + 8 : 0, true, P_V, #NAME, loc, sizeof(T) == 2 ? 16 : 32)) \
                detail_red::repeats(                                                                            \
                    #NAME, src, rep, srcBlkStride, srcRepStride, loc,                                           \
                    [&](int r, std::vector<calc_t<T>>& v, std::vector<int>& lanes) {                            \
                        for (int b = 0; b < 8; b++) {                                                           \
                            std::vector<calc_t<T>> part;                                                        \
                            for (size_t i = 0; i < v.size(); i++) if (lanes[i] / epb == b) part.push_back(v[i]); \
                            if (part.empty()) continue;                                                         \
                            calc_t<T> acc = part[0];                                                            \
                            if (KIND == 0) acc = tree_sum<T>(part.data(), (int)part.size());                    \
                            else for (auto x : part) acc = (KIND == 1 ? x > acc : x < acc) ? x : acc;           \
                            T o = (T)acc;                                                                       \
                            memcpy(dst.ptr_ + ((size_t)r * dstRepStride * 8 + b) * sizeof(T), &o, sizeof(T));   \
                        }                                                                                       \
                    },                                                                                          \
                    elems, reps);                                                                               \
            trace_vec(#NAME, dtype_name<T>(), elems, (uint64_t)reps, loc);                                      \
        })
ASCENDC_EMU_BLOCK_REDUCE(BlockReduceSum, 0)
ASCENDC_EMU_BLOCK_REDUCE(BlockReduceMax, 1)
ASCENDC_EMU_BLOCK_REDUCE(BlockReduceMin, 2)

// PairReduceSum: adjacent pairs summed, 128 / sizeof(T) results per repeat at dst[r * dstRepStride * that].
ASCENDC_EMU_MASK_FORMS(void, PairReduceSum,
    const LocalTensor<T>& dst ASCENDC_EMU_COMMA const LocalTensor<T>& src ASCENDC_EMU_COMMA const int32_t repeatTime,
    const int32_t dstRepStride ASCENDC_EMU_COMMA const int32_t srcBlkStride ASCENDC_EMU_COMMA const int32_t srcRepStride,
    {
        begin_epoch(P_V);
        int rep = check_repeat(repeatTime, "PairReduceSum", loc);
        uint64_t elems = 0;
        int reps = 0;
        const int half_l = 128 / (int)sizeof(T);
        Plan pl = plan(256 / (int)sizeof(T), rep);
        /* ReducePairElem.md: every operand 32-byte aligned */                                              \
        if (dst.emu_check(0, pl.reps ? (uint64_t)(pl.reps - 1) * dstRepStride * half_l + half_l : 0, true, P_V,
                          "PairReduceSum", loc, 32))
            detail_red::repeats(
                "PairReduceSum", src, rep, srcBlkStride, srcRepStride, loc,
                [&](int r, std::vector<calc_t<T>>& v, std::vector<int>& lanes) {
                    std::vector<calc_t<T>> acc((size_t)half_l, calc_t<T>(0));
                    std::vector<bool> any((size_t)half_l, false);
                    for (size_t i = 0; i < v.size(); i++) {
                        size_t j = (size_t)lanes[i] / 2;
                        acc[j] = any[j] ? rnd<T>(acc[j] + v[i]) : v[i];
                        any[j] = true;
                    }
                    for (int j = 0; j < half_l; j++)
                        if (any[(size_t)j]) {
                            T o = (T)acc[(size_t)j];
                            memcpy(dst.ptr_ + ((size_t)r * dstRepStride * half_l + j) * sizeof(T), &o, sizeof(T));
                        }
                },
                elems, reps);
        trace_vec("PairReduceSum", dtype_name<T>(), elems, (uint64_t)reps, loc);
    })

// Level-0 ReduceSum over all repeats of the masked lanes.
template <typename T, bool isSetMask = true>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride, EMU_LOC) {
    using namespace ascendc_emu;
    (void)sharedTmpBuffer;
    if (isSetMask) mask_arg_cont(256 / sizeof(T), mask, "ReduceSum", loc);
    begin_epoch(P_V);
    uint64_t elems = 0;
    int reps = 0;
    std::vector<calc_t<T>> all;
    if (dst.emu_check(0, 1, true, P_V, "ReduceSum", loc, sizeof(T)))  // ReduceRepeat.md table 3 (SUM)
        detail_red::repeats("ReduceSum", src, repeatTime < 0 ? 0 : repeatTime, 1, (uint32_t)srcRepStride, loc,
                            [&](int, std::vector<calc_t<T>>& v, std::vector<int>&) {
                                all.push_back(tree_sum<T>(v.data(), (int)v.size()));
                            },
                            elems, reps);
    T r = (T)detail_red::level_sum<T>(all);
    if (elems) memcpy(dst.ptr_, &r, sizeof(T));
    trace_vec("ReduceSum", dtype_name<T>(), elems, (uint64_t)reps, loc);
}

// ---- Brcb: each repeat takes 8 elements and fills one 32-byte block of dst with each.
template <typename T>
inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const int64_t repeatTime,
                 const BrcbRepeatParams& p, EMU_LOC) {
    using namespace ascendc_emu;
    if (rt().soc.arch == 2002) uses_reserved_ub("Brcb", loc);  // Brcb.md: Atlas inference AI Core (310P) only
    begin_epoch(P_V);
    int rep = check_repeat(repeatTime, "Brcb", loc);
    const int epb = 32 / (int)sizeof(T);
    uint64_t dext = rep ? (uint64_t)(rep - 1) * p.dstRepStride * 32 + 7ull * p.dstBlkStride * 32 + 32 : 0;
    bool ok = src0.emu_check(0, (uint64_t)rep * 8, false, P_V, "Brcb", loc);
    ok = dst.emu_check_bytes(0, dext, true, P_V, "Brcb", loc) && ok;
    if (src0.ptr_ == dst.ptr_)
        report_warning("brcb-overlap", "vector-param-invalid", P_V, "Brcb", loc,
                       "Brcb source and destination are the same address, which the API does not support");
    if (ok)
        for (int r = 0; r < rep; r++)
            for (int b = 0; b < 8; b++) {
                T v;
                memcpy(&v, src0.ptr_ + ((size_t)r * 8 + b) * sizeof(T), sizeof(T));
                uint8_t* o = dst.ptr_ + (size_t)r * p.dstRepStride * 32 + (size_t)b * p.dstBlkStride * 32;
                for (int e = 0; e < epb; e++) memcpy(o + e * sizeof(T), &v, sizeof(T));
            }
    trace_vec("Brcb", dtype_name<T>(), (uint64_t)rep * 8 * epb, (uint64_t)rep, loc);
}
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_VECTOR_EXT_H_

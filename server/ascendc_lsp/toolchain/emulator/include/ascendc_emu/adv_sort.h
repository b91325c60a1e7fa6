// High-level sort APIs (clean-room), docs/zh/api/SIMD-API/高阶API/排序操作/: Sort (isFullSort; the A2/A3 layout
// "排布方式一": a (score, index) pair per element in 8 bytes, index in the high 4 bytes, a half score in the low 2),
// Concat and Extract around it, GetSortLen / GetSortOffset, and TopK (Normal and Small modes). Ordering as TopK.md
// states: descending for the largest (ascending for the smallest), equal values keep the lower index first, inf is
// the largest value, NaN sorts first in both orders (equal values keep their input order).
#ifndef ASCENDC_EMU_ASCENDC_EMU_ADV_SORT_H_
#define ASCENDC_EMU_ASCENDC_EMU_ADV_SORT_H_
#include "adv_common.h"
#include "../kernel_tiling/kernel_tiling.h"

namespace AscendC {
struct TopKInfo {
    int32_t outter = 1;
    int32_t inner;
    int32_t n;
};

// GetSortLen.md / GetSortOffset.md: sizes in bytes of the sorted (score, index) data.
template <typename T>
inline uint32_t GetSortLen(const uint32_t elemCount) {
    static_assert(ascendc_emu::adv::is_f16_or_f32<T>::value, "GetSortLen: half or float");
    return elemCount * ascendc_emu_adv::sort_pair_bytes();
}
template <typename T>
inline uint32_t GetSortOffset(const uint32_t elemOffset) {
    static_assert(ascendc_emu::adv::is_f16_or_f32<T>::value, "GetSortOffset: half or float");
    return elemOffset * ascendc_emu_adv::sort_pair_bytes();
}
}  // namespace AscendC

namespace ascendc_emu {
namespace adv {
namespace sortk {
// Strict order of two values: NaN first, then descending (largest) or ascending. Used with a stable sort, so equal
// values keep their input position ("srcLocal[j] first when i > j", TopK.md).
inline bool before(float a, float b, bool largest) {
    const bool na = std::isnan(a), nb = std::isnan(b);
    if (na || nb) return na && !nb;
    return largest ? a > b : a < b;
}
template <class T> inline void put_pair(uint8_t* p, T v, uint32_t idx) {
    memset(p, 0, 8);
    memcpy(p, &v, sizeof(T));
    memcpy(p + 4, &idx, 4);
}
template <class T> inline float pair_value(const uint8_t* p) {
    T v;
    memcpy(&v, p, sizeof(T));
    return (float)v;
}
inline uint32_t pair_index(const uint8_t* p) {
    uint32_t i;
    memcpy(&i, p + 4, 4);
    return i;
}
}  // namespace sortk
}  // namespace adv
}  // namespace ascendc_emu

namespace AscendC {
// ---- Concat (Concat.md): 16 elements per repeat into the data Sort takes (A2/A3: the values as they are).
template <typename T>
inline void Concat(const LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp,
                   const int32_t repeatTime, EMU_LOC) {
    using namespace ascendc_emu;
    static_assert(adv::is_f16_or_f32<T>::value, "Concat: half or float");
    begin_epoch(P_V);
    const int rep = check_repeat(repeatTime, "Concat", loc);
    const uint64_t n = (uint64_t)rep * 16;
    (void)tmp;
    bool ok = src.emu_check(0, n, false, P_V, "Concat", loc) && concat.emu_check(0, n, true, P_V, "Concat", loc);
    if (ok && concat.ptr_ != src.ptr_) memmove(concat.ptr_, src.ptr_, n * sizeof(T));
    adv::trace_step("Concat", "Copy", dtype_name<T>(), n, sizeof(T), loc);
}

// ---- Sort (Sort.md, without SortConfig): 32 elements per repeat with their uint32 indices into (score, index)
// pairs, descending; isFullSort sorts all repeatTime * 32 together (tmp holds the merge's second buffer).
template <typename T, bool isFullSort>
inline void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat, const LocalTensor<uint32_t>& index,
                 const LocalTensor<T>& tmp, const int32_t repeatTime, EMU_LOC) {
    using namespace ascendc_emu;
    static_assert(adv::is_f16_or_f32<T>::value, "Sort: half or float");
    const char* api = "Sort";
    begin_epoch(P_V);
    const int rep = check_repeat(repeatTime, api, loc);
    const uint32_t n = (uint32_t)rep * 32;
    bool ok = concat.emu_check(0, n, false, P_V, api, loc) && index.emu_check(0, n, false, P_V, api, loc);
    ok = dst.emu_check_bytes(0, (uint64_t)n * 8, true, P_V, api, loc) && ok;
    if (isFullSort && rep > 1) {
        const LocalTensor<uint8_t> t8 = tmp.template ReinterpretCast<uint8_t>();
        ok = adv::take_tmp(api, &t8, ascendc_emu_adv::sort_tmp_bytes(n), ascendc_emu_adv::sort_tmp_bytes(n), "the merge",
                           loc) && ok;
    }
    if (ok) {
        std::vector<std::pair<float, uint32_t>> v(n);
        const T* s = (const T*)concat.ptr_;
        const uint32_t* ix = (const uint32_t*)index.ptr_;
        for (uint32_t i = 0; i < n; i++) v[i] = {(float)s[i], ix[i]};
        auto cmp = [](const std::pair<float, uint32_t>& a, const std::pair<float, uint32_t>& b) {
            return adv::sortk::before(a.first, b.first, true);
        };
        const uint32_t group = isFullSort ? n : 32;
        for (uint32_t g = 0; g < n; g += group) std::stable_sort(v.begin() + g, v.begin() + g + group, cmp);
        std::vector<uint8_t> out((size_t)n * 8);
        for (uint32_t i = 0; i < n; i++) adv::sortk::put_pair<T>(&out[(size_t)i * 8], (T)v[i].first, v[i].second);
        memcpy(dst.ptr_, out.data(), out.size());
    }
    restore_norm();
    adv::trace_step(api, "Sort32", dtype_name<T>(), n, 8, loc);
    if (isFullSort && rep > 1) adv::trace_step(api, "MrgSort", dtype_name<T>(), n, 8, loc);
}

// ---- Sort with SortConfig (Sort.md, Ascend 950): a stable sort of calCount values, ascending or descending
// (config.isDescend), with their indices (srcIndexTensor's, or 0, 1, ... when none is given). RADIX_SORT takes the
// integer and float types and orders floats by their bits' total order (-NaN < -inf < ... < -0 < +0 < ... < +inf <
// +NaN), as a radix sort over the sign-flipped bit patterns does; MERGE_SORT takes half / float, compares them as
// numbers (-0 == +0) with NaN as the largest (an assumption: the doc does not say), needs calCount % 32 == 0 and a
// dstTensor of 8 bytes per element. sharedTmpBuffer is checked, not used (the emulator sorts in host memory).
// SortType / SortConfig / DEFAULT_SORT_CONFIG: adv_shared.h (the host query GetSortMaxMinTmpSize takes them too).
}  // namespace AscendC

namespace ascendc_emu {
namespace adv {
namespace sortc {
template <class T> constexpr bool radix_type() {
    return std::is_same<T, uint8_t>::value || std::is_same<T, int8_t>::value || std::is_same<T, uint16_t>::value ||
           std::is_same<T, int16_t>::value || std::is_same<T, uint32_t>::value || std::is_same<T, int32_t>::value ||
           std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value || std::is_same<T, float>::value ||
           std::is_same<T, uint64_t>::value || std::is_same<T, int64_t>::value;
}
// an unsigned key whose order is the radix order of the value
template <class T> inline uint64_t radix_key(T v) {
    uint64_t bits = 0;
    memcpy(&bits, &v, sizeof(T));
    const uint64_t top = 1ull << (sizeof(T) * 8 - 1);
    const uint64_t all = sizeof(T) == 8 ? ~0ull : (1ull << (sizeof(T) * 8)) - 1;
    if (std::is_floating_point<T>::value || std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value)
        return (bits & top) ? (~bits & all) : (bits | top);
    if (std::is_signed<T>::value) return bits ^ top;
    return bits;
}
template <class T, class U>
inline void run(const char* api, const AscendC::SortConfig& cfg, const AscendC::LocalTensor<T>& dst,
                const AscendC::LocalTensor<U>* dstIndex, const AscendC::LocalTensor<T>& src,
                const AscendC::LocalTensor<U>* srcIndex, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t n,
                const Loc& loc) {
    using AscendC::SortType;
    static_assert(radix_type<T>(), "Sort (SortConfig): the value type must be an integer type, half, bfloat16_t or float");
    begin_epoch(P_V);
    const bool merge = cfg.type == SortType::MERGE_SORT;
    if (merge && !(std::is_same<T, half>::value || std::is_same<T, float>::value)) {
        report_error("sort-config", "api-dtype-unsupported", P_V, api, loc,
                     "Sort with MERGE_SORT takes half or float values; the tensor holds %s (RADIX_SORT takes it)",
                     dtype_name<T>());
        return;
    }
    if (merge && n % 32) {
        report_error("sort-config", "vector-param-invalid", P_V, api, loc,
                     "Sort with MERGE_SORT needs calCount to be a multiple of 32 (pad the data); calCount is %u", n);
        return;
    }
    bool ok = src.emu_check(0, n, false, P_V, api, loc);
    ok = dst.emu_check_bytes(0, (uint64_t)n * (merge ? 8 : sizeof(T)), true, P_V, api, loc) && ok;
    if (srcIndex) ok = srcIndex->emu_check(0, n, false, P_V, api, loc) && ok;
    if (dstIndex) ok = dstIndex->emu_check(0, n, true, P_V, api, loc) && ok;
    if (tmp) ok = tmp->emu_check(0, 1, false, P_V, api, loc) && ok;
    if (ok && n) {
        std::vector<uint32_t> order(n);
        for (uint32_t i = 0; i < n; i++) order[i] = i;
        std::vector<T> v(n);
        memcpy(v.data(), src.ptr_, (size_t)n * sizeof(T));
        const bool desc = cfg.isDescend;
        if (merge) {
            std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
                const float x = (float)v[a], y = (float)v[b];
                const bool nx = std::isnan(x), ny = std::isnan(y);
                if (nx || ny) return desc ? (nx && !ny) : (!nx && ny);
                return desc ? x > y : x < y;
            });
        } else {
            std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
                const uint64_t x = radix_key(v[a]), y = radix_key(v[b]);
                return desc ? x > y : x < y;
            });
        }
        std::vector<U> idx(n);
        if (srcIndex) memcpy(idx.data(), srcIndex->ptr_, (size_t)n * sizeof(U));
        else for (uint32_t i = 0; i < n; i++) idx[i] = (U)i;
        for (uint32_t i = 0; i < n; i++) memcpy(dst.ptr_ + (size_t)i * sizeof(T), &v[order[i]], sizeof(T));
        if (dstIndex)
            for (uint32_t i = 0; i < n; i++) memcpy(dstIndex->ptr_ + (size_t)i * sizeof(U), &idx[order[i]], sizeof(U));
    }
    trace_step(api, merge ? "MrgSort" : "RadixSort", dtype_name<T>(), n, sizeof(T), loc);
}
}  // namespace sortc
}  // namespace adv
}  // namespace ascendc_emu

namespace AscendC {
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount, EMU_LOC) {
    ascendc_emu::adv::sortc::run<T, uint32_t>("Sort", config, dstTensor, nullptr, srcTensor, nullptr, nullptr,
                                              calCount, loc);
}
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, LocalTensor<uint32_t>& dstIndexTensor, const LocalTensor<T>& srcTensor,
                 const uint32_t calCount, EMU_LOC) {
    ascendc_emu::adv::sortc::run<T, uint32_t>("Sort", config, dstTensor, &dstIndexTensor, srcTensor, nullptr,
                                              nullptr, calCount, loc);
}
template <typename T, typename U, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(const LocalTensor<T>& dstTensor, const LocalTensor<U>& dstIndexTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<U>& srcIndexTensor, const uint32_t calCount, EMU_LOC) {
    ascendc_emu::adv::sortc::run<T, U>("Sort", config, dstTensor, &dstIndexTensor, srcTensor, &srcIndexTensor, nullptr,
                                       calCount, loc);
}
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                 const uint32_t calCount, EMU_LOC) {
    ascendc_emu::adv::sortc::run<T, uint32_t>("Sort", config, dstTensor, nullptr, srcTensor, nullptr, &sharedTmpBuffer,
                                              calCount, loc);
}
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, LocalTensor<uint32_t>& dstIndexTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, EMU_LOC) {
    ascendc_emu::adv::sortc::run<T, uint32_t>("Sort", config, dstTensor, &dstIndexTensor, srcTensor, nullptr,
                                              &sharedTmpBuffer, calCount, loc);
}
template <typename T, typename U, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
inline void Sort(LocalTensor<T>& dstTensor, LocalTensor<U>& dstIndexTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<U>& srcIndexTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                 const uint32_t calCount, EMU_LOC) {
    ascendc_emu::adv::sortc::run<T, U>("Sort", config, dstTensor, &dstIndexTensor, srcTensor, &srcIndexTensor,
                                       &sharedTmpBuffer, calCount, loc);
}

// ---- MrgSort, the high-level form (高阶API/排序操作/MrgSort-93.md): the basic MrgSort (8-byte (score, index)
// records, descending) with its parameters spelled out; sortedNum receives the records taken from each list.
template <typename T, bool isExhaustedSuspension = false>
inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList, const uint16_t elementCountList[4],
                    uint32_t sortedNum[4], uint16_t validBit, const int32_t repeatTime, EMU_LOC) {
    static_assert(ascendc_emu::adv::is_f16_or_f32<T>::value, "MrgSort: half or float");
    MrgSort4Info info(elementCountList, isExhaustedSuspension, validBit, (uint16_t)repeatTime);
    MrgSort(dst, sortList, info, loc);
    const ascendc_emu::VecRegs& r = ascendc_emu::vregs();
    for (int i = 0; i < 4; i++) sortedNum[i] = r.mrg_counts[i];
}

// ---- Extract (Extract.md): (score, index) pairs back to values and uint32 indices; a repeat is 64 float or 128
// half elements.
template <typename T>
inline void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex, const LocalTensor<T>& sorted,
                    const int32_t repeatTime, EMU_LOC) {
    using namespace ascendc_emu;
    static_assert(adv::is_f16_or_f32<T>::value, "Extract: half or float");
    begin_epoch(P_V);
    const int rep = check_repeat(repeatTime, "Extract", loc);
    const uint64_t elems = sizeof(T) == 4 ? (uint64_t)rep * 64 : (uint64_t)rep * 128;
    bool ok = sorted.emu_check_bytes(0, elems * 8, false, P_V, "Extract", loc);
    ok = dstValue.emu_check(0, elems, true, P_V, "Extract", loc) && ok;
    ok = dstIndex.emu_check(0, elems, true, P_V, "Extract", loc) && ok;
    if (ok) {
        std::vector<uint8_t> in(sorted.ptr_, sorted.ptr_ + elems * 8);
        for (uint64_t i = 0; i < elems; i++) {
            memcpy(dstValue.ptr_ + i * sizeof(T), &in[i * 8], sizeof(T));
            uint32_t ix = adv::sortk::pair_index(&in[i * 8]);
            memcpy(dstIndex.ptr_ + i * 4, &ix, 4);
        }
    }
    restore_norm();
    adv::trace_steps("Extract", {"GatherMask", "GatherMask"}, dtype_name<T>(), elems, sizeof(T), loc);
}

// ---- TopK (TopK.md): per row the k largest (isLargest) or smallest of the n valid values and their indices.
// Normal mode: value rows padded to 32 B (k_pad), index rows to 8 (kpad_index); Small mode: inner is 32 and the
// rows are packed at k. finishLocal (isHasfinish) marks rows whose k indices become n.
namespace detail_topk {
template <class T, bool isInitIndex, bool isHasfinish, TopKMode mode>
inline void run(const LocalTensor<T>& dstValue, const LocalTensor<int32_t>& dstIndex, const LocalTensor<T>& src,
                const LocalTensor<int32_t>& srcIndex, const LocalTensor<bool>& finish,
                const LocalTensor<uint8_t>* tmp, int32_t k, const TopkTiling& tiling, const TopKInfo& info,
                bool isLargest, const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    static_assert(adv::is_f16_or_f32<T>::value, "TopK: half or float");
    const char* api = "TopK";
    const bool small = mode == TopKMode::TOPK_NSMALL;
    begin_epoch(P_V);
    const int32_t rows = info.outter, inner = info.inner, n = info.n;
    bool ok = true;
    if (rows <= 0 || inner <= 0 || inner % 32 || n < 1 || n > inner || k < 1 || k > n || (small && inner != 32) ||
        (!small && inner > 4096)) {
        report_error("adv-shape", "vector-param-invalid", P_V, api, loc,
                     "TopK info outter=%d inner=%d n=%d, k=%d: inner a multiple of 32 (%s), 1 <= n <= inner, "
                     "1 <= k <= n", rows, inner, n, k, small ? "exactly 32 in Small mode" : "at most 4096");
        ok = false;
    }
    const uint32_t vpad = small ? (uint32_t)k : (uint32_t)((k * sizeof(T) + 31) / 32 * 32 / sizeof(T));
    const uint32_t ipad = small ? (uint32_t)k : (uint32_t)((k + 7) / 8 * 8);
    ok = ok && src.emu_check(0, (uint64_t)rows * inner, false, P_V, api, loc);
    if (ok && isInitIndex) ok = srcIndex.emu_check(0, small ? (uint64_t)rows * inner : (uint64_t)inner, false, P_V, api, loc);
    if (ok && isHasfinish) ok = finish.emu_check(0, rows, false, P_V, api, loc, 1);
    ok = ok && dstValue.emu_check(0, (uint64_t)(rows - 1) * vpad + k, true, P_V, api, loc);
    ok = ok && dstIndex.emu_check(0, (uint64_t)(rows - 1) * ipad + k, true, P_V, api, loc);
    if (ok && tmp && tmp->ptr_ && tmp->pos_ != TPosition::VECCALC)
        report_warning("tmp-position", "api-signature", P_V, api, loc,
                       "TopK tmpLocal is in %s; the API documents VECCALC as the only position for it",
                       pos_name(tmp->pos_));
    const uint64_t need = ascendc_emu_adv::topk_tmp_bytes((uint32_t)inner, (uint32_t)rows, small);
    if (ok && tmp && tmp->ptr_ && tiling.tmpLocalSize > 0 && (uint64_t)tiling.tmpLocalSize > tmp->size_) {
        report_error("tmp-buffer-size", "ub-out-of-bounds", P_V, api, loc,
                     "TopK: the TopkTiling was computed for %s B of temporary space (tmpLocalSize), but tmpLocal holds "
                     "%s B", EMU_N(tiling.tmpLocalSize), EMU_N(tmp->size_));
        ok = false;
    }
    ok = ok && adv::take_tmp(api, tmp, need, need, "a sorted row", loc);
    if (ok) {
        const T* s = (const T*)src.ptr_;
        std::vector<std::pair<float, uint32_t>> v((size_t)n);
        for (int32_t r = 0; r < rows; r++) {
            for (int32_t i = 0; i < n; i++) {
                uint32_t ix = (uint32_t)i;
                if (isInitIndex) ix = (uint32_t)((const int32_t*)srcIndex.ptr_)[small ? r * inner + i : i];
                v[(size_t)i] = {(float)s[(uint64_t)r * inner + i], ix};
            }
            std::stable_sort(v.begin(), v.end(), [&](const std::pair<float, uint32_t>& a, const std::pair<float, uint32_t>& b) {
                return adv::sortk::before(a.first, b.first, isLargest);
            });
            const bool done = isHasfinish && ((const bool*)finish.ptr_)[r];
            for (int32_t j = 0; j < k; j++) {
                ((T*)dstValue.ptr_)[(uint64_t)r * vpad + j] = (T)v[(size_t)j].first;
                ((int32_t*)dstIndex.ptr_)[(uint64_t)r * ipad + j] = done ? n : (int32_t)v[(size_t)j].second;
            }
        }
    }
    restore_norm();
    adv::trace_steps(api, {"Arange", "Muls", "Sort32", "MrgSort", "GatherMask", "GatherMask"}, dtype_name<T>(),
                     (uint64_t)(rows > 0 ? rows : 0) * (inner > 0 ? inner : 0), sizeof(T), loc);
}
}  // namespace detail_topk
#define ASCENDC_EMU_TOPK_T template <typename T, bool isInitIndex = false, bool isHasfinish = false, \
    bool isReuseSrc = false, TopKMode topkMode = TopKMode::TOPK_NORMAL, const TopKConfig& config = defaultTopKConfig>
ASCENDC_EMU_TOPK_T inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
                                    const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
                                    const LocalTensor<bool>& finishLocal, const int32_t k, const TopkTiling& tilling,
                                    const TopKInfo& topKInfo, const bool isLargest = true, EMU_LOC) {
    detail_topk::run<T, isInitIndex, isHasfinish, topkMode>(dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal,
                                                            finishLocal, nullptr, k, tilling, topKInfo, isLargest, loc);
}
ASCENDC_EMU_TOPK_T inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
                                    const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
                                    const LocalTensor<bool>& finishLocal, const LocalTensor<uint8_t>& tmpLocal,
                                    const int32_t k, const TopkTiling& tilling, const TopKInfo& topKInfo,
                                    const bool isLargest = true, EMU_LOC) {
    detail_topk::run<T, isInitIndex, isHasfinish, topkMode>(dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal,
                                                            finishLocal, &tmpLocal, k, tilling, topKInfo, isLargest,
                                                            loc);
}
#undef ASCENDC_EMU_TOPK_T
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_ADV_SORT_H_

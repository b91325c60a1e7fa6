// Scalar computation APIs (docs/zh/api/SIMD-API/基础API/标量计算/), with their pre-8.5 names (附录/接口变更说明.md):
// Cast (float -> bfloat16_t, bfloat16_t -> float, float -> half/int32_t with a RoundMode) = ToBfloat16 / ToFloat /
// ScalarCast; GetBitCount = ScalarGetCountOfValue; CountLeadingZero = ScalarCountLeadingZero; GetSFFValue =
// ScalarGetSFFValue; CountBitsCntSameAsSignBit; Nop; ReadGmByPassDCache / WriteGmByPassDCache. These run on the
// scalar unit: pure functions here, except the GM accesses (checked and traced like GlobalTensor::GetValue).
#ifndef ASCENDC_EMU_ASCENDC_EMU_SCALAR_H_
#define ASCENDC_EMU_ASCENDC_EMU_SCALAR_H_
#include "vector_support.h"

namespace AscendC {
// Cast（float转bfloat16_t）.md: RINT.
inline bfloat16_t Cast(const float& fVal) { return bfloat16_t::from_bits(ascendc_emu::float_to_bf16_bits(fVal)); }
// Cast（多类型转float）.md
inline float Cast(const bfloat16_t& bVal) { return (float)bVal; }
// Cast（float转half-int32_t）.md: float -> half or int32_t with the round mode (CAST_NONE = RINT when inexact).
template <typename T, typename U, RoundMode roundMode>
inline U Cast(T valueIn) {
    static_assert(std::is_same<U, half>::value || std::is_same<U, int32_t>::value || std::is_same<U, float>::value ||
                      std::is_same<U, bfloat16_t>::value,
                  "scalar Cast converts float to half or int32_t");
    return ascendc_emu::Caster<U, T>::go(valueIn, ascendc_emu::rm_of(roundMode));
}
inline bfloat16_t ToBfloat16(const float& fVal) { return Cast(fVal); }
inline float ToFloat(const bfloat16_t& bVal) { return (float)bVal; }
template <typename T, typename U = float>
inline U ToFloat(const T& val) { return (U)(float)val; }
template <typename T, typename U, RoundMode roundMode>
inline U ScalarCast(T valueIn) { return Cast<T, U, roundMode>(valueIn); }

// GetBitCount.md: number of bits equal to countValue (0 or 1).
template <int countValue>
inline int64_t GetBitCount(uint64_t valueIn) {
    static_assert(countValue == 0 || countValue == 1, "GetBitCount counts 0 bits or 1 bits");
    int64_t ones = __builtin_popcountll(valueIn);
    return countValue ? ones : 64 - ones;
}
template <int countValue>
inline int64_t ScalarGetCountOfValue(uint64_t valueIn) { return GetBitCount<countValue>(valueIn); }
// CountLeadingZero.md
inline int64_t CountLeadingZero(uint64_t valueIn) { return valueIn ? __builtin_clzll(valueIn) : 64; }
inline int64_t ScalarCountLeadingZero(uint64_t valueIn) { return CountLeadingZero(valueIn); }
// GetSFFValue.md: position of the first bit equal to countValue from the least significant bit, -1 if none.
template <int countValue>
inline int64_t GetSFFValue(uint64_t valueIn) {
    static_assert(countValue == 0 || countValue == 1, "GetSFFValue finds a 0 bit or a 1 bit");
    uint64_t v = countValue ? valueIn : ~valueIn;
    return v ? __builtin_ctzll(v) : -1;
}
template <int countValue>
inline int64_t ScalarGetSFFValue(uint64_t valueIn) { return GetSFFValue<countValue>(valueIn); }
// CountBitsCntSameAsSignBit.md: consecutive bits after the sign bit equal to it (0x0100000000000020 -> 6).
inline int64_t CountBitsCntSameAsSignBit(int64_t valueIn) { return __builtin_clrsbll(valueIn); }
// Nop.md: count empty scalar instructions.
template <int count = 1>
inline void Nop() {}

// ReadGmByPassDCache / WriteGmByPassDCache (ISASI): a scalar GM access that does not go through the DCache.
template <typename T>
inline T ReadGmByPassDCache(T* addr, EMU_LOC) {
    using namespace ascendc_emu;
    begin_epoch(P_S);
    uint64_t lo, hi;
    T v{};
    if (gm_check(addr, sizeof(T), false, P_S, "ReadGmByPassDCache", loc, &lo, &hi) && lo == 0 && hi == sizeof(T)) {
        gm_shadow_access(addr, sizeof(T), false, P_S, intern_site(loc.file, loc.line, "ReadGmByPassDCache"),
                         "ReadGmByPassDCache", loc);
        memcpy(&v, addr, sizeof(T));
    }
    trace_scalar("ReadGmByPassDCache", SP_GM, loc, true);
    return v;
}
template <typename T>
inline void WriteGmByPassDCache(T* addr, T value, EMU_LOC) {
    using namespace ascendc_emu;
    begin_epoch(P_S);
    uint64_t lo, hi;
    if (gm_check(addr, sizeof(T), true, P_S, "WriteGmByPassDCache", loc, &lo, &hi) && lo == 0 && hi == sizeof(T)) {
        gm_shadow_access(addr, sizeof(T), true, P_S, intern_site(loc.file, loc.line, "WriteGmByPassDCache"),
                         "WriteGmByPassDCache", loc);
        memcpy(addr, &value, sizeof(T));
    }
    trace_scalar("WriteGmByPassDCache", SP_GM, loc, true);
}
// DataSyncBarrier (同步控制/核内同步/DataSyncBarrier(ISASI).md): blocks later instructions until the earlier memory
// accesses of the chosen location have finished (ALL: GM and UB, not L1/L0C; DDR: GM; UB; SEQ). The emulator
// completes every scalar GM / UB access before the next statement runs, so the barrier has nothing left to wait
// for: it is accepted and orders nothing further.
enum class MemDsbT { ALL, DDR, UB, SEQ };
template <MemDsbT arg0>
inline void DataSyncBarrier() {}
// DataCacheCleanAndInvalid on a LocalTensor (缓存控制/DataCacheCleanAndInvalid.md): the UB side has no data
// cache in the emulator; the call is traced on the scalar pipe like the GlobalTensor form (data_copy.h).
template <typename T, CacheLine entireType = CacheLine::SINGLE_CACHE_LINE, DcciDst dcciDst = DcciDst::CACHELINE_OUT>
inline void DataCacheCleanAndInvalid(const LocalTensor<T>&, EMU_LOC) {
    using namespace ascendc_emu;
    Ev ev;
    trace_begin(ev, P_S, "DataCacheCleanAndInvalid", loc);
    trace_end(ev);
}
// Scalar GM atomics (原子操作/AtomicAdd.md, AtomicCas.md, AtomicExch.md, AtomicMax.md, AtomicMin.md): one
// read-modify-write of a GM scalar that bypasses the DCache and returns the old value. The emulator's blocks are
// fibres switching only at synchronisation points, so the read-modify-write is indivisible across cores as on the NPU.
namespace detail_atomic {
template <typename T, typename F>
inline T rmw(T* address, const char* api, const ascendc_emu::Loc& loc, F update) {
    using namespace ascendc_emu;
    begin_epoch(P_S);
    uint64_t lo, hi;
    T old{};
    if (gm_check(address, sizeof(T), true, P_S, api, loc, &lo, &hi) && lo == 0 && hi == sizeof(T)) {
        gm_shadow_access(address, sizeof(T), true, P_S, intern_site(loc.file, loc.line, api), api, loc);
        memcpy(&old, address, sizeof(T));
        T nv = update(old);
        memcpy(address, &nv, sizeof(T));
    }
    trace_scalar(api, SP_GM, loc, true);
    return old;
}
template <typename T> constexpr bool arith_ok() {
    return std::is_same<T, int32_t>::value || std::is_same<T, uint32_t>::value || std::is_same<T, float>::value ||
           std::is_same<T, int64_t>::value || std::is_same<T, uint64_t>::value;
}
template <typename T> constexpr bool swap_ok() {
    return std::is_same<T, uint32_t>::value || std::is_same<T, uint64_t>::value;
}
}  // namespace detail_atomic
template <typename T>
inline T AtomicAdd(T* address, T value, EMU_LOC) {
    static_assert(detail_atomic::arith_ok<T>(), "AtomicAdd supports int32_t, uint32_t, float, int64_t, uint64_t");
    return detail_atomic::rmw(address, "AtomicAdd", loc, [&](T old) { return (T)(old + value); });
}
template <typename T>
inline T AtomicMax(T* address, T value, EMU_LOC) {
    static_assert(detail_atomic::arith_ok<T>(), "AtomicMax supports int32_t, uint32_t, float, int64_t, uint64_t");
    return detail_atomic::rmw(address, "AtomicMax", loc, [&](T old) { return old < value ? value : old; });
}
template <typename T>
inline T AtomicMin(T* address, T value, EMU_LOC) {
    static_assert(detail_atomic::arith_ok<T>(), "AtomicMin supports int32_t, uint32_t, float, int64_t, uint64_t");
    return detail_atomic::rmw(address, "AtomicMin", loc, [&](T old) { return value < old ? value : old; });
}
template <typename T>
inline T AtomicCas(T* address, T value1, T value2, EMU_LOC) {
    static_assert(detail_atomic::swap_ok<T>(), "AtomicCas supports uint32_t and uint64_t");
    return detail_atomic::rmw(address, "AtomicCas", loc, [&](T old) { return old == value1 ? value2 : old; });
}
template <typename T>
inline T AtomicExch(T* address, T value, EMU_LOC) {
    static_assert(detail_atomic::swap_ok<T>(), "AtomicExch supports uint32_t and uint64_t");
    return detail_atomic::rmw(address, "AtomicExch", loc, [&](T) { return value; });
}
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_SCALAR_H_

// Cube path for NPU arch 2201 (clean-room, from the documented behaviour only):
//   GM --DataCopy(Nd2NzParams)--> A1/B1 (L1, NZ) --LoadData(LoadData2DParams)--> A2 (L0A, ZZ) / B2 (L0B, ZN)
//   --Mmad(MmadParams)--> CO1 (L0C, NZ, fp32/int32) --Fixpipe(FixpipeParamsV220)--> GM (ND or NZ) / L1.
// Layouts, byte-exact because basic-API kernels index them directly. C0 = 32 B / sizeof(T) elements
// (16 for half/bf16, 32 for int8, 8 for float); a fractal is 512 B on L1/L0A/L0B, 16 x 16 x 4 B on L0C.
//   L1 NZ   : element (r, c) of an ND matrix sits at (c / C0) * dstNzC0Stride * C0 + r * dstNzNStride * C0 + c % C0.
//   L0A ZZ  : fractals of 16 rows x C0 columns, row-major between fractals and inside each fractal:
//             (r, k) -> ((r / 16) * ceil(k_total / C0) + k / C0) * 16 * C0 + (r % 16) * C0 + k % C0.
//   L0B ZN  : fractals of C0 (k) x 16 (n), row-major between fractals, column-major inside (each of the 16 n-columns
//             holds C0 consecutive k values): (k, n) -> ((k / C0) * ceil(n_total / 16) + n / 16) * 16 * C0 + (n % 16) * C0
//             + k % C0.
//   L0C NZ  : 16 x 16 fractals, column-major between fractals, row-major inside:
//             (r, c) -> ((c / 16) * ceil(m / 16) + r / 16) * 256 + (r % 16) * 16 + c % 16.
// LoadData2D moves repeatTimes fractals of 512 B: source fractal startIndex + i * srcStride (start-to-start, in
// fractals, from the source tensor's address), destination fractal i * (1 + dstGap); ifTranspose transposes every
// 16 x 16 fractal (16-bit types only).
#ifndef ASCENDC_EMU_ASCENDC_EMU_CUBE_H_
#define ASCENDC_EMU_ASCENDC_EMU_CUBE_H_
#include <algorithm>
#include <initializer_list>
#include <limits>
#include <type_traits>
#include "vector.h"

namespace AscendC {
constexpr uint32_t DEFAULT_C0_SIZE = 32;
constexpr uint32_t BLOCK_CUBE = 16;
constexpr uint32_t CUBE_MAX_SIZE = 256;

struct Nd2NzParams {
    uint16_t ndNum = 1;
    uint16_t nValue = 0;
    uint16_t dValue = 0;
    uint16_t srcNdMatrixStride = 0;
    uint16_t srcDValue = 0;
    uint16_t dstNzC0Stride = 0;
    uint16_t dstNzNStride = 0;
    uint16_t dstNzMatrixStride = 0;
    Nd2NzParams() {}
    Nd2NzParams(uint16_t ndNumIn, uint16_t nValueIn, uint16_t dValueIn, uint16_t srcNdMatrixStrideIn,
                uint16_t srcDValueIn, uint16_t dstNzC0StrideIn, uint16_t dstNzNStrideIn, uint16_t dstNzMatrixStrideIn)
        : ndNum(ndNumIn), nValue(nValueIn), dValue(dValueIn), srcNdMatrixStride(srcNdMatrixStrideIn),
          srcDValue(srcDValueIn), dstNzC0Stride(dstNzC0StrideIn), dstNzNStride(dstNzNStrideIn),
          dstNzMatrixStride(dstNzMatrixStrideIn) {}
};

struct LoadData2DParams {
    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint8_t sid = 0;
    uint16_t dstGap = 0;
    bool ifTranspose = false;
    uint8_t addrMode = 0;
    LoadData2DParams() {}
    LoadData2DParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn, uint8_t sidIn,
                     uint16_t dstGapIn, bool ifTransposeIn, uint8_t addrModeIn)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), sid(sidIn),
          dstGap(dstGapIn), ifTranspose(ifTransposeIn), addrMode(addrModeIn) {}
};
using LoadData2dParams = LoadData2DParams;
// LoadData_2D_V2.md 表3 (Ascend 950): an [M, K] window of 512-byte fractals, in units of 16 rows (m) and 32 bytes
// (k); the field order is the one public kernels brace-initialise.
struct LoadData2DParamsV2 {
    uint32_t mStartPosition = 0;
    uint32_t kStartPosition = 0;
    uint16_t mStep = 0;
    uint16_t kStep = 0;
    int32_t srcStride = 0;
    uint16_t dstStride = 0;
    bool ifTranspose = false;
    uint8_t sid = 0;
    LoadData2DParamsV2() {}
    LoadData2DParamsV2(uint32_t mStartPositionIn, uint32_t kStartPositionIn, uint16_t mStepIn, uint16_t kStepIn,
                       int32_t srcStrideIn, uint16_t dstStrideIn, bool ifTransposeIn, uint8_t sidIn)
        : mStartPosition(mStartPositionIn), kStartPosition(kStartPositionIn), mStep(mStepIn), kStep(kStepIn),
          srcStride(srcStrideIn), dstStride(dstStrideIn), ifTranspose(ifTransposeIn), sid(sidIn) {}
};

struct MmadParams {
    uint16_t m = 0;
    uint16_t n = 0;
    uint16_t k = 0;
    bool isBias = false;
    int32_t fmOffset = 0;
    bool enSsparse = false;
    bool enWinogradA = false;
    bool enWinogradB = false;
    uint8_t unitFlag = 0;
    bool kDirectionAlign = false;
    bool cmatrixSource = false;   // true: the initial C comes from the bias table (C2)
    bool cmatrixInitVal = true;   // true: C = A x B; false: C += A x B
    MmadParams() {}
    MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, bool isBiasIn, int32_t fmOffsetIn, bool enSsparseIn,
               bool enWinogradAIn, bool enWinogradBIn)
        : m(mIn), n(nIn), k(kIn), isBias(isBiasIn), fmOffset(fmOffsetIn), enSsparse(enSsparseIn),
          enWinogradA(enWinogradAIn), enWinogradB(enWinogradBIn) {}
    MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, uint8_t unitFlagIn, bool cmatrixSourceIn,
               bool cmatrixInitValIn)
        : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixSource(cmatrixSourceIn),
          cmatrixInitVal(cmatrixInitValIn) {}
};

enum QuantMode_t : uint8_t {
    NoQuant = 0, F322F16, F322BF16, DEQF16, VDEQF16, QF322B8_PRE, VQF322B8_PRE, REQ8, VREQ8, DEQS322S16, VDEQS322S16
};
enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
    CO2Layout format;
    bool isToUB;
};
constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ, false};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR, false};
constexpr FixpipeConfig CFG_COLUMN_MAJOR = {CO2Layout::COLUMN_MAJOR, false};

struct FixpipeParamsV220 {
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint32_t srcStride = 0;  // distance between the 16-column groups of the NZ source, in 16-element rows
    uint32_t dstStride = 0;  // ND: elements per destination row; NZ: 32-byte units between column groups
    QuantMode_t quantPre = NoQuant;
    uint64_t deqScalar = 0;  // scalar scale for DEQF16 / QF322B8_PRE / REQ8: the fp32 bits in the low word
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;  // assumption: in 1 KB (one fp32 16 x 16 fractal) units
    uint16_t dstNdStride = 0;  // assumption: in elements
    bool reluEn = false;
    uint8_t unitFlag = 0;
    bool isChannelSplit = false;
    FixpipeParamsV220() {}
    FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint32_t srcStrideIn, uint32_t dstStrideIn, bool reluEnIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn) {}
    FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint32_t srcStrideIn, uint32_t dstStrideIn, bool reluEnIn,
                      uint16_t ndNumIn, uint16_t srcNdStrideIn, uint16_t dstNdStrideIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), ndNum(ndNumIn),
          srcNdStride(srcNdStrideIn), dstNdStride(dstNdStrideIn), reluEn(reluEnIn) {}
    // the full form the devkit samples brace-initialise (matmul_basic_api.asc: {nSize, mSize, srcStride, dstStride,
    // reluEn, quantPre, deqScalar, ndNum, srcNdStride, dstNdStride, unitFlag})
    FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint32_t srcStrideIn, uint32_t dstStrideIn, bool reluEnIn,
                      QuantMode_t quantPreIn, uint64_t deqScalarIn, uint16_t ndNumIn, uint16_t srcNdStrideIn,
                      uint16_t dstNdStrideIn, uint8_t unitFlagIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), quantPre(quantPreIn),
          deqScalar(deqScalarIn), ndNum(ndNumIn), srcNdStride(srcNdStrideIn), dstNdStride(dstNdStrideIn),
          reluEn(reluEnIn), unitFlag(unitFlagIn) {}
};
using FixpipeParams220 = FixpipeParamsV220;

template <typename T>
struct InitConstValueParams {
    uint16_t repeatTimes = 0;
    uint16_t blockNum = 0;
    uint16_t dstGap = 0;
    T initValue = T(0);
    InitConstValueParams() {}
    InitConstValueParams(uint16_t repeatTimesIn, uint16_t blockNumIn, uint16_t dstGapIn, T initValueIn)
        : repeatTimes(repeatTimesIn), blockNum(blockNumIn), dstGap(dstGapIn), initValue(initValueIn) {}
};
}  // namespace AscendC
// QuantMode_t is named unqualified by kernels (docs/zh/api/SIMD-API/基础API/矩阵计算（ISASI）/矩阵计算的搬出/
// L0C到GM数据搬运（DataCopy）.md: `intriParams.quantPre = QuantMode_t::DEQF16;`): the SDK declares it at global scope.
using AscendC::QuantMode_t;

namespace ascendc_emu {
template <class T> constexpr uint32_t c0_of() { return 32u / (uint32_t)sizeof(T); }
inline uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
template <class T> constexpr const char* cube_dtype() {
    return std::is_same<T, half>::value ? "half" : std::is_same<T, bfloat16_t>::value ? "bfloat16_t"
         : std::is_same<T, float>::value ? "float" : std::is_same<T, int8_t>::value ? "int8_t"
         : std::is_same<T, uint8_t>::value ? "int8_t" : dtype_name<T>();
}
template <class T> inline double ldd(const uint8_t* p) { T v; memcpy(&v, p, sizeof(T)); return (double)(calc_t<T>)v; }
template <class T> inline void std_(uint8_t* p, double v) {
    T t;
    if (std::is_integral<T>::value) {
        double lo = (double)std::numeric_limits<T>::min(), hi = (double)std::numeric_limits<T>::max();
        double r = v != v ? 0 : v < lo ? lo : v > hi ? hi : __builtin_nearbyint(v);
        t = (T)(int64_t)r;
    } else {
        t = (T)(float)v;
    }
    memcpy(p, &t, sizeof(T));
}

EMU_RT_FN bool want_pos(TPosition have, std::initializer_list<TPosition> ok, const char* what, const char* api,
                     int pipe, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    for (TPosition p : ok) if (p == have) return true;
    Space hs = pos_space(have);
    for (TPosition p : ok) if (pos_space(p) == hs) return true;  // same physical buffer: accept
    char list[128] = "";
    for (TPosition p : ok) snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? "/" : "", pos_name(p));
    report_error("tensor-position", "api-signature", pipe, api, loc,
                 "Failed to check %s tensor position in %s, supported positions are %s, current position is %s.",
                 what, api, list, pos_name(have));
    return false;
}
#else
;
#endif
EMU_RT_FN void cube_range(const char* field, long long v, long long hi, const char* api, int pipe, const Loc& loc)
#if ASCENDC_EMU_RT_BODIES
{
    if (v < 0 || v > hi)
        report_error("cube-params", "vector-param-invalid", pipe, api, loc,
                     "Failed to check %s value in %s, its valid range is 0 ~ %lld, current value is %lld.", field, api,
                     hi, v);
}
#else
;
#endif
}  // namespace ascendc_emu

namespace AscendC {
// ---- GM (ND) -> L1 (NZ)
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p, EMU_LOC) {
    using namespace ascendc_emu;
    const char* api = "DataCopy";
    begin_epoch(P_MTE2);
    want_pos(dst.pos_, {TPosition::A1, TPosition::B1, TPosition::C1, TPosition::TSCM}, "dst", "DataCopy(Nd2Nz)",
             P_MTE2, loc);
    cube_range("ndNum", p.ndNum, 4095, "DataCopy(Nd2Nz)", P_MTE2, loc);
    cube_range("nValue", p.nValue, 16384, "DataCopy(Nd2Nz)", P_MTE2, loc);
    cube_range("dValue", p.dValue, 65535, "DataCopy(Nd2Nz)", P_MTE2, loc);
    if (p.ndNum > 1 && p.srcNdMatrixStride == 0)
        report_warning("cube-params", "vector-param-invalid", P_MTE2, "DataCopy(Nd2Nz)", loc,
                       "DataCopy(Nd2Nz) copies %u matrices with srcNdMatrixStride 0: all of them read the same rows",
                       p.ndNum);
    const uint32_t c0 = c0_of<T>(), es = (uint32_t)sizeof(T);
    uint32_t groups = ceil_div(p.dValue, c0);
    uint64_t bytes = (uint64_t)p.ndNum * p.nValue * groups * 32u;
    Ev ev;
    trace_begin(ev, P_MTE2, api, loc);
    if (ev.on) {
        ev.j.i("bytes", (long long)bytes).s("src", "gm").s("dst", space_lc(pos_space(dst.pos_)));
        ev.j.b("gm_aligned512", ((uintptr_t)src.ptr_ & 511u) == 0).i("blocks", (long long)p.ndNum * p.nValue * groups);
        ev.j.i("block_bytes", 32);
    }
    trace_end(ev);
    if (!p.ndNum || !p.nValue || !p.dValue) return;
    if (p.srcDValue < p.dValue && p.nValue > 1)
        report_warning("cube-params", "vector-param-invalid", P_MTE2, "DataCopy(Nd2Nz)", loc,
                       "DataCopy(Nd2Nz) srcDValue %u is smaller than dValue %u: source rows overlap", p.srcDValue,
                       p.dValue);
    uint64_t src_ext = ((uint64_t)(p.ndNum - 1) * p.srcNdMatrixStride + (uint64_t)(p.nValue - 1) * p.srcDValue +
                        p.dValue) * es;
    uint64_t dst_ext = ((uint64_t)(p.ndNum - 1) * p.dstNzMatrixStride +
                        (uint64_t)(groups - 1) * p.dstNzC0Stride * c0 + (uint64_t)(p.nValue - 1) * p.dstNzNStride * c0 +
                        c0) * es;
    uint64_t lo, hi;
    uint32_t site = intern_site(loc.file, loc.line, api);
    bool gm_ok = gm_check(src.ptr_, src_ext, false, P_MTE2, api, loc, &lo, &hi);
    if (gm_ok) gm_shadow_access((const uint8_t*)src.ptr_ + lo, hi - lo, false, P_MTE2, site, api, loc);
    if (!dst.emu_check_bytes(0, dst_ext, true, P_MTE2, api, loc, space_align(pos_space(dst.pos_)))) return;
    const uint8_t* s = (const uint8_t*)src.ptr_;
    for (uint32_t m = 0; m < p.ndNum; m++)
        for (uint32_t r = 0; r < p.nValue; r++)
            for (uint32_t g = 0; g < groups; g++) {
                uint64_t so = ((uint64_t)m * p.srcNdMatrixStride + (uint64_t)r * p.srcDValue + (uint64_t)g * c0) * es;
                uint64_t dof = ((uint64_t)m * p.dstNzMatrixStride + (uint64_t)g * p.dstNzC0Stride * c0 +
                                (uint64_t)r * p.dstNzNStride * c0) * es;
                uint8_t* d = dst.ptr_ + dof;
                uint32_t cols = p.dValue - g * c0 < c0 ? p.dValue - g * c0 : c0;
                for (uint32_t cb = 0; cb < c0 * es; cb++) {
                    uint64_t o = so + cb;
                    // columns past dValue in the last C0 group are filled with zeros
                    d[cb] = cb >= cols * es ? 0 : (gm_ok && o >= lo && o < hi) ? s[o] : 0xFF;
                }
            }
}

// ---- L1 -> L0A / L0B, and GM -> L0A / L0B (LoadData_2D.md: "支持GM->L0A Buffer、GM->L0B Buffer、L1 Buffer->L0A
// Buffer、L1 Buffer->L0B Buffer"; from GM on PIPE_MTE2, from L1 on PIPE_MTE1; Ascend 950 loads from L1 only).
namespace detail_cube {
// The fractal moves of both sources: `src` is the source tensor's first byte, already range-checked by the caller.
template <typename T>
inline void load2d_fractals(const LocalTensor<T>& dst, const uint8_t* src, const LoadData2DParams& p) {
    uint8_t tmp[512];
    for (uint32_t i = 0; i < p.repeatTimes; i++) {
        const uint8_t* sp = src + (uint64_t)p.startIndex * 512u + (uint64_t)i * p.srcStride * 512u;
        uint8_t* dp = dst.ptr_ + (uint64_t)i * (1u + p.dstGap) * 512u;
        if (p.ifTranspose && sizeof(T) == 2) {
            for (int r = 0; r < 16; r++)
                for (int c = 0; c < 16; c++) memcpy(tmp + (c * 16 + r) * 2, sp + (r * 16 + c) * 2, 2);
            memcpy(dp, tmp, 512);
        } else {
            memmove(dp, sp, 512);
        }
    }
}
// Checks and the trace event common to both sources; false when nothing is to be moved.
template <typename T>
inline bool load2d_begin(const LocalTensor<T>& dst, const LoadData2DParams& p, int pipe, const char* src_space,
                         const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    const char* api = "LoadData";
    want_pos(dst.pos_, {TPosition::A2, TPosition::B2}, "dst", api, pipe, loc);
    if (p.ifTranspose && sizeof(T) != 2)
        report_error("cube-dtype", "api-dtype-unsupported", pipe, api, loc,
                     "LoadData with ifTranspose supports only 16-bit types (half, bfloat16_t, int16_t, uint16_t); "
                     "the tensor holds %s", dtype_name<T>());
    if (p.addrMode)
        report_warning("cube-params", "vector-param-invalid", pipe, api, loc,
                       "LoadData addrMode %u (decrementing addresses) is not emulated; addresses increment", p.addrMode);
    uint64_t bytes = (uint64_t)p.repeatTimes * 512u;
    Ev ev;
    trace_begin(ev, pipe, api, loc);
    if (ev.on) ev.j.i("bytes", (long long)bytes).s("src", src_space).s("dst", space_lc(pos_space(dst.pos_)));
    trace_end(ev);
    return p.repeatTimes != 0;
}
}  // namespace detail_cube

template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p, EMU_LOC) {
    using namespace ascendc_emu;
    const char* api = "LoadData";
    begin_epoch(P_MTE1);
    Space ds = pos_space(dst.pos_), ss = pos_space(src.pos_);
    want_pos(src.pos_, {TPosition::A1, TPosition::B1, TPosition::C1, TPosition::TSCM}, "src", api, P_MTE1, loc);
    if (!detail_cube::load2d_begin(dst, p, P_MTE1, space_lc(ss), loc)) return;
    uint64_t s_first = (uint64_t)p.startIndex * 512u;
    uint64_t s_last = s_first + (uint64_t)(p.repeatTimes - 1) * p.srcStride * 512u;
    uint64_t d_ext = (uint64_t)(p.repeatTimes - 1) * (1u + p.dstGap) * 512u + 512u;
    // check both ends: with srcStride 0 every fractal is the same one
    if (!src.emu_check_bytes(s_first, 512, false, P_MTE1, api, loc, 32)) return;
    if (s_last != s_first && !src.emu_check_bytes(s_first, s_last + 512 - s_first, false, P_MTE1, api, loc, 32)) return;
    if (!dst.emu_check_bytes(0, d_ext, true, P_MTE1, api, loc, space_align(ds))) return;
    detail_cube::load2d_fractals(dst, src.ptr_, p);
}

// GM -> L0A / L0B: the same fractal walk over the global tensor's bytes, on PIPE_MTE2.
template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const LoadData2DParams& p, EMU_LOC) {
    using namespace ascendc_emu;
    const char* api = "LoadData";
    begin_epoch(P_MTE2);
    if (strncmp(rt().soc.name, "Ascend950", 9) == 0) {
        report_error("cube-params", "api-signature", P_MTE2, api, loc,
                     "LoadData from GM is not available on %s (LoadData_2D.md: Ascend 950 loads L0A/L0B from L1 only)",
                     rt().soc.name);
        return;
    }
    if (!detail_cube::load2d_begin(dst, p, P_MTE2, "gm", loc)) return;
    uint64_t s_first = (uint64_t)p.startIndex * 512u;
    uint64_t s_ext = (uint64_t)(p.repeatTimes - 1) * p.srcStride * 512u + 512u;
    uint64_t d_ext = (uint64_t)(p.repeatTimes - 1) * (1u + p.dstGap) * 512u + 512u;
    const uint8_t* base = (const uint8_t*)src.ptr_;
    uint64_t lo, hi;
    uint32_t site = intern_site(loc.file, loc.line, api);
    if (!gm_check(base + s_first, s_ext, false, P_MTE2, api, loc, &lo, &hi) || hi - lo < s_ext) return;
    gm_shadow_access(base + s_first + lo, hi - lo, false, P_MTE2, site, api, loc);
    if (!dst.emu_check_bytes(0, d_ext, true, P_MTE2, api, loc, space_align(pos_space(dst.pos_)))) return;
    detail_cube::load2d_fractals(dst, base, p);
}

// LoadData_2D_V2.md (Ascend 950, L1 -> L0A / L0B): fractal (m, k) of the window, m in [0, mStep), k in [0, kStep),
// comes from source fractal (kStartPosition + k) * srcStride + mStartPosition + m ("startAddr = srcAddr +
// (kStartPosition * |srcStride| + mStartPosition) * 512B") and lands at destination fractal k * dstStride + m;
// with ifTranspose every fractal is transposed and lands at m * dstStride + k (Nz -> Zn, the page's B example).
// mStep or kStep 0 is a NOP. Transposition is emulated for 16-bit types (16 x 16 fractals); the b4/b8/b32 forms
// pair fractals and are reported.
template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParamsV2& p, EMU_LOC) {
    using namespace ascendc_emu;
    const char* api = "LoadData";
    begin_epoch(P_MTE1);
    Space ds = pos_space(dst.pos_), ss = pos_space(src.pos_);
    want_pos(src.pos_, {TPosition::A1, TPosition::B1}, "src", api, P_MTE1, loc);
    want_pos(dst.pos_, {TPosition::A2, TPosition::B2}, "dst", api, P_MTE1, loc);
    if (p.mStep > 255 || p.kStep > 255)
        report_error("cube-params", "vector-param-invalid", P_MTE1, api, loc,
                     "LoadData (LoadData2DParamsV2) mStep %u / kStep %u: each must be in [0, 255]", p.mStep, p.kStep);
    if (p.ifTranspose && sizeof(T) != 2) {
        report_error("cube-dtype", "api-dtype-unsupported", P_MTE1, api, loc,
                     "LoadData (LoadData2DParamsV2) with ifTranspose on %s (fractal pairs of b4/b8/b32) is not emulated; "
                     "16-bit types are", dtype_name<T>());
        return;
    }
    const uint64_t n = (uint64_t)p.mStep * p.kStep;
    Ev ev;
    trace_begin(ev, P_MTE1, api, loc);
    if (ev.on) ev.j.i("bytes", (long long)(n * 512u)).s("src", space_lc(ss)).s("dst", space_lc(ds));
    trace_end(ev);
    if (!n) return;
    const int64_t stride = p.srcStride < 0 ? -(int64_t)p.srcStride : p.srcStride;
    auto src_frac = [&](uint32_t m, uint32_t k) {
        return ((int64_t)(p.kStartPosition + k) * stride + p.mStartPosition + m) * 512;
    };
    auto dst_frac = [&](uint32_t m, uint32_t k) {
        return (uint64_t)(p.ifTranspose ? (uint64_t)m * p.dstStride + k : (uint64_t)k * p.dstStride + m) * 512u;
    };
    uint64_t s_hi = 0, d_hi = 0;
    for (uint32_t m = 0; m < p.mStep; m++)
        for (uint32_t k = 0; k < p.kStep; k++) {
            s_hi = std::max<uint64_t>(s_hi, (uint64_t)src_frac(m, k) + 512u);
            d_hi = std::max<uint64_t>(d_hi, dst_frac(m, k) + 512u);
        }
    if (!src.emu_check_bytes(0, s_hi, false, P_MTE1, api, loc, 32)) return;
    if (!dst.emu_check_bytes(0, d_hi, true, P_MTE1, api, loc, space_align(ds))) return;
    std::vector<uint8_t> out(d_hi);
    memcpy(out.data(), dst.ptr_, d_hi);
    for (uint32_t m = 0; m < p.mStep; m++)
        for (uint32_t k = 0; k < p.kStep; k++) {
            const uint8_t* sp = src.ptr_ + src_frac(m, k);
            uint8_t* dp = out.data() + dst_frac(m, k);
            if (p.ifTranspose) {
                for (int r = 0; r < 16; r++)
                    for (int c = 0; c < 16; c++) memcpy(dp + (c * 16 + r) * 2, sp + (r * 16 + c) * 2, 2);
            } else {
                memcpy(dp, sp, 512);
            }
        }
    memcpy(dst.ptr_, out.data(), d_hi);
}

// ---- L0A x L0B -> L0C
namespace detail_cube {
template <typename D, typename A, typename B>
inline void mmad(const LocalTensor<D>& c, const LocalTensor<A>& a, const LocalTensor<B>& b, const float* bias,
                 const MmadParams& p, const ascendc_emu::Loc& loc, bool bias_tensor) {
    using namespace ascendc_emu;
    const char* api = "Mmad";
    begin_epoch(P_M);
    want_pos(c.pos_, {TPosition::CO1}, "dst", api, P_M, loc);
    want_pos(a.pos_, {TPosition::A2}, "fm", api, P_M, loc);
    want_pos(b.pos_, {TPosition::B2}, "filter", api, P_M, loc);
    cube_range("m", p.m, 4095, api, P_M, loc);
    cube_range("n", p.n, 4095, api, P_M, loc);
    cube_range("k", p.k, 4095, api, P_M, loc);
    static_assert(sizeof(A) == sizeof(B), "Mmad: fm and filter must have the same element size");
    Ev ev;
    trace_begin(ev, P_M, api, loc);
    if (ev.on) ev.j.i("m", p.m).i("n", p.n).i("k", p.k).s("dtype", cube_dtype<A>());
    trace_end(ev);
    if (!p.m || !p.n) return;
    const uint32_t c0 = c0_of<A>();
    const uint32_t mB = ceil_div(p.m, 16), nB = ceil_div(p.n, 16), kB = ceil_div(p.k, c0);
    const uint64_t a_bytes = (uint64_t)mB * kB * 512u, b_bytes = (uint64_t)kB * nB * 512u;
    const uint64_t c_bytes = (uint64_t)mB * nB * 256u * sizeof(D);
    if (kB && !a.emu_check_bytes(0, a_bytes, false, P_M, api, loc, 512)) return;
    if (kB && !b.emu_check_bytes(0, b_bytes, false, P_M, api, loc, 512)) return;
    bool accumulate = !p.cmatrixInitVal && !p.cmatrixSource && !bias_tensor;
    // Mmad.md: dst (L0C) 1024-byte aligned, fm/filter (L0A/L0B) 512-byte aligned
    if (accumulate && !c.emu_check_bytes(0, c_bytes, false, P_M, api, loc, 1024)) return;
    if (!c.emu_check_bytes(0, c_bytes, true, P_M, api, loc, 1024)) return;
    // unpack the operands into dense row-major arrays
    std::vector<double> av((size_t)p.m * p.k), bv((size_t)p.k * p.n);
    for (uint32_t r = 0; r < p.m; r++)
        for (uint32_t k = 0; k < p.k; k++)
            av[(size_t)r * p.k + k] = ldd<A>(a.ptr_ + (((uint64_t)(r / 16) * kB + k / c0) * 16 * c0 + (r % 16) * c0 + k % c0) * sizeof(A));
    for (uint32_t k = 0; k < p.k; k++)
        for (uint32_t n = 0; n < p.n; n++)
            bv[(size_t)k * p.n + n] = ldd<B>(b.ptr_ + (((uint64_t)(k / c0) * nB + n / 16) * 16 * c0 + (n % 16) * c0 + k % c0) * sizeof(B));
    const bool integral = std::is_integral<D>::value;
    std::vector<double> row(p.n);
    for (uint32_t r = 0; r < p.m; r++) {
        for (uint32_t n = 0; n < p.n; n++) row[n] = 0;
        for (uint32_t k = 0; k < p.k; k++) {
            double x = av[(size_t)r * p.k + k];
            const double* bk = &bv[(size_t)k * p.n];
            if (integral) for (uint32_t n = 0; n < p.n; n++) row[n] += x * bk[n];
            else for (uint32_t n = 0; n < p.n; n++) row[n] = (double)(float)(row[n] + (double)(float)(x * bk[n]));
        }
        for (uint32_t n = 0; n < p.n; n++) {
            uint8_t* cp = c.ptr_ + (((uint64_t)(n / 16) * mB + r / 16) * 256 + (r % 16) * 16 + n % 16) * sizeof(D);
            double init = 0;
            if (accumulate) init = ldd<D>(cp);
            else if (bias) init = bias[n];
            double v = row[n] + init;
            if (integral) {
                int64_t iv = (int64_t)v;
                int32_t w = (int32_t)(uint32_t)(uint64_t)iv;  // int32 accumulator wraps
                memcpy(cp, &w, sizeof(int32_t) < sizeof(D) ? sizeof(int32_t) : sizeof(D));
            } else {
                std_<D>(cp, (double)(float)v);
            }
        }
    }
}
}  // namespace detail_cube

template <typename DstT, typename SrcAT, typename SrcBT>
inline void Mmad(const LocalTensor<DstT>& dst, const LocalTensor<SrcAT>& fm, const LocalTensor<SrcBT>& filter,
                 const MmadParams& p, EMU_LOC) {
    using namespace ascendc_emu;
    if (p.cmatrixSource) {
        report_error("cube-params", "api-signature", P_M, "Mmad", loc,
                     "Mmad with cmatrixSource = true takes its initial C from the bias table: use the Mmad overload "
                     "with a bias tensor (C2)");
    }
    detail_cube::mmad(dst, fm, filter, (const float*)nullptr, p, loc, false);
}
template <typename DstT, typename SrcAT, typename SrcBT, typename BiasT>
inline void Mmad(const LocalTensor<DstT>& dst, const LocalTensor<SrcAT>& fm, const LocalTensor<SrcBT>& filter,
                 const LocalTensor<BiasT>& bias, const MmadParams& p, EMU_LOC) {
    using namespace ascendc_emu;
    std::vector<float> bv(p.n, 0.0f);
    begin_epoch(P_M);
    want_pos(bias.pos_, {TPosition::C2, TPosition::CO1}, "bias", "Mmad", P_M, loc);
    if (bias.emu_check(0, p.n, false, P_M, "Mmad", loc, 64))
        for (uint32_t n = 0; n < p.n; n++) bv[n] = (float)ldd<BiasT>(bias.ptr_ + (uint64_t)n * sizeof(BiasT));
    detail_cube::mmad(dst, fm, filter, bv.data(), p, loc, true);
}

// ---- L0C -> GM / L1 with NZ -> ND conversion, quantisation and ReLU on the way
namespace detail_cube {
EMU_RT_FN double fix_convert(double v, const FixpipeParamsV220& p)
#if ASCENDC_EMU_RT_BODIES
{
    if (p.reluEn && v < 0) v = 0;
    if (p.quantPre == DEQF16 || p.quantPre == QF322B8_PRE || p.quantPre == REQ8 || p.quantPre == DEQS322S16) {
        uint32_t bits = (uint32_t)(p.deqScalar & 0xffffffffu);
        float s;
        memcpy(&s, &bits, 4);
        v *= (double)s;
    }
    return v;
}
#else
;
#endif
template <typename DstT, typename SrcT>
inline void fixpipe(uint8_t* dbase, bool to_gm, const LocalTensor<SrcT>& src, const FixpipeParamsV220& p,
                    CO2Layout fmt, const ascendc_emu::Loc& loc, const LocalTensor<DstT>* ldst,
                    const GlobalTensor<DstT>* gdst) {
    using namespace ascendc_emu;
    const char* api = "Fixpipe";
    begin_epoch(P_FIX);
    want_pos(src.pos_, {TPosition::CO1}, "src", api, P_FIX, loc);
    cube_range("nSize", p.nSize, 4095, api, P_FIX, loc);
    cube_range("mSize", p.mSize, 65535, api, P_FIX, loc);
    if (p.quantPre == VDEQF16 || p.quantPre == VQF322B8_PRE || p.quantPre == VREQ8 || p.quantPre == VDEQS322S16)
        report_warning("cube-params", "api-dtype-unsupported", P_FIX, api, loc,
                       "Fixpipe per-channel quantisation (quantPre %d, a quant vector in L1) is not emulated: values "
                       "are converted without scaling", (int)p.quantPre);
    if (p.quantPre == NoQuant && sizeof(DstT) != sizeof(SrcT))
        report_warning("cube-params", "api-dtype-unsupported", P_FIX, api, loc,
                       "Fixpipe from %s to %s with quantPre NoQuant: the conversion needs quantPre (F322F16, F322BF16, "
                       "DEQF16, ...)", dtype_name<SrcT>(), dtype_name<DstT>());
    if (p.srcStride && p.srcStride < p.mSize)
        report_warning("cube-params", "vector-param-invalid", P_FIX, api, loc,
                       "Fixpipe srcStride %u is smaller than mSize %u: the 16-column groups of the source overlap",
                       p.srcStride, p.mSize);
    const uint32_t ndn = p.ndNum ? p.ndNum : 1;
    uint64_t bytes = (uint64_t)ndn * p.mSize * p.nSize * sizeof(DstT);
    Ev ev;
    trace_begin(ev, P_FIX, api, loc);
    if (ev.on) {
        ev.j.i("bytes", (long long)bytes).s("src", "l0c").s("dst", to_gm ? "gm" : space_lc(pos_space(ldst->pos_)));
        if (to_gm) ev.j.b("gm_aligned512", ((uintptr_t)dbase & 511u) == 0);
        if (to_gm && blk().atomic) ev.j.s("atomic", blk().atomic == 1 ? "add" : blk().atomic == 2 ? "max" : "min");
    }
    trace_end(ev);
    if (!p.mSize || !p.nSize) return;
    const uint32_t groups = ceil_div(p.nSize, 16);
    const uint32_t sstride = p.srcStride ? p.srcStride : ceil_div(p.mSize, 16) * 16;
    uint64_t src_ext = ((uint64_t)(ndn - 1) * p.srcNdStride * 256u + (uint64_t)(groups - 1) * sstride * 16u +
                        (uint64_t)p.mSize * 16u) * sizeof(SrcT);
    if (!src.emu_check_bytes(0, src_ext, false, P_FIX, api, loc, 64)) return;
    const uint32_t dc0 = c0_of<DstT>();
    auto dst_off = [&](uint32_t mat, uint32_t r, uint32_t c) -> uint64_t {  // elements
        uint64_t base = (uint64_t)mat * p.dstNdStride;
        if (fmt == CO2Layout::NZ) return base + (uint64_t)(c / dc0) * p.dstStride * dc0 + (uint64_t)r * dc0 + c % dc0;
        if (fmt == CO2Layout::COLUMN_MAJOR) return base + (uint64_t)c * p.dstStride + r;
        return base + (uint64_t)r * p.dstStride + c;
    };
    uint64_t dst_ext = (dst_off(ndn - 1, p.mSize - 1, p.nSize - 1) + 1) * sizeof(DstT);
    if (fmt == CO2Layout::ROW_MAJOR && p.dstStride < p.nSize)
        report_warning("cube-params", "vector-param-invalid", P_FIX, api, loc,
                       "Fixpipe dstStride %u is smaller than nSize %u: output rows overlap", p.dstStride, p.nSize);
    uint64_t lo = 0, hi = dst_ext;
    Block& b = blk();
    if (to_gm) {
        if (!gm_check(dbase, dst_ext, true, P_FIX, api, loc, &lo, &hi)) return;
        gm_shadow_access(dbase + lo, hi - lo, true, P_FIX, intern_site(loc.file, loc.line, api), api, loc);
    } else if (!ldst->emu_check_bytes(0, dst_ext, true, P_FIX, api, loc, 32)) {
        return;
    }
    for (uint32_t mat = 0; mat < ndn; mat++)
        for (uint32_t r = 0; r < p.mSize; r++)
            for (uint32_t c = 0; c < p.nSize; c++) {
                uint64_t so = (uint64_t)mat * p.srcNdStride * 256u + (uint64_t)(c / 16) * sstride * 16u +
                              (uint64_t)r * 16u + c % 16;
                double v = fix_convert(ldd<SrcT>(src.ptr_ + so * sizeof(SrcT)), p);
                uint64_t doff = dst_off(mat, r, c) * sizeof(DstT);
                if (doff < lo || doff + sizeof(DstT) > hi) continue;
                uint8_t* dp = dbase + doff;
                if (to_gm && b.atomic) {
                    double o = ldd<DstT>(dp);
                    v = b.atomic == 1 ? o + v : b.atomic == 2 ? (o > v ? o : v) : (o < v ? o : v);
                }
                std_<DstT>(dp, v);
            }
}
}  // namespace detail_cube

template <typename DstT, typename SrcT, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<DstT>& dst, const LocalTensor<SrcT>& src, const FixpipeParamsV220& p,
                    EMU_LOC) {
    detail_cube::fixpipe<DstT, SrcT>((uint8_t*)dst.ptr_, true, src, p, config.format, loc, nullptr, &dst);
}
template <typename DstT, typename SrcT, const FixpipeConfig& config = CFG_ROW_MAJOR, typename BufT>
inline void Fixpipe(const GlobalTensor<DstT>& dst, const LocalTensor<SrcT>& src, const LocalTensor<BufT>&,
                    const FixpipeParamsV220& p, EMU_LOC) {
    detail_cube::fixpipe<DstT, SrcT>((uint8_t*)dst.ptr_, true, src, p, config.format, loc, nullptr, &dst);
}
template <typename DstT, typename SrcT, const FixpipeConfig& config = CFG_NZ>
inline void Fixpipe(const LocalTensor<DstT>& dst, const LocalTensor<SrcT>& src, const FixpipeParamsV220& p,
                    EMU_LOC) {
    detail_cube::fixpipe<DstT, SrcT>(dst.ptr_, false, src, p, config.format, loc, &dst, nullptr);
}

template <typename DstT, typename SrcT, const FixpipeConfig& config = CFG_NZ, typename BufT>
inline void Fixpipe(const LocalTensor<DstT>& dst, const LocalTensor<SrcT>& src, const LocalTensor<BufT>&,
                    const FixpipeParamsV220& p, EMU_LOC) {
    detail_cube::fixpipe<DstT, SrcT>(dst.ptr_, false, src, p, config.format, loc, &dst, nullptr);
}

// ---- FixpipeParamsM300 (Atlas 200I/500 A2) and FixpipeParamsArch3510 (Ascend 950), 矩阵计算的搬出/L0C到GM数据搬运
// （Fixpipe）.md 表3/表5: M300 has the V220 fields and units; Arch3510 counts an NZ destination's dstStride in elements
// (V220: 32-byte blocks) and carries the NZ2ND / NZ2DN parameters in `params` (Nz2NdParams: srcNdStride in C0_SIZE =
// 16 elements of the source). Both run on the V220 path; the forms it does not have (NZ2DN with several matrices or a
// source C0 stride, channel split, the dual-destination UB controls, strides that do not convert) are reported.
struct FixpipeParamsM300 {
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    QuantMode_t quantPre = NoQuant;
    uint64_t deqScalar = 0;
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint16_t dstNdStride = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
};
struct Nz2NdParams {
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint32_t dstNdStride = 0;
};
struct Nz2DnParams {
    uint16_t dnNum = 1;
    uint16_t srcNzMatrixStride = 0;
    uint32_t dstDnMatrixStride = 0;
    uint16_t srcNzC0Stride = 0;
};
template <CO2Layout format> struct TransformParams {};
template <> struct TransformParams<CO2Layout::NZ> { using PARAMS = uint8_t; };
template <> struct TransformParams<CO2Layout::ROW_MAJOR> { using PARAMS = Nz2NdParams; };
template <> struct TransformParams<CO2Layout::COLUMN_MAJOR> { using PARAMS = Nz2DnParams; };
template <CO2Layout format = CO2Layout::ROW_MAJOR>
struct FixpipeParamsArch3510 {
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    QuantMode_t quantPre = NoQuant;
    uint64_t deqScalar = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
    typename TransformParams<format>::PARAMS params{};
    // the Fixpipe pages spell it dualDstCtrl; the devkit's own examples (mmad_gelu.asc, fixpipe_l0c2ub.asc) write
    // dualDstCtl: one field under both names
    union {
        uint8_t dualDstCtrl = 0;
        uint8_t dualDstCtl;
    };
    bool subBlockId = false;
    bool isChannelSplit = false;
};

namespace detail_cube {
inline FixpipeParamsV220 from_m300(const FixpipeParamsM300& m) {
    FixpipeParamsV220 p;
    p.nSize = m.nSize; p.mSize = m.mSize; p.srcStride = m.srcStride; p.dstStride = m.dstStride;
    p.quantPre = m.quantPre; p.deqScalar = m.deqScalar; p.ndNum = m.ndNum; p.srcNdStride = m.srcNdStride;
    p.dstNdStride = m.dstNdStride; p.reluEn = m.reluEn; p.unitFlag = m.unitFlag;
    return p;
}
// false (reported) when the Arch3510 form has no V220 equivalent the emulator runs
template <typename DstT, typename SrcT, CO2Layout format>
inline bool from_3510(const FixpipeParamsArch3510<format>& a, FixpipeParamsV220& p, const ascendc_emu::Loc& loc) {
    using namespace ascendc_emu;
    const char* api = "Fixpipe";
    p.nSize = a.nSize; p.mSize = a.mSize; p.srcStride = a.srcStride; p.dstStride = a.dstStride;
    p.quantPre = a.quantPre; p.deqScalar = a.deqScalar; p.reluEn = a.reluEn; p.unitFlag = a.unitFlag;
    if (a.isChannelSplit || a.dualDstCtrl || a.subBlockId) {
        report_error("cube-not-emulated", "vector-param-invalid", P_FIX, api, loc,
                     "Fixpipe (FixpipeParamsArch3510): channel split and the dual-destination controls "
                     "(dualDstCtrl, subBlockId) are not emulated");
        return false;
    }
    if constexpr (format == CO2Layout::NZ) {
        if ((uint64_t)a.dstStride * sizeof(DstT) % 32) {
            report_error("cube-params", "vector-param-invalid", P_FIX, api, loc,
                         "Fixpipe (FixpipeParamsArch3510, NZ): dstStride %u elements of %s is not a whole number of "
                         "32-byte blocks", a.dstStride, dtype_name<DstT>());
            return false;
        }
        p.dstStride = (uint32_t)((uint64_t)a.dstStride * sizeof(DstT) / 32);
    } else if constexpr (format == CO2Layout::ROW_MAJOR) {
        p.ndNum = a.params.ndNum;
        p.dstNdStride = (uint16_t)a.params.dstNdStride;
        if (a.params.ndNum > 1 && (a.params.srcNdStride % 16 || a.params.dstNdStride > 65535)) {
            report_error("cube-not-emulated", "vector-param-invalid", P_FIX, api, loc,
                         "Fixpipe (FixpipeParamsArch3510, NZ2ND): srcNdStride %u (C0_SIZE units) is not a whole number "
                         "of 16 x 16 fractals, or dstNdStride %u exceeds 65535: not emulated", a.params.srcNdStride,
                         a.params.dstNdStride);
            return false;
        }
        p.srcNdStride = (uint16_t)(a.params.srcNdStride / 16);
    } else {
        if (a.params.dnNum > 1 || a.params.srcNzC0Stride) {
            report_error("cube-not-emulated", "vector-param-invalid", P_FIX, api, loc,
                         "Fixpipe (FixpipeParamsArch3510, NZ2DN): several DN matrices (dnNum %u) or a source C0 stride "
                         "(srcNzC0Stride %u) are not emulated", a.params.dnNum, a.params.srcNzC0Stride);
            return false;
        }
        p.ndNum = a.params.dnNum;
    }
    return true;
}
}  // namespace detail_cube

template <typename DstT, typename SrcT, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<DstT>& dst, const LocalTensor<SrcT>& src, const FixpipeParamsM300& m,
                    EMU_LOC) {
    detail_cube::fixpipe<DstT, SrcT>((uint8_t*)dst.ptr_, true, src, detail_cube::from_m300(m), config.format, loc,
                                     nullptr, &dst);
}
template <typename DstT, typename SrcT, const FixpipeConfig& config = CFG_ROW_MAJOR, typename BufT>
inline void Fixpipe(const GlobalTensor<DstT>& dst, const LocalTensor<SrcT>& src, const LocalTensor<BufT>&,
                    const FixpipeParamsM300& m, EMU_LOC) {
    detail_cube::fixpipe<DstT, SrcT>((uint8_t*)dst.ptr_, true, src, detail_cube::from_m300(m), config.format, loc,
                                     nullptr, &dst);
}
template <typename DstT, typename SrcT, const FixpipeConfig& config = CFG_ROW_MAJOR, CO2Layout format>
inline void Fixpipe(const GlobalTensor<DstT>& dst, const LocalTensor<SrcT>& src,
                    const FixpipeParamsArch3510<format>& a, EMU_LOC) {
    FixpipeParamsV220 p;
    if (detail_cube::from_3510<DstT, SrcT>(a, p, loc))
        detail_cube::fixpipe<DstT, SrcT>((uint8_t*)dst.ptr_, true, src, p, format, loc, nullptr, &dst);
}
template <typename DstT, typename SrcT, const FixpipeConfig& config = CFG_ROW_MAJOR, CO2Layout format>
inline void Fixpipe(const GlobalTensor<DstT>& dst, const LocalTensor<SrcT>& src, const LocalTensor<uint64_t>&,
                    const FixpipeParamsArch3510<format>& a, EMU_LOC) {
    FixpipeParamsV220 p;
    if (detail_cube::from_3510<DstT, SrcT>(a, p, loc))
        detail_cube::fixpipe<DstT, SrcT>((uint8_t*)dst.ptr_, true, src, p, format, loc, nullptr, &dst);
}
template <typename DstT, typename SrcT, const FixpipeConfig& config = CFG_ROW_MAJOR, CO2Layout format>
inline void Fixpipe(const LocalTensor<DstT>& dst, const LocalTensor<SrcT>& src, const FixpipeParamsArch3510<format>& a,
                    EMU_LOC) {
    FixpipeParamsV220 p;
    if (detail_cube::from_3510<DstT, SrcT>(a, p, loc))
        detail_cube::fixpipe<DstT, SrcT>(dst.ptr_, false, src, p, format, loc, &dst, nullptr);
}
template <typename DstT, typename SrcT, const FixpipeConfig& config = CFG_ROW_MAJOR, CO2Layout format>
inline void Fixpipe(const LocalTensor<DstT>& dst, const LocalTensor<SrcT>& src, const LocalTensor<uint64_t>&,
                    const FixpipeParamsArch3510<format>& a, EMU_LOC) {
    FixpipeParamsV220 p;
    if (detail_cube::from_3510<DstT, SrcT>(a, p, loc))
        detail_cube::fixpipe<DstT, SrcT>(dst.ptr_, false, src, p, format, loc, &dst, nullptr);
}

// ---- fill an L1 / L0A / L0B buffer with a constant (repeatTimes x blockNum 32-byte blocks, dstGap blocks apart)
template <typename T>
inline void InitConstValue(const LocalTensor<T>& dst, const InitConstValueParams<T>& p, EMU_LOC) {
    using namespace ascendc_emu;
    int pipe = P_MTE2;
    begin_epoch(pipe);
    uint64_t per = (uint64_t)p.blockNum * 32u, pitch = per + (uint64_t)p.dstGap * 32u;
    Ev ev;
    trace_begin(ev, pipe, "InitConstValue", loc);
    if (ev.on) ev.j.i("bytes", (long long)(per * p.repeatTimes)).s("src", "l1").s("dst", space_lc(pos_space(dst.pos_)));
    trace_end(ev);
    if (!p.repeatTimes || !per) return;
    if (!dst.emu_check_bytes(0, (uint64_t)(p.repeatTimes - 1) * pitch + per, true, pipe, "InitConstValue", loc,
                             32)) return;
    for (uint32_t r = 0; r < p.repeatTimes; r++)
        for (uint64_t i = 0; i < per / sizeof(T); i++) memcpy(dst.ptr_ + r * pitch + i * sizeof(T), &p.initValue, sizeof(T));
}

// Fill (矩阵计算的搬入/辅助配置接口/Fill.md): an L1 / L0A / L0B tensor initialised to initValue, repeatTimes x blockNum
// blocks with dstGap blocks between repeats; a block is 32 B on L1 (A1/B1) and 512 B on L0A/L0B (A2/B2) (表3).
// repeatTimes or blockNum 0 is a NOP. Traced on the pipe InitConstValue uses.
template <typename T, typename U>
inline void Fill(const LocalTensor<T>& dst, const InitConstValueParams<U>& p, EMU_LOC) {
    using namespace ascendc_emu;
    static_assert(std::is_same<T, U>::value, "Fill: the InitConstValueParams value type must be the tensor's");
    const char* api = "Fill";
    int pipe = P_MTE2;
    begin_epoch(pipe);
    want_pos(dst.pos_, {TPosition::A1, TPosition::B1, TPosition::A2, TPosition::B2}, "dst", api, pipe, loc);
    const bool l0 = dst.pos_ == TPosition::A2 || dst.pos_ == TPosition::B2;
    const uint64_t blk = l0 ? 512u : 32u;
    const uint64_t per = (uint64_t)p.blockNum * blk, pitch = per + (uint64_t)p.dstGap * blk;
    Ev ev;
    trace_begin(ev, pipe, api, loc);
    if (ev.on) ev.j.i("bytes", (long long)(per * p.repeatTimes)).s("src", "l1").s("dst", space_lc(pos_space(dst.pos_)));
    trace_end(ev);
    if (!p.repeatTimes || !per) return;
    if (!dst.emu_check_bytes(0, (uint64_t)(p.repeatTimes - 1) * pitch + per, true, pipe, api, loc, l0 ? 512 : 32))
        return;
    for (uint32_t r = 0; r < p.repeatTimes; r++)
        for (uint64_t i = 0; i < per / sizeof(T); i++) memcpy(dst.ptr_ + r * pitch + i * sizeof(T), &p.initValue, sizeof(T));
}
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_CUBE_H_

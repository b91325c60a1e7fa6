// LoadData (卷积数据搬运) v2 / v2 Pro: L1 (NC1HWC0 feature map) -> L0A / L0B through an image-to-column expansion,
// with the FMATRIX / padding / repeat special registers it reads (clean-room, from the documented behaviour):
//   docs/zh/api/SIMD-API/基础API/矩阵计算（ISASI）/矩阵计算的搬入/矩阵数据搬入至L0-Buffer/LoadData_3D.md (and the
//   load3d.py pseudocode it links), .../辅助配置接口/SetFmatrix.md, SetLoadDataPaddingValue.md, SetLoadDataRepeat.md,
//   SetLoadDataBoundary.md.
// The expansion: the feature map is C1 x l1H x l1W x C0 (C0 = 32 B / sizeof(T)), padded by padList (left, right,
// top, bottom) with padValue. Column m of the im2col matrix is output position (m / wOut, m % wOut); row k is
// (c1, fh, fw, c0) with k = ((c1 * filterH + fh) * filterW + fw) * C0 + c0. The instruction takes the window
// [mStartPt, +mExtension) x [kStartPt, +kExtension) of that matrix and writes it as
//   L0A, no transpose : ZZ fractals of 16 (m) x C0 (k): ((m / 16) * kB + k / C0) * 16 * C0 + (m % 16) * C0 + k % C0
//   L0A, enTranspose  : (b16) ((k / C0) * mB + m / 16) * 16 * C0 + (k % C0) * 16 + m % 16
//   L0B (always transposed, b16): ((m / 16) * kB + k / C0) * 16 * C0 + (k % C0) * 16 + m % 16
// (mB, kB: fractals of the window) — the layouts cube.h's Mmad reads. Forms the emulator does not run (b32
// transposes, the small-channel layouts, repeat > 1, a load boundary) are reported, never guessed.
#ifndef ASCENDC_EMU_ASCENDC_EMU_CUBE_LOAD3D_H_
#define ASCENDC_EMU_ASCENDC_EMU_CUBE_LOAD3D_H_
#include "cube.h"

namespace AscendC {
enum class FmatrixMode : uint8_t { FMATRIX_LEFT = 0, FMATRIX_RIGHT = 1 };

struct IsResetLoad3dConfig {
    bool isSetFMatrix = true;
    bool isSetPadding = true;
};
constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};

template <typename T>
struct LoadData3DParamsV2 {
    uint8_t padList[4] = {0, 0, 0, 0};
    uint16_t l1H = 0;
    uint16_t l1W = 0;
    uint16_t channelSize = 0;
    uint16_t kExtension = 0;
    uint16_t mExtension = 0;
    uint16_t kStartPt = 0;
    uint16_t mStartPt = 0;
    uint8_t strideW = 1;
    uint8_t strideH = 1;
    uint8_t filterW = 1;
    uint8_t filterH = 1;
    uint8_t dilationFilterW = 1;
    uint8_t dilationFilterH = 1;
    bool enTranspose = false;
    bool enSmallK = false;
    T padValue = T(0);
    bool filterSizeW = false;
    bool filterSizeH = false;
    bool fMatrixCtrl = false;
};

struct LoadData3DParamsV2Pro {
    uint16_t channelSize = 0;
    bool enTranspose = false;
    bool enSmallK = false;
    bool filterSizeW = false;
    bool filterSizeH = false;
    bool fMatrixCtrl = false;
    uint64_t extConfig = 0;  // mStartPt << 48 | kStartPt << 32 | mExtension << 16 | kExtension
    uint64_t filterConfig = 0x10101010101ull;  // dilH << 40 | dilW << 32 | filterH << 24 | filterW << 16 | strideH << 8 | strideW
};

struct LoadDataRepeatParam {
    uint16_t repeatStride = 0;
    uint8_t repeatTime = 1;
    uint8_t repeatMode = 0;
    uint16_t dstStride = 0;
};
}  // namespace AscendC

namespace ascendc_emu {
struct CubeRegs {
    uint16_t fm_h[2], fm_w[2];  // FMATRIX left / right: l1H, l1W
    uint8_t fm_pad[2][4];       // ... and padList
    uint64_t pad_bits;          // SetLoadDataPaddingValue: the value's bytes
    uint32_t boundary;          // SetLoadDataBoundary (bytes)
    uint16_t rep_stride;
    uint8_t rep_time, rep_mode;
    uint8_t rep_set;            // SetLoadDataRepeat was called (the default repeatTime is 1)
};
static_assert(sizeof(CubeRegs) <= sizeof(((Block*)nullptr)->cube_regs), "CubeRegs must fit Block::cube_regs");
inline CubeRegs& cregs() { return *reinterpret_cast<CubeRegs*>(blk().cube_regs); }

struct Load3dArgs {
    uint16_t l1H, l1W;
    uint8_t pad[4];
    uint64_t pad_bits;
    uint32_t channelSize, kExt, mExt, kStart, mStart;
    uint32_t strideW, strideH, filterW, filterH, dilW, dilH;
    bool transpose;
};

template <class T> constexpr bool load3d_dtype_ok() {
    return std::is_same<T, int8_t>::value || std::is_same<T, uint8_t>::value || std::is_same<T, half>::value ||
           std::is_same<T, bfloat16_t>::value || std::is_same<T, int32_t>::value ||
           std::is_same<T, uint32_t>::value || std::is_same<T, float>::value;
}

template <class T>
inline void load3d(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const Load3dArgs& a,
                   const char* api, const Loc& loc) {
    using AscendC::TPosition;
    begin_epoch(P_MTE1);
    Space ds = pos_space(dst.pos_), ss = pos_space(src.pos_);
    want_pos(src.pos_, {TPosition::A1, TPosition::B1, TPosition::C1, TPosition::TSCM}, "src", api, P_MTE1, loc);
    want_pos(dst.pos_, {TPosition::A2, TPosition::B2}, "dst", api, P_MTE1, loc);
    const bool to_b = ds == pos_space(TPosition::B2);
    const uint32_t es = (uint32_t)sizeof(T), c0 = 32u / es;
    const uint32_t mB = ceil_div(a.mExt, 16), kB = ceil_div(a.kExt, c0);
    Ev ev;
    trace_begin(ev, P_MTE1, api, loc);
    if (ev.on) ev.j.i("bytes", (long long)mB * kB * 512).s("src", space_lc(ss)).s("dst", space_lc(ds));
    trace_end(ev);
    // LoadData_3D.md 约束说明: any of l1H/l1W/channelSize/kExtension/mExtension 0, or a 0 filter, is a NOP
    if (!a.l1H || !a.l1W || !a.channelSize || !a.kExt || !a.mExt || !a.filterW || !a.filterH) return;
    if (!load3d_dtype_ok<T>()) {
        report_error("cube-dtype", "api-dtype-unsupported", P_MTE1, api, loc,
                     "%s supports int8_t, uint8_t, half, bfloat16_t, int32_t, uint32_t and float on this SoC; the "
                     "tensor holds %s", api, dtype_name<T>());
        return;
    }
    if (to_b && es == 1) {
        report_error("cube-dtype", "api-dtype-unsupported", P_MTE1, api, loc,
                     "%s from L1 to L0B does not support 8-bit types (%s)", api, dtype_name<T>());
        return;
    }
    if (!to_b && a.transpose && es == 1) {
        report_error("cube-dtype", "api-dtype-unsupported", P_MTE1, api, loc,
                     "%s with enTranspose to L0A does not support 8-bit types (%s)", api, dtype_name<T>());
        return;
    }
    if (es == 4 && (to_b || a.transpose)) {
        report_error("cube-not-emulated", "api-dtype-unsupported", P_MTE1, api, loc,
                     "%s: the transposed 32-bit layouts (to L0B, or enTranspose to L0A) are not emulated", api);
        return;
    }
    if (a.channelSize % c0) {
        report_error("cube-not-emulated", "vector-param-invalid", P_MTE1, api, loc,
                     "%s: channelSize %u is not a multiple of C0 = %u: the small-channel feature-map layouts are not "
                     "emulated", api, a.channelSize, c0);
        return;
    }
    if (!a.strideW || !a.strideH || !a.dilW || !a.dilH) {
        report_error("cube-params", "vector-param-invalid", P_MTE1, api, loc,
                     "%s: strideW/strideH/dilationFilterW/dilationFilterH must be at least 1 (got %u/%u/%u/%u)", api,
                     a.strideW, a.strideH, a.dilW, a.dilH);
        return;
    }
    const CubeRegs& cr = cregs();
    if (cr.rep_set && cr.rep_time > 1) {
        report_error("cube-not-emulated", "vector-param-invalid", P_MTE1, api, loc,
                     "%s: repeat mode (SetLoadDataRepeat repeatTime %u) is not emulated", api, cr.rep_time);
        return;
    }
    if (cr.boundary) {
        report_error("cube-not-emulated", "vector-param-invalid", P_MTE1, api, loc,
                     "%s: a load boundary (SetLoadDataBoundary %u) is not emulated", api, cr.boundary);
        return;
    }
    const int64_t spanW = (int64_t)(a.filterW - 1) * a.dilW + 1, spanH = (int64_t)(a.filterH - 1) * a.dilH + 1;
    const int64_t wPad = (int64_t)a.l1W + a.pad[0] + a.pad[1], hPad = (int64_t)a.l1H + a.pad[2] + a.pad[3];
    if (wPad < spanW || hPad < spanH) {
        report_error("cube-params", "vector-param-invalid", P_MTE1, api, loc,
                     "%s: the filter (%lld x %lld after dilation) is larger than the padded feature map (%lld x %lld)",
                     api, (long long)spanH, (long long)spanW, (long long)hPad, (long long)wPad);
        return;
    }
    const int64_t wOut = (wPad - spanW) / a.strideW + 1;
    const uint64_t kTotal = (uint64_t)a.channelSize * a.filterH * a.filterW;
    if ((uint64_t)a.kStart + a.kExt > kTotal) {
        report_error("cube-params", "vector-param-invalid", P_MTE1, api, loc,
                     "%s: kStartPt %u + kExtension %u exceeds the im2col depth channelSize x filterH x filterW = %llu",
                     api, a.kStart, a.kExt, (unsigned long long)kTotal);
        return;
    }
    const uint64_t src_bytes = (uint64_t)a.channelSize * a.l1H * a.l1W * es;
    if (!src.emu_check_bytes(0, src_bytes, false, P_MTE1, api, loc, 32)) return;
    const uint64_t dst_bytes = (uint64_t)mB * kB * 512u;
    if (!dst.emu_check_bytes(0, dst_bytes, true, P_MTE1, api, loc, space_align(ds))) return;
    uint8_t padv[8];
    memcpy(padv, &a.pad_bits, sizeof padv);
    const uint32_t taps = a.filterH * a.filterW;
    for (uint32_t mi = 0; mi < a.mExt; mi++) {
        const int64_t m = (int64_t)a.mStart + mi, oh = m / wOut, ow = m % wOut;
        for (uint32_t ki = 0; ki < a.kExt; ki++) {
            const uint64_t k = (uint64_t)a.kStart + ki;
            const uint64_t group = k / c0, c1 = group / taps, tap = group % taps;
            const int64_t h = oh * a.strideH + (int64_t)(tap / a.filterW) * a.dilH - a.pad[2];
            const int64_t w = ow * a.strideW + (int64_t)(tap % a.filterW) * a.dilW - a.pad[0];
            uint64_t off;
            if (to_b || a.transpose) {
                off = to_b ? ((uint64_t)(mi / 16) * kB + ki / c0) * 16 * c0 + (ki % c0) * 16 + mi % 16
                           : ((uint64_t)(ki / c0) * mB + mi / 16) * 16 * c0 + (ki % c0) * 16 + mi % 16;
            } else {
                off = ((uint64_t)(mi / 16) * kB + ki / c0) * 16 * c0 + (mi % 16) * c0 + ki % c0;
            }
            uint8_t* d = dst.ptr_ + off * es;
            if (h < 0 || h >= a.l1H || w < 0 || w >= a.l1W) {
                memcpy(d, padv, es);
            } else {
                const uint64_t so = ((c1 * a.l1H + (uint64_t)h) * a.l1W + (uint64_t)w) * c0 + k % c0;
                memcpy(d, src.ptr_ + so * es, es);
            }
        }
    }
}
}  // namespace ascendc_emu

namespace AscendC {
// SetFmatrix.md: the feature-map description (l1H, l1W, padList) LoadData v2 Pro (and v2 with isSetFMatrix false)
// reads; FMATRIX_LEFT / FMATRIX_RIGHT select the register.
inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[4], const FmatrixMode& fmatrixMode) {
    ascendc_emu::CubeRegs& r = ascendc_emu::cregs();
    const int i = fmatrixMode == FmatrixMode::FMATRIX_RIGHT ? 1 : 0;
    r.fm_h[i] = l1H;
    r.fm_w[i] = l1W;
    for (int j = 0; j < 4; j++) r.fm_pad[i][j] = padList[j];
}
// SetLoadDataPaddingValue.md: the padding value of LoadData v2 Pro (and v2 with isSetPadding false).
template <typename T>
inline void SetLoadDataPaddingValue(const T padValue) {
    static_assert(sizeof(T) <= 8, "SetLoadDataPaddingValue: scalar types only");
    uint64_t bits = 0;
    memcpy(&bits, &padValue, sizeof(T));
    ascendc_emu::cregs().pad_bits = bits;
}
// SetLoadDataRepeat.md: repeat parameters of LoadData v2; the emulator runs repeatTime <= 1 only (larger values
// are reported by the load that would use them).
inline void SetLoadDataRepeat(const LoadDataRepeatParam& repeatParams) {
    ascendc_emu::CubeRegs& r = ascendc_emu::cregs();
    r.rep_stride = repeatParams.repeatStride;
    r.rep_time = repeatParams.repeatTime;
    r.rep_mode = repeatParams.repeatMode;
    r.rep_set = 1;
}
// SetLoadDataBoundary.md: a nonzero boundary is reported by the next load (not emulated); 0 turns it off.
inline void SetLoadDataBoundary(uint32_t boundaryValue) { ascendc_emu::cregs().boundary = boundaryValue; }

// LoadData v2: with defaultConfig.isSetFMatrix the params' l1H/l1W/padList are written to the FMATRIX register
// fMatrixCtrl selects, else that register is read; with isSetPadding the params' padValue is written to the padding
// register, else the register is read.
template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG, typename U = T,
          typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<U>& p, EMU_LOC) {
    using namespace ascendc_emu;
    CubeRegs& r = cregs();
    const int side = p.fMatrixCtrl ? 1 : 0;
    if (defaultConfig.isSetFMatrix) SetFmatrix(p.l1H, p.l1W, p.padList, p.fMatrixCtrl ? FmatrixMode::FMATRIX_RIGHT
                                                                                        : FmatrixMode::FMATRIX_LEFT);
    if (defaultConfig.isSetPadding) SetLoadDataPaddingValue(p.padValue);
    Load3dArgs a{};
    a.l1H = r.fm_h[side];
    a.l1W = r.fm_w[side];
    memcpy(a.pad, r.fm_pad[side], 4);
    a.pad_bits = r.pad_bits;
    a.channelSize = p.channelSize;
    a.kExt = p.kExtension;
    a.mExt = p.mExtension;
    a.kStart = p.kStartPt;
    a.mStart = p.mStartPt;
    a.strideW = p.strideW;
    a.strideH = p.strideH;
    a.filterW = p.filterW + (p.filterSizeW ? 256u : 0u);
    a.filterH = p.filterH + (p.filterSizeH ? 256u : 0u);
    a.dilW = p.dilationFilterW;
    a.dilH = p.dilationFilterH;
    a.transpose = p.enTranspose;
    load3d(dst, src, a, "LoadData", loc);
}

// LoadData v2 Pro: the parameters packed in extConfig / filterConfig; the feature map and the padding value always
// come from the registers (SetFmatrix, SetLoadDataPaddingValue).
template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2Pro& p, EMU_LOC) {
    using namespace ascendc_emu;
    const CubeRegs& r = cregs();
    const int side = p.fMatrixCtrl ? 1 : 0;
    Load3dArgs a{};
    a.l1H = r.fm_h[side];
    a.l1W = r.fm_w[side];
    memcpy(a.pad, r.fm_pad[side], 4);
    a.pad_bits = r.pad_bits;
    a.channelSize = p.channelSize;
    a.kExt = (uint32_t)(p.extConfig & 0xffffu);
    a.mExt = (uint32_t)((p.extConfig >> 16) & 0xffffu);
    a.kStart = (uint32_t)((p.extConfig >> 32) & 0xffffu);
    a.mStart = (uint32_t)((p.extConfig >> 48) & 0xffffu);
    a.strideW = (uint32_t)(p.filterConfig & 0xffu);
    a.strideH = (uint32_t)((p.filterConfig >> 8) & 0xffu);
    a.filterW = (uint32_t)((p.filterConfig >> 16) & 0xffu) + (p.filterSizeW ? 256u : 0u);
    a.filterH = (uint32_t)((p.filterConfig >> 24) & 0xffu) + (p.filterSizeH ? 256u : 0u);
    a.dilW = (uint32_t)((p.filterConfig >> 32) & 0xffu);
    a.dilH = (uint32_t)((p.filterConfig >> 40) & 0xffu);
    a.transpose = p.enTranspose;
    load3d(dst, src, a, "LoadData", loc);
}
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_CUBE_LOAD3D_H_

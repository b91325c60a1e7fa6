// LoadDataWithTranspose: L1 -> L0A/L0B with a square-matrix transpose per iteration (clean-room, docs/zh/api/
// SIMD-API/基础API/矩阵计算（ISASI）/矩阵计算的搬入/矩阵数据搬入至L0-Buffer/LoadDataWithTranspose.md).
// One iteration transposes a square of 512-byte fractals: b16 one 16x16 fractal; b32 two 16x8 fractals side by
// side (16x16 of 4-byte elements); b8 two 16x32 fractals one above the other (32x32 of bytes). The square
// is split back into fractals the same way. Source square i sits at startIndex + i * srcStride squares (minus
// for addrMode); destination fractal k of iteration i at i * (1 + dstGap) + k * (1 + dstFracGap) fractals.
#ifndef ASCENDC_EMU_ASCENDC_EMU_CUBE_TRANSPOSE_H_
#define ASCENDC_EMU_ASCENDC_EMU_CUBE_TRANSPOSE_H_
#include "cube.h"
#include "vector_support.h"

#define ASCENDC_EMU_DTYPES_LoadDataWithTranspose                                                             \
    "Ascend910B:int8_t uint8_t half bfloat16_t int32_t uint32_t float;"                                      \
    "Ascend910_93:int8_t uint8_t half bfloat16_t int32_t uint32_t float;"                                    \
    "Ascend310B:int8_t uint8_t half bfloat16_t int32_t uint32_t float;"                                      \
    "Ascend950:int8_t uint8_t half bfloat16_t int32_t uint32_t float"

namespace AscendC {
struct LoadData2dTransposeParams {
    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint16_t dstGap = 0;
    uint16_t dstFracGap = 0;
    uint8_t addrMode = 0;
    LoadData2dTransposeParams() {}
    LoadData2dTransposeParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn, uint16_t dstGapIn,
                              uint16_t dstFracGapIn, uint8_t addrModeIn = 0)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
          dstFracGap(dstFracGapIn), addrMode(addrModeIn) {}
};

template <typename T>
inline void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                  const LoadData2dTransposeParams& p, EMU_LOC) {
    using namespace ascendc_emu;
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                  "LoadDataWithTranspose moves 8-, 16- or 32-bit elements");
    const char* api = "LoadDataWithTranspose";
    begin_epoch(P_MTE1);
    Space ds = pos_space(dst.pos_), ss = pos_space(src.pos_);
    want_pos(src.pos_, {TPosition::A1, TPosition::B1, TPosition::C1, TPosition::TSCM}, "src", api, P_MTE1, loc);
    want_pos(dst.pos_, {TPosition::A2, TPosition::B2}, "dst", api, P_MTE1, loc);
    check_dtype<T>(api, ASCENDC_EMU_DTYPES_LoadDataWithTranspose, loc);
    const int frac = sizeof(T) == 2 ? 1 : 2;  // fractals per square
    const uint64_t sq = 512u * frac;
    uint64_t bytes = (uint64_t)p.repeatTimes * sq;
    Ev ev;
    trace_begin(ev, P_MTE1, api, loc);
    if (ev.on) ev.j.i("bytes", (long long)bytes).s("src", space_lc(ss)).s("dst", space_lc(ds));
    trace_end(ev);
    if (!p.repeatTimes) return;
    int64_t step = p.addrMode ? -(int64_t)p.srcStride : (int64_t)p.srcStride;
    int64_t first = (int64_t)p.startIndex, last = first + (int64_t)(p.repeatTimes - 1) * step;
    if (last < 0) {
        report_error("cube-params", "vector-param-invalid", P_MTE1, api, loc,
                     "%s with addrMode 1 walks to square %lld, before the start of the source", api, (long long)last);
        return;
    }
    uint64_t lo = (uint64_t)(first < last ? first : last) * sq, hi = (uint64_t)(first > last ? first : last) * sq + sq;
    if (!src.emu_check_bytes(lo, hi - lo, false, P_MTE1, api, loc, 32)) return;
    uint64_t d_ext = (uint64_t)(p.repeatTimes - 1) * (1u + p.dstGap) * 512u +
                     (uint64_t)(frac - 1) * (1u + p.dstFracGap) * 512u + 512u;
    if (!dst.emu_check_bytes(0, d_ext, true, P_MTE1, api, loc, space_align(ds))) return;
    const int n = sizeof(T) == 1 ? 32 : 16;  // square side in elements
    std::vector<uint8_t> in(sq), out(sq);
    for (uint32_t i = 0; i < p.repeatTimes; i++) {
        memcpy(in.data(), src.ptr_ + (uint64_t)(first + (int64_t)i * step) * sq, sq);
        // element (r, c) of the square in the source fractals, and of the transposed square in the output
        auto at = [&](int r, int c) -> size_t {
            if (sizeof(T) == 4) return ((size_t)(c / 8) * 128 + (size_t)r * 8 + c % 8) * 4;  // 16x8 side by side
            return ((size_t)r * n + c) * sizeof(T);  // 16x16 (b16) or two 16x32 stacked (b8): row-major
        };
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) memcpy(out.data() + at(c, r), in.data() + at(r, c), sizeof(T));
        for (int k = 0; k < frac; k++)
            memcpy(dst.ptr_ + (uint64_t)i * (1u + p.dstGap) * 512u + (uint64_t)k * (1u + p.dstFracGap) * 512u,
                   out.data() + (size_t)k * 512, 512);
    }
}
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_CUBE_TRANSPOSE_H_

// Transpose (16x16 and [N,C,H,W] <-> [N,H,W,C]) and TransDataTo5HD (16 address lists, NCHW -> NC1HWC0).
// Clean-room from docs/zh/api/SIMD-API/基础API/Memory矢量计算/数据排布转换/{Transpose,TransDataTo5HD}.md.
#ifndef ASCENDC_EMU_ASCENDC_EMU_VECTOR_TRANSPOSE_H_
#define ASCENDC_EMU_ASCENDC_EMU_VECTOR_TRANSPOSE_H_
#include "vector_support.h"

// Per-SoC element types, as in knowledge/api/rearrange.yaml (compared by tests/test_api_agreement.py).
#define ASCENDC_EMU_DTYPES_Transpose                                                                         \
    "Ascend910B:int16_t uint16_t half int8_t uint8_t int32_t uint32_t float;"                                \
    "Ascend910_93:int16_t uint16_t half int8_t uint8_t int32_t uint32_t float;"                              \
    "Ascend310P:int16_t uint16_t half int8_t uint8_t int32_t uint32_t float;"                                \
    "Ascend310B:int16_t uint16_t half;Ascend910A:int16_t uint16_t half;"                                     \
    "Ascend950:int16_t uint16_t half int8_t uint8_t bfloat16_t int32_t uint32_t float"
#define ASCENDC_EMU_DTYPES_Transpose_16x16                                                                   \
    "Ascend910B:int16_t uint16_t half;Ascend910_93:int16_t uint16_t half;Ascend310P:int16_t uint16_t half;"  \
    "Ascend310B:int16_t uint16_t half;Ascend910A:int16_t uint16_t half;Ascend950:int16_t uint16_t half"
#define ASCENDC_EMU_DTYPES_Transpose_nd2nd_b16                                                               \
    "Ascend910B:uint16_t;Ascend910_93:uint16_t;Ascend310P:uint16_t;Ascend310B:uint16_t;"                     \
    "Ascend950:int16_t uint16_t half"
#define ASCENDC_EMU_DTYPES_TransDataTo5HD                                                                    \
    "Ascend910B:int8_t uint8_t int16_t uint16_t half int32_t uint32_t float;"                                \
    "Ascend910_93:int8_t uint8_t int16_t uint16_t half int32_t uint32_t float;"                              \
    "Ascend310P:int8_t uint8_t int16_t uint16_t half int32_t uint32_t float;"                                \
    "Ascend310B:int8_t uint8_t int16_t uint16_t half int32_t uint32_t float;"                                \
    "Ascend910A:int8_t uint8_t int16_t uint16_t half;"                                                       \
    "Ascend950:int8_t uint8_t int16_t uint16_t half bfloat16_t int32_t uint32_t float"

namespace AscendC {
constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;
struct TransDataTo5HDParams {
    bool dstHighHalf = false;
    bool srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;
    uint16_t srcRepStride = 0;
    TransDataTo5HDParams() {}
    TransDataTo5HDParams(bool dH, bool sH, uint8_t rep, uint16_t dR, uint16_t sR)
        : dstHighHalf(dH), srcHighHalf(sH), repeatTimes(rep), dstRepStride(dR), srcRepStride(sR) {}
};
#ifndef ASCENDC_EMU_TRANSPOSE_TYPE_DEFINED
#define ASCENDC_EMU_TRANSPOSE_TYPE_DEFINED
enum class TransposeType : uint8_t {
    TRANSPOSE_TYPE_NONE,
    TRANSPOSE_NZ2ND_0213,
    TRANSPOSE_NZ2NZ_0213,
    TRANSPOSE_NZ2NZ_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITHOUT_N,
    TRANSPOSE_NZ2NZ_012_WITHOUT_N,
    TRANSPOSE_ND2ND_ONLY,
    TRANSPOSE_ND_UB_GM,
    TRANSPOSE_GRAD_ND_UB_GM,
    TRANSPOSE_ND2ND_B16,
    TRANSPOSE_NCHW2NHWC,
    TRANSPOSE_NHWC2NCHW
};
#endif
struct TransposeParamsExt {
    TransposeParamsExt() {}
    TransposeParamsExt(const uint16_t nSizeIn, const uint16_t cSizeIn, const uint16_t hSizeIn, const uint16_t wSizeIn,
                       const TransposeType transposeTypeIn)
        : nSize(nSizeIn), cSize(cSizeIn), hSize(hSizeIn), wSize(wSizeIn), transposeType(transposeTypeIn) {}
    uint16_t nSize = 0;
    uint16_t cSize = 0;
    uint16_t hSize = 0;
    uint16_t wSize = 0;
    TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};
}  // namespace AscendC

namespace ascendc_emu {
using AscendC::LocalTensor;

// 16x16 transpose of 2-byte elements: dst[j][i] = src[i][j].
inline void transpose16(uint8_t* dst, const uint8_t* src) {
    uint16_t tmp[256];
    memcpy(tmp, src, sizeof tmp);
    uint16_t* d = (uint16_t*)dst;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) d[j * 16 + i] = tmp[i * 16 + j];
}

// TransDataTo5HD core. block(list, i, byte_off, write) gives the host pointer of the 32-byte block at
// byte_off past address i of a list, or nullptr (reported). One repeat gathers 16 source blocks and writes 16
// destination blocks: b16 dst[j][i] = src[i][j]; b32 dst[k][e] = src[(k % 2) * 8 + e][k / 2]; b8 fills the
// low/high 16 bytes of each destination block from the low/high 16 bytes of the sources (dst/srcHighHalf).
// Repeat r starts (r == 0 ? 0 : r) * RepStride blocks further, except that a single repeat already starts one
// RepStride further (the docs' rule: set the strides to 0 for a single repeat).
template <class T, class BlockFn>
inline void trans5hd(const AscendC::TransDataTo5HDParams& p, const Loc& loc, BlockFn block) {
    begin_epoch(P_V);
    check_dtype<T>("TransDataTo5HD", ASCENDC_EMU_DTYPES_TransDataTo5HD, loc);
    int reps = p.repeatTimes;
    for (int r = 0; r < reps; r++) {
        uint64_t f = reps == 1 ? 1 : (uint64_t)r;
        uint8_t in[16][32];
        uint8_t* out[16];
        bool ok = true;
        for (int i = 0; i < 16; i++) {
            const uint8_t* s = block(false, i, f * p.srcRepStride * 32, false);
            if (s) memcpy(in[i], s, 32);
            else ok = false;
        }
        for (int j = 0; j < 16; j++) {
            out[j] = block(true, j, f * p.dstRepStride * 32, true);
            ok = ok && out[j];
        }
        if (!ok) continue;
        if (sizeof(T) == 2) {
            for (int j = 0; j < 16; j++)
                for (int i = 0; i < 16; i++) memcpy(out[j] + i * 2, in[i] + j * 2, 2);
        } else if (sizeof(T) == 4) {
            for (int k = 0; k < 16; k++)
                for (int e = 0; e < 8; e++) memcpy(out[k] + e * 4, in[(k % 2) * 8 + e] + (k / 2) * 4, 4);
        } else {
            int sh = p.srcHighHalf ? 16 : 0, dh = p.dstHighHalf ? 16 : 0;
            for (int j = 0; j < 16; j++)
                for (int i = 0; i < 16; i++) out[j][dh + i] = in[i][sh + j];
        }
    }
    trace_vec("TransDataTo5HD", dtype_name<T>(), (uint64_t)reps * 512 / sizeof(T), (uint64_t)reps, loc);
}
}  // namespace ascendc_emu

namespace AscendC {
// ---- TransDataTo5HD (数据排布转换/TransDataTo5HD.md)
template <typename T>
inline void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                           const TransDataTo5HDParams& nchwconvParams, EMU_LOC) {
    using namespace ascendc_emu;
    trans5hd<T>(nchwconvParams, loc, [&](bool dst, int i, uint64_t off, bool write) -> uint8_t* {
        return ub_addr((dst ? dstList : srcList)[i] + off, 32, write, "TransDataTo5HD", loc);
    });
}
template <typename T>
inline void TransDataTo5HD(const LocalTensor<uint64_t>& dst, const LocalTensor<uint64_t>& src,
                           const TransDataTo5HDParams& nchwconvParams, EMU_LOC) {
    using namespace ascendc_emu;
    uint64_t d[16] = {}, s[16] = {};
    bool ok = dst.emu_check(0, 16, false, P_V, "TransDataTo5HD", loc) &&
              src.emu_check(0, 16, false, P_V, "TransDataTo5HD", loc);
    if (!ok) return;
    memcpy(d, dst.ptr_, sizeof d);
    memcpy(s, src.ptr_, sizeof s);
    trans5hd<T>(nchwconvParams, loc, [&](bool isdst, int i, uint64_t off, bool write) -> uint8_t* {
        return ub_addr((isdst ? d : s)[i] + off, 32, write, "TransDataTo5HD", loc);
    });
}
template <typename T>
inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                           const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                           const TransDataTo5HDParams& nchwconvParams, EMU_LOC) {
    using namespace ascendc_emu;
    trans5hd<T>(nchwconvParams, loc, [&](bool dst, int i, uint64_t off, bool write) -> uint8_t* {
        const LocalTensor<T>& t = (dst ? dstList : srcList)[i];
        return t.emu_check_bytes(off, 32, write, P_V, "TransDataTo5HD", loc) ? t.ptr_ + off : nullptr;
    });
}
// The implementation-level form op kernels call with raw `__ubuf__ T*` lists (GetPhyAddr() values; cann-ops'
// transposes): the same transform as the address-list TransDataTo5HD (TransDataTo5HD.md).
template <typename T>
inline void TransDataTo5HDImpl(T* dstList[NCHW_CONV_ADDR_LIST_SIZE], T* srcList[NCHW_CONV_ADDR_LIST_SIZE],
                               const TransDataTo5HDParams& nchwconvParams, EMU_LOC) {
    using namespace ascendc_emu;
    trans5hd<T>(nchwconvParams, loc, [&](bool dst, int i, uint64_t off, bool write) -> uint8_t* {
        return ub_addr((uint64_t)(uintptr_t)(dst ? dstList : srcList)[i] + off, 32, write, "TransDataTo5HD", loc);
    });
}

// ---- Transpose (数据排布转换/Transpose.md): 16x16 of 2-byte elements, or [N,C,H,W] <-> [N,H,W,C] with a
// temporary buffer of (C + 2) (NCHW2NHWC) or (2C + 1) (NHWC2NCHW) blocks of h0 x w0 elements.
template <typename T>
inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, EMU_LOC) {
    using namespace ascendc_emu;
    static_assert(sizeof(T) == 2, "Transpose (16x16) supports 2-byte types: int16_t, uint16_t, half");
    begin_epoch(P_V);
    check_dtype<T>("Transpose", ASCENDC_EMU_DTYPES_Transpose_16x16, loc);
    bool ok = src.emu_check(0, 256, false, P_V, "Transpose", loc);
    ok = dst.emu_check(0, 256, true, P_V, "Transpose", loc) && ok;
    if (ok) transpose16(dst.ptr_, src.ptr_);
    trace_vec("Transpose", dtype_name<T>(), 256, 2, loc);
}
template <typename T>
inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                      const TransposeParamsExt& transposeParams, EMU_LOC) {
    using namespace ascendc_emu;
    const TransposeParamsExt& p = transposeParams;
    begin_epoch(P_V);
    if (p.transposeType == TransposeType::TRANSPOSE_ND2ND_B16) {
        if (sizeof(T) != 2) {
            report_error("dtype-unsupported", "api-dtype-unsupported", P_V, "Transpose", loc,
                         "Transpose TRANSPOSE_ND2ND_B16 needs a 2-byte type, not %s", cat_type<T>());
            return;
        }
        check_dtype<T>("Transpose", ASCENDC_EMU_DTYPES_Transpose_nd2nd_b16, loc);
        bool ok = src.emu_check(0, 256, false, P_V, "Transpose", loc);
        ok = dst.emu_check(0, 256, true, P_V, "Transpose", loc) && ok;
        if (ok) transpose16(dst.ptr_, src.ptr_);
        trace_vec("Transpose", dtype_name<T>(), 256, 2, loc);
        return;
    }
    if (p.transposeType != TransposeType::TRANSPOSE_NCHW2NHWC && p.transposeType != TransposeType::TRANSPOSE_NHWC2NCHW) {
        if (p.transposeType != TransposeType::TRANSPOSE_TYPE_NONE)
            report_error("transpose-type", "vector-param-invalid", P_V, "Transpose", loc,
                         "Transpose type %d is not supported by the basic Transpose (ND2ND_B16, NCHW2NHWC and "
                         "NHWC2NCHW are)", (int)p.transposeType);
        return;
    }
    check_dtype<T>("Transpose", ASCENDC_EMU_DTYPES_Transpose, loc);
    uint64_t hw = (uint64_t)p.hSize * p.wSize, n = p.nSize, c = p.cSize;
    if (c > 4095 || hw > 4095 || (hw * sizeof(T)) % 32)
        report_error("transpose-shape", "vector-param-invalid", P_V, "Transpose", loc,
                     "Transpose shape C=%u, H*W=%llu: C must be <= 4095, H*W <= 4095 and H*W*sizeof(T) a multiple "
                     "of 32 B (here %llu B)", (unsigned)c, (unsigned long long)hw,
                     (unsigned long long)(hw * sizeof(T)));
    bool nchw2nhwc = p.transposeType == TransposeType::TRANSPOSE_NCHW2NHWC;
    if (strcmp(soc_profile(), "Ascend310P")) {  // 310P needs no temporary buffer
        uint64_t h0 = sizeof(T) == 1 ? 32 : 16, w0 = 32 / sizeof(T);
        uint64_t need = (nchw2nhwc ? c + 2 : 2 * c + 1) * h0 * w0 * sizeof(T);
        sharedTmpBuffer.emu_check_bytes(0, need, true, P_V, "Transpose", loc);
    }
    uint64_t total = n * c * hw;
    bool ok = src.emu_check(0, total, false, P_V, "Transpose", loc);
    ok = dst.emu_check(0, total, true, P_V, "Transpose", loc) && ok;
    if (ok && total) {
        std::vector<uint8_t> in(src.ptr_, src.ptr_ + total * sizeof(T));
        for (uint64_t b = 0; b < n; b++)
            for (uint64_t ch = 0; ch < c; ch++)
                for (uint64_t s = 0; s < hw; s++) {
                    uint64_t nchw = (b * c + ch) * hw + s, nhwc = (b * hw + s) * c + ch;
                    uint64_t from = nchw2nhwc ? nchw : nhwc, to = nchw2nhwc ? nhwc : nchw;
                    memcpy(dst.ptr_ + to * sizeof(T), in.data() + from * sizeof(T), sizeof(T));
                }
    }
    trace_vec("Transpose", dtype_name<T>(), total, (total * sizeof(T) + 255) / 256, loc);
}
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_VECTOR_TRANSPOSE_H_

// Cases for tests/test_emulator_api_misc.py: compound and conversion ops, DEQSCALE, shifts, the Ascend950 ISASI
// ops, scalar APIs and vector APIs passed as function pointers (the Foreach kernels' pattern).
#include "api_case.h"

template <typename T>
using BinaryOp = void(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, const int32_t&);
template <typename T>
using UnaryOp = void(const LocalTensor<T>&, const LocalTensor<T>&, const int32_t&);
template <typename T>
using ScalarOp = void(const LocalTensor<T>&, const LocalTensor<T>&, const T&, const int32_t&);

template <typename T>
using BinaryOp0 = void(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<T>&, uint64_t, const uint8_t,
                       const BinaryRepeatParams&);
template <typename T, BinaryOp0<T>* op>
struct ApplyBinary0 {  // the Foreach level-0 pattern: src0 is one block broadcast over every repeat
    static void Run(const LocalTensor<T>& d, const LocalTensor<T>& x, uint8_t rep) {
        op(d, x, d, 256 / sizeof(T), rep, {1, 0, 1, 8, 0, 8});
    }
};
template <typename T, BinaryOp<T>* op>
struct ApplyBinary {
    static void Run(const LocalTensor<T>& d, const LocalTensor<T>& x, const LocalTensor<T>& y, int32_t n) { op(d, x, y, n); }
};
template <typename T, UnaryOp<T>* op>
struct ApplyUnary {
    static void Run(const LocalTensor<T>& d, const LocalTensor<T>& x, int32_t n) { op(d, x, n); }
};

// constant data of the kernel binary, as cann-ops' diag kernels keep their index tables
static const __gm__ int32_t kGmTable[64] = {
    0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45, 48, 51, 54, 57, 60, 63, 66, 69, 72, 75, 78, 81, 84, 87,
    90, 93, 96, 99, 102, 105, 108, 111, 114, 117, 120, 123, 126, 129, 132, 135, 138, 141, 144, 147, 150, 153, 156, 159,
    162, 165, 168, 171, 174, 177, 180, 183, 186, 189};

extern "C" __global__ __aicore__ void api_misc(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR o) {
    Ub ub;
    if (TILING_KEY_IS(1)) {  // MulAddRelu: dst = relu(src0 * dst + src1), float count form and mask form
        LocalTensor<float> x = ub.at<float>(0), y = ub.at<float>(1), d = ub.at<float>(2);
        load(x, a, 256);
        load(y, b, 256);
        load(d, c, 256);
        MulAddRelu(d, x, y, 128);
        MulAddRelu(d[128], x[128], y[128], (uint64_t)32, 2, {1, 1, 1, 8, 8, 8});
        store(o, d, 256);
    }
    if (TILING_KEY_IS(2)) {  // AddReluCast half -> int8, SubReluCast float -> half, MulCast half -> int8
        LocalTensor<half> x = ub.at<half>(0), y = ub.at<half>(1);
        LocalTensor<int8_t> d8 = ub.at<int8_t>(2), m8 = ub.at<int8_t>(4);
        LocalTensor<float> xf = ub.at<float>(3);
        load(x, a, 256);
        load(y, b, 256);
        AddReluCast(d8, x, y, 256);
        MulCast(m8, x, y, 256);
        Cast(xf, x, RoundMode::CAST_NONE, 256);
        PipeBarrier<PIPE_V>();
        LocalTensor<half> dh = ub.at<half>(1)[128];  // reuse: y's upper half is free after the calls above
        SubReluCast(dh, xf, xf[64], 64);
        store(o, d8, 256);
        store(o, m8, 256, 256);
        store(o, dh, 64, 512);
    }
    if (TILING_KEY_IS(3) || TILING_KEY_IS(4)) {  // Cast int32 -> half and AddDeqRelu scale by DEQSCALE
        LocalTensor<int32_t> x = ub.at<int32_t>(0), y = ub.at<int32_t>(1);
        LocalTensor<half> d = ub.at<half>(2), e = ub.at<half>(3);
        load(x, a, 64);
        load(y, b, 64);
        if (TILING_KEY_IS(3)) SetDeqScale((half)0.25f);  // case 4 forgets it
        Cast(d, x, RoundMode::CAST_NONE, 64);
        AddDeqRelu(e, x, y, 64);
        store(o, d, 64);
        store(o, e, 64, 128);
    }
    if (TILING_KEY_IS(5)) {  // CastDequant int16 -> int8 (scale 0.5, offset 3, signed), halfBlock layout
        LocalTensor<int16_t> x = ub.at<int16_t>(0);
        LocalTensor<int8_t> d = ub.at<int8_t>(1), p = ub.at<int8_t>(2);
        load(x, a, 64);
        fill(d.ReinterpretCast<int16_t>(), (int16_t)0x7f7f, 64);
        fill(p.ReinterpretCast<int16_t>(), (int16_t)0x7f7f, 64);
        SetDeqScale(0.5f, 3, true);
        CastDequant<int8_t, int16_t, false, true>(d, x, 64);
        CastDequant<int8_t, int16_t, false, false>(p, x, 64);
        store(o, d, 128);
        store(o, p, 64, 128);
    }
    if (TILING_KEY_IS(6)) {  // FusedMulAdd / MulAddDst / Axpy mask forms (bit mask), half
        LocalTensor<half> x = ub.at<half>(0), y = ub.at<half>(1), d1 = ub.at<half>(2), d2 = ub.at<half>(3),
                          d3 = ub.at<half>(4);
        load(x, a, 128);
        load(y, b, 128);
        load(d1, c, 128);
        load(d2, c, 128);
        load(d3, c, 128);
        uint64_t mask[2] = {0x00000000FFFFFFFFull, 0xFFFF000000000000ull};
        FusedMulAdd(d1, x, y, mask, 1, {1, 1, 1, 8, 8, 8});
        MulAddDst(d2, x, y, mask, 1, {1, 1, 1, 8, 8, 8});
        Axpy(d3, x, (half)0.5f, mask, 1, {1, 1, 8, 8});
        store(o, d1, 128);
        store(o, d2, 128, 256);
        store(o, d3, 128, 512);
    }
    if (TILING_KEY_IS(17) || TILING_KEY_IS(18)) {  // a static const __gm__ table: read it; 18 writes it (a fault)
        LocalTensor<int32_t> x = ub.at<int32_t>(0);
        GlobalTensor<int32_t> table;
        table.SetGlobalBuffer((__gm__ int32_t*)kGmTable, 64);
        DataCopy(x, table, 64);
        PipeBarrier<PIPE_ALL>();
        if (TILING_KEY_IS(18)) DataCopy(table, x, 64);
        store(o, x, 64);
    }
    if (TILING_KEY_IS(16)) {  // shifts by the element width: the sign fill / zero (the vector unit's rule)
        LocalTensor<int32_t> x = ub.at<int32_t>(0), d = ub.at<int32_t>(1), e = ub.at<int32_t>(2);
        load(x, a, 64);
        ShiftRight(d, x, (int32_t)32, 64);
        ShiftLeft(e, x, (int32_t)32, 64);
        store(o, d, 64);
        store(o, e, 64, 256);
    }
    if (TILING_KEY_IS(7)) {  // ShiftRight with rounding (level-0) and Duplicate from a tensor
        LocalTensor<int32_t> x = ub.at<int32_t>(0), d = ub.at<int32_t>(1), e = ub.at<int32_t>(2);
        load(x, a, 64);
        ShiftRight(d, x, 3, (uint64_t)64, 1, {1, 1, 8, 8}, true);
        Duplicate(e, x[8], 64);
        store(o, d, 64);
        store(o, e, 64, 256);
    }
    if (TILING_KEY_IS(8)) {  // Ascend950: shifts by a tensor, Neg, Mull, ExpSub, Truncate, Prelu, AbsSub,
                             // Interleave / DeInterleave
        LocalTensor<int32_t> x = ub.at<int32_t>(0), s = ub.at<int32_t>(1), d = ub.at<int32_t>(2);
        load(x, a, 64);
        load(s, b, 64);
        ShiftLeft(d, x, s, 16);
        ShiftRight(d[16], x[16], s[16], 16);
        Neg(d[32], x[32], 16);
        Mull(d[48], d[56], x[48], s[48], 8);
        LocalTensor<float> f = ub.at<float>(3), g = ub.at<float>(4);
        load(f, c, 64);
        Cast(g, x, RoundMode::CAST_NONE, 64);
        PipeBarrier<PIPE_V>();
        LocalTensor<float> r = g[64];
        ExpSub(r, f, g, 8);
        Truncate<float, RoundMode::CAST_FLOOR>(r[8], f[8], 8);
        Truncate<float, RoundMode::CAST_ROUND>(r[16], f[16], 8);
        Prelu(r[24], f[24], g[24], 8);
        AbsSub(r[32], f[32], g[32], 8);
        Interleave(r[64], r[72], f, f[8], 8);
        DeInterleave(r[80], r[88], f[16], 16);
        store(o, d, 64);
        store(o, r, 128, 256);
    }
    if (TILING_KEY_IS(9)) {  // function pointers and template arguments (Foreach pattern)
        LocalTensor<float> x = ub.at<float>(0), y = ub.at<float>(1), d = ub.at<float>(2);
        load(x, a, 256);
        load(y, b, 256);
        ApplyBinary<float, Div>::Run(d, x, y, 64);
        ApplyBinary<float, Max>::Run(d[64], x[64], y[64], 64);
        ApplyUnary<float, Exp>::Run(d[128], x[128], 64);
        ScalarOp<float>* muls = Muls;
        muls(d[192], x[192], 3.0f, 64);
        store(o, d, 256);
    }
    if (TILING_KEY_IS(10)) {  // a bug through a function pointer is reported at the previous API call's line
        LocalTensor<float> x = ub.at<float>(0), y = ub.at<float>(1), d = ub.at<float>(2);
        load(x, a, 256);
        load(y, b, 256);
        Duplicate(d, 0.0f, 64);
        ApplyBinary<float, Add>::Run(d, x, y, 16384);  // 64 KB: past the 32 KB buffers
    }
    if (TILING_KEY_IS(11)) {  // scalar APIs, results written with SetValue
        LocalTensor<float> f = ub.at<float>(0);
        LocalTensor<int64_t> i = ub.at<int64_t>(1);
        bfloat16_t bf = ToBfloat16(1.00390625f);  // exactly halfway between two bfloat16 values: RNE keeps 1.0
        f.SetValue(0, ToFloat(bf));
        f.SetValue(1, Cast(Cast(3.14159f)));
        f.SetValue(2, (float)ScalarCast<float, half, RoundMode::CAST_RINT>(0.1f));
        f.SetValue(3, (float)Cast<float, int32_t, RoundMode::CAST_ROUND>(-2.5f));
        f.SetValue(4, (float)Cast<float, int32_t, RoundMode::CAST_FLOOR>(-2.5f));
        i.SetValue(0, GetBitCount<1>(0xF0F0ull));
        i.SetValue(1, ScalarGetCountOfValue<0>(0xF0F0ull));
        i.SetValue(2, CountLeadingZero(0x0000F00000000000ull));
        i.SetValue(3, GetSFFValue<1>(0x1000000000000100ull));
        i.SetValue(4, GetSFFValue<0>(~0ull));
        i.SetValue(5, CountBitsCntSameAsSignBit(0x0100000000000020ll));
        i.SetValue(6, ScalarCountLeadingZero(0));
        Nop<4>();
        f.SetValue(5, ReadGmByPassDCache((__gm__ float*)a + 2));
        store(o, f, 8);
        store(o, i, 8, 256);
    }
    if (TILING_KEY_IS(12)) {  // whole-tensor operators: dst.GetSize() elements
        LocalTensor<float> x = ub.at<float>(0), y = ub.at<float>(1), d = ub.at<float>(2);
        LocalTensor<uint8_t> m = ub.at<uint8_t>(3);
        load(x, a, 256);
        load(y, b, 256);
        x.SetSize(256);
        y.SetSize(256);
        LocalTensor<float> d1 = d, d2 = d[64], d3 = d[128];
        d1.SetSize(64);
        d1 = x * y;
        d2.SetSize(64);
        d2 = x + y;
        d3.SetSize(128);
        d3 = x / y;
        m = x < y;
        store(o, ub.at<float>(2), 256);
        store(o, m, 32, 1024);
    }
    if (TILING_KEY_IS(13)) {  // CastDequant with vector quantisation: element i uses entry i % 16
        LocalTensor<int16_t> x = ub.at<int16_t>(0);
        LocalTensor<uint64_t> vdeq = ub.at<uint64_t>(1);
        LocalTensor<int8_t> d = ub.at<int8_t>(2);
        load(x, a, 64);
        VdeqInfo info;
        for (int j = 0; j < 16; j++) {
            info.vdeqScale[j] = 0.5f * (j + 1);
            info.vdeqOffset[j] = (int16_t)(j - 8);
            info.vdeqSignMode[j] = j % 2 == 0;
        }
        SetDeqScale(vdeq, info);
        s_to_v();
        CastDequant<int8_t, int16_t, true, false>(d, x, 64);
        store(o, d, 64);
    }
    if (TILING_KEY_IS(14)) {  // level-0 function pointer; a direct uint8_t-repeat call keeps its own line
        LocalTensor<float> x = ub.at<float>(0), d = ub.at<float>(1);
        load(x, a, 64);
        load(d, b, 256);
        ApplyBinary0<float, Sub>::Run(d, x, 4);  // d = x(block 0) - d
        uint8_t rep = 1;
        uint64_t badMask = 100;
        Mul(d, d, d, badMask, rep, {1, 1, 1, 8, 8, 8});  // 100 lanes of 64: mask-range
        store(o, d, 256);
    }
    if (TILING_KEY_IS(15)) {  // element types the running SoC lacks (per the catalogue's lists)
        LocalTensor<int8_t> i8 = ub.at<int8_t>(0);
        LocalTensor<float> f = ub.at<float>(1);
        Add(i8, i8, i8, 256);                      // Add has no int8_t form before Ascend950
        Cast(i8, f, RoundMode::CAST_RINT, 64);     // float -> int8_t is not a Cast pair on A2
        Cast(f, f, RoundMode::CAST_RINT, 64);      // float -> float (rounding to integral) is
    }
}
API_CASE_MAIN(api_misc)

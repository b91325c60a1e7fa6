// Cases for tests/test_emulator_api_reduce_cmp.py: the 9.1 reduce names, reduce mask forms and special
// registers; Compare / Compares / Select level-0 and register forms.
#include "api_case.h"

extern "C" __global__ __aicore__ void api_reduce_cmp(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR o) {
    Ub ub;
    // ---- reductions on float a[0..2048) or half
    if (TILING_KEY_IS(1)) {  // ReduceRepeat<SUM> half: 100 lanes x 3 repeats -> 3 sums
        LocalTensor<half> s = ub.at<half>(0), d = ub.at<half>(1);
        load(s, a, 1024);
        fill(d, (half)-1.0f, 64);
        ReduceRepeat<ReduceType::SUM, half>(d, s, 100, 3, 1, 1, 8);
        store(o, d, 64);
    }
    if (TILING_KEY_IS(2)) {  // ReduceRepeat<MAX> float [value, index] x 4 repeats, then the SPR
        LocalTensor<float> s = ub.at<float>(0), d = ub.at<float>(1), spr = ub.at<float>(2);
        load(s, a, 512);
        fill(d, -1.0f, 64);
        ReduceRepeat<ReduceType::MAX, float>(d, s, 64, 4, 1, 1, 8);
        v_to_s();
        float v = 0, i = 0, v2 = 0, i2 = 0;
        GetReduceRepeatMaxMinSpr<float>(v, i);
        GetReduceMaxMinCount<float>(v2, i2);
        spr.SetValue(0, v);
        spr.SetValue(1, i);
        spr.SetValue(2, v2);
        spr.SetValue(3, i2);
        store(o, d, 64);
        store(o, spr, 8, 256);
    }
    if (TILING_KEY_IS(3)) {  // ReduceRepeat<MIN> float ORDER_ONLY_INDEX (uint32 indices)
        LocalTensor<float> s = ub.at<float>(0), d = ub.at<float>(1);
        load(s, a, 512);
        fill(d, -1.0f, 64);
        ReduceRepeat<ReduceType::MIN, float>(d, s, 64, 4, 1, 1, 8, ReduceOrder::ORDER_ONLY_INDEX);
        store(o, d, 64);
    }
    if (TILING_KEY_IS(4)) {  // ReduceDataBlock<MAX> half, bit mask of every other lane, 2 repeats -> 16 results
        LocalTensor<half> s = ub.at<half>(0), d = ub.at<half>(1);
        load(s, a, 256);
        fill(d, (half)-1.0f, 32);
        uint64_t mask[2] = {0x5555555555555555ull, 0x5555555555555555ull};
        ReduceDataBlock<ReduceType::MAX, half>(d, s, mask, 2, 1, 1, 8);
        store(o, d, 32);
    }
    if (TILING_KEY_IS(5)) {  // ReducePairElem<SUM> float, 2 repeats -> 64 pair sums
        LocalTensor<float> s = ub.at<float>(0), d = ub.at<float>(1);
        load(s, a, 128);
        fill(d, -1.0f, 64);
        ReducePairElem<ReduceType::SUM, float>(d, s, 64, 2, 1, 1, 8);
        store(o, d, 64);
    }
    if (TILING_KEY_IS(6)) {  // RepeatReduceSum (pre-9.1 name): 4 repeats, dstRepStride 1
        LocalTensor<float> s = ub.at<float>(0), d = ub.at<float>(1);
        load(s, a, 256);
        fill(d, -1.0f, 8);
        RepeatReduceSum<float>(d, s, 4, 64, 0, 1, 1, 8);
        store(o, d, 8);
    }
    if (TILING_KEY_IS(7) || TILING_KEY_IS(8)) {  // ReduceMax mask form with index (work: 32 floats needed)
        LocalTensor<float> s = ub.at<float>(0), d = ub.at<float>(1), w = ub.at<float>(2);
        load(s, a, 512);
        fill(d, -1.0f, 8);
        ReduceMax(d, s, TILING_KEY_IS(7) ? w : w[SLOT / 4 - 8], 64, 8, 8, true);
        store(o, d, 8);
    }
    if (TILING_KEY_IS(9)) {  // ReduceMin bit mask, half, lanes 64..127 only, 3 repeats, with index
        LocalTensor<half> s = ub.at<half>(0), d = ub.at<half>(1), w = ub.at<half>(2);
        load(s, a, 512);
        fill(d, (half)-1.0f, 16);
        uint64_t mask[2] = {0, ~0ull};
        ReduceMin(d, s, w, mask, 3, 8, true);
        store(o, d, 16);
    }
    if (TILING_KEY_IS(10)) {  // ReduceSum count form + GetReduceRepeatSumSpr / GetAccVal; bit-mask ReduceSum
        LocalTensor<float> s = ub.at<float>(0), d = ub.at<float>(1), w = ub.at<float>(2), spr = ub.at<float>(3);
        load(s, a, 1024);
        fill(d, -1.0f, 16);
        ReduceSum(d, s, w, 1000);
        v_to_s();
        float sum = GetReduceRepeatSumSpr<float>();
        uint64_t acc = GetAccVal();
        float accf;
        memcpy(&accf, &acc, 4);
        spr.SetValue(0, sum);
        spr.SetValue(1, accf);
        s_to_v();
        uint64_t mask[2] = {0xFFull, 0};
        ReduceSum(d[8], s, w, mask, 2, 8);  // lanes 0..7 of 2 repeats
        store(o, d, 16);
        store(o, spr, 8, 256);
    }
    // ---- compare / select (float a, b)
    if (TILING_KEY_IS(20)) {  // Compare LT, mask 40, 2 repeats: A2 compares every lane, 310B the masked ones
        LocalTensor<float> x = ub.at<float>(0), y = ub.at<float>(1);
        LocalTensor<uint8_t> d = ub.at<uint8_t>(2);
        load(x, a, 128);
        load(y, b, 128);
        fill(d.ReinterpretCast<uint16_t>(), (uint16_t)0xAAAA, 32);
        Compare(d, x, y, CMPMODE::LT, (uint64_t)40, 2, {1, 1, 1, 8, 8, 8});
        store(o, d, 64);
    }
    if (TILING_KEY_IS(21)) {  // Compares GE 0.5 on half, 128 lanes x 2 repeats
        LocalTensor<half> x = ub.at<half>(0);
        LocalTensor<uint8_t> d = ub.at<uint8_t>(2);
        load(x, a, 256);
        Compares(d, x, (half)0.5f, CMPMODE::GE, (uint64_t)128, 2, {1, 1, 8, 8});
        store(o, d, 32);
    }
    if (TILING_KEY_IS(22)) {  // count form with a count that is not whole repeats: the tail stays unwritten
        LocalTensor<float> x = ub.at<float>(0), y = ub.at<float>(1);
        LocalTensor<uint8_t> d = ub.at<uint8_t>(2);
        load(x, a, 128);
        load(y, b, 128);
        fill(d.ReinterpretCast<uint16_t>(), (uint16_t)0xAAAA, 32);
        Compare(d, x, y, CMPMODE::GT, 100);
        store(o, d, 64);
    }
    if (TILING_KEY_IS(23)) {  // int32 compares EQ only on A2
        LocalTensor<int32_t> x = ub.at<int32_t>(0), y = ub.at<int32_t>(1);
        LocalTensor<uint8_t> d = ub.at<uint8_t>(2);
        load(x, a, 64);
        load(y, b, 64);
        Compare(d, x, y, CMPMODE::GT, (uint64_t)64, 1, {1, 1, 1, 8, 8, 8});
        store(o, d, 32);
    }
    if (TILING_KEY_IS(24)) {  // Compare into CMPMASK (float, lanes 0..31) then GetCmpMask
        LocalTensor<float> x = ub.at<float>(0), y = ub.at<float>(1);
        LocalTensor<uint8_t> d = ub.at<uint8_t>(2);
        load(x, a, 64);
        load(y, b, 64);
        fill(d.ReinterpretCast<uint16_t>(), (uint16_t)0xAAAA, 64);
        Compare(x, y, CMPMODE::LT, (uint64_t)32, {1, 1, 1, 8, 8, 8});
        GetCmpMask(d);
        store(o, d, 128);
    }
    if (TILING_KEY_IS(25)) {  // NaN / inf operands: every CMPMODE over 64 floats, results at 8-byte steps
        LocalTensor<float> x = ub.at<float>(0), y = ub.at<float>(1);
        LocalTensor<uint8_t> d = ub.at<uint8_t>(2);
        load(x, a, 64);
        load(y, b, 64);
        CMPMODE modes[6] = {CMPMODE::LT, CMPMODE::GT, CMPMODE::EQ, CMPMODE::LE, CMPMODE::GE, CMPMODE::NE};
        for (int k = 0; k < 6; k++) Compare(d[32 * k], x, y, modes[k], 64);
        store(o, d, 192);
    }
    if (TILING_KEY_IS(26)) {  // ReduceMax / ReduceMin mask forms with +-inf present
        LocalTensor<float> s = ub.at<float>(0), d = ub.at<float>(1), w = ub.at<float>(2);
        load(s, a, 256);
        fill(d, 0.0f, 8);
        ReduceMax(d, s, w, 64, 4, 8, true);
        ReduceMin(d[4], s, w, 64, 4, 8, true);
        store(o, d, 8);
    }
    // Select level-0, float: 40 lanes x 2 repeats; sel = c (bytes)
    if (TILING_KEY_IS(30) || TILING_KEY_IS(31) || TILING_KEY_IS(32)) {
        LocalTensor<float> x = ub.at<float>(0), y = ub.at<float>(1), d = ub.at<float>(3);
        LocalTensor<uint8_t> sel = ub.at<uint8_t>(2);
        load(x, a, 128);
        load(y, b, 128);
        load(sel, c, 32);
        fill(d, -1.0f, 128);
        BinaryRepeatParams p{1, 1, 1, 8, 8, 8};
        if (TILING_KEY_IS(30)) Select(d, sel, x, y, SELMODE::VSEL_CMPMASK_SPR, (uint64_t)40, 2, p);
        if (TILING_KEY_IS(31)) Select(d, sel, x, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, (uint64_t)40, 2, p);
        if (TILING_KEY_IS(32)) Select(d, sel, x, 7.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, (uint64_t)40, 2, p);
        store(o, d, 128);
    }
    // Select register forms: mode 0 after SetCmpMask(sel), mode 0 after a register Compare, mode 2 with the
    // selMask address in a tensor, mode 1 with the scalar loaded by SetCmpMask.
    if (TILING_KEY_IS(33) || TILING_KEY_IS(34) || TILING_KEY_IS(35) || TILING_KEY_IS(36)) {
        LocalTensor<float> x = ub.at<float>(0), y = ub.at<float>(1), d = ub.at<float>(3);
        LocalTensor<uint8_t> sel = ub.at<uint8_t>(2);
        LocalTensor<uint64_t> reg = ub.at<uint64_t>(4);
        load(x, a, 128);
        load(y, b, 128);
        load(sel, c, 32);
        fill(d, -1.0f, 128);
        BinaryRepeatParams p{1, 1, 1, 8, 8, 8};
        if (TILING_KEY_IS(33)) {
            SetCmpMask(sel);
            SetVectorMask<float>(64);
            Select<float, SELMODE::VSEL_CMPMASK_SPR>(d, x, y, 2, p);
        }
        if (TILING_KEY_IS(34)) {
            Compare(x, y, CMPMODE::GT, (uint64_t)64, p);
            SetVectorMask<float>(64);
            Select<float, SELMODE::VSEL_CMPMASK_SPR>(d, x, y, 2, p);
        }
        if (TILING_KEY_IS(35)) {
            reg.SetValue(0, sel.GetPhyAddr());
            s_to_v();
            SetCmpMask(reg);
            SetVectorMask<float>(64);
            Select<float, SELMODE::VSEL_TENSOR_TENSOR_MODE>(d, x, y, 2, p);
        }
        if (TILING_KEY_IS(36)) {
            LocalTensor<float> sc = reg.ReinterpretCast<float>();
            sc.SetValue(0, 9.0f);
            s_to_v();
            SetCmpMask(sc);
            SetVectorMask<float>(64);
            Select(d, sel, x, 2, p);
        }
        ResetMask();
        store(o, d, 128);
    }
}
API_CASE_MAIN(api_reduce_cmp)

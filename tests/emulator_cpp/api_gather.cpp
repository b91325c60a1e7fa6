// Cases for tests/test_emulator_api_gather.py: Gather, Scatter, GatherMask, CreateVecIndex, Arange, Copy.
#include "api_case.h"

template <class T>
__aicore__ inline void gather_count(GM_ADDR a, GM_ADDR b, GM_ADDR o, uint32_t base, uint32_t n) {
    Ub ub;
    LocalTensor<T> src = ub.at<T>(0), dst = ub.at<T>(2);
    LocalTensor<uint32_t> off = ub.at<uint32_t>(1);
    load(src, a, SLOT / sizeof(T));
    load(off, b, 256);
    fill(dst, (T)0, 512);
    Gather(dst, src, off, base, n);
    store(o, dst, 512);
}

extern "C" __global__ __aicore__ void api_gather(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR o) {
    if (TILING_KEY_IS(1)) gather_count<half>(a, b, o, 0, 200);
    if (TILING_KEY_IS(2)) gather_count<float>(a, b, o, 64, 256);
    if (TILING_KEY_IS(3) || TILING_KEY_IS(4) || TILING_KEY_IS(5) || TILING_KEY_IS(6)) {
        Ub ub;
        LocalTensor<float> src = ub.at<float>(0), dst = ub.at<float>(2);
        LocalTensor<uint32_t> off = ub.at<uint32_t>(1);
        load(src, a, 2048);
        load(off, b, 256);
        fill(dst, -1.0f, 1024);
        if (TILING_KEY_IS(3)) Gather(dst, src, off, 0, (uint64_t)40, 3, 16);  // 40 of 64 lanes, gap between repeats
        if (TILING_KEY_IS(4)) {
            uint64_t mask[2] = {0xF0F0F0F00F0F0F0Full, 0};
            Gather(dst, src, off, 0, mask, 2, 8);
        }
        if (TILING_KEY_IS(5)) {  // counter mode: 150 elements over 3 repeats
            SetMaskCount();
            SetVectorMask<float, MaskMode::COUNTER>(0, 150);
            Gather(dst, src, off, 0, (uint64_t)150, 1, 8);
            SetMaskNorm();
            ResetMask();
        }
        if (TILING_KEY_IS(6)) Gather(dst, src, off, 0, (uint32_t)256);  // offsets past the source buffer
        store(o, dst, 1024);
    }
    if (TILING_KEY_IS(7)) {  // Scatter (310B / 310P / 950 only): dst[off[i] / 4] = src[i]
        Ub ub;
        LocalTensor<float> src = ub.at<float>(0), dst = ub.at<float>(2);
        LocalTensor<uint32_t> off = ub.at<uint32_t>(1);
        load(src, a, 256);
        load(off, b, 256);
        fill(dst, -1.0f, 1024);
        Scatter(dst, src, off, (uint32_t)0, (uint32_t)256);
        store(o, dst, 1024);
    }
    // GatherMask, built-in patterns 1..7 on 160 halves (normal mode, repeatTimes 1 => 128 lanes; then counter
    // mode mask = 160 elements in one repeat): outputs at 256 * p, kept counts at 4096 + p.
    if (TILING_KEY_IS(10) || TILING_KEY_IS(11)) {
        Ub ub;
        LocalTensor<half> src = ub.at<half>(0), dst = ub.at<half>(1);
        LocalTensor<uint32_t> cnt = ub.at<uint32_t>(2);
        load(src, a, 256);
        fill(dst, (half)-1.0f, 16384);
        for (uint8_t p = 1; p <= 7; p++) {
            uint64_t kept = 0;
            if (TILING_KEY_IS(10)) GatherMask(dst[256 * p], src, p, false, 0, {1, 1, 8, 0}, kept);
            else GatherMask(dst[256 * p], src, p, true, 160, {1, 1, 8, 0}, kept);
            v_to_s();
            cnt.SetValue(p, (uint32_t)kept);
        }
        store(o, dst, 8 * 256);
        store(o, cnt, 8, 8 * 256 * 2);
    }
    // GatherMask with a tensor pattern (docs' example): half, counter mode, mask 70 per repeat, 2 repeats,
    // src0RepeatStride 4 blocks, src1RepeatStride 0.
    if (TILING_KEY_IS(12) || TILING_KEY_IS(13)) {
        Ub ub;
        LocalTensor<half> src = ub.at<half>(0), dst = ub.at<half>(1);
        LocalTensor<uint16_t> pat = ub.at<uint16_t>(2);
        LocalTensor<uint32_t> cnt = ub.at<uint32_t>(3);
        load(src, a, 512);
        load(pat, b, 64);
        fill(dst, (half)-1.0f, 512);
        uint64_t kept = 0;
        if (TILING_KEY_IS(12)) GatherMask(dst, src, pat, true, 70, {1, 2, 4, 0}, kept);
        else GatherMask(dst, src, pat, false, 0, {1, 3, 8, 1}, kept);  // normal mode, 3 repeats, pattern moves 32 B
        v_to_s();
        cnt.SetValue(0, (uint32_t)kept);
        store(o, dst, 512);
        store(o, cnt, 8, 512 * 2);
    }
    if (TILING_KEY_IS(14)) {  // in-place GatherMask (dst == src0), float, odd elements
        Ub ub;
        LocalTensor<float> src = ub.at<float>(0);
        load(src, a, 256);
        uint64_t kept = 0;
        GatherMask(src, src, (uint8_t)2, false, 0, {1, 4, 8, 0}, kept);
        store(o, src, 256);
    }
    if (TILING_KEY_IS(15)) {  // built-in pattern out of range
        Ub ub;
        LocalTensor<float> src = ub.at<float>(0);
        load(src, a, 256);
        uint64_t kept = 0;
        GatherMask(src, src, (uint8_t)8, false, 0, {1, 1, 8, 0}, kept);
        store(o, src, 256);
    }
    if (TILING_KEY_IS(16)) {  // bfloat16 GatherMask: not on 310P
        Ub ub;
        LocalTensor<bfloat16_t> src = ub.at<bfloat16_t>(0);
        load(src, a, 256);
        uint64_t kept = 0;
        GatherMask(src, src, (uint8_t)1, false, 0, {1, 1, 8, 0}, kept);
        store(o, src, 256);
    }
    // CreateVecIndex: int32 count form from 5, half count form from -3, int16 mask form (100 lanes, 2 repeats)
    if (TILING_KEY_IS(20)) {
        Ub ub;
        LocalTensor<int32_t> i32 = ub.at<int32_t>(0);
        LocalTensor<half> f16 = ub.at<half>(1);
        LocalTensor<int16_t> i16 = ub.at<int16_t>(2);
        fill(i32, (int32_t)-7, 512);
        fill(f16, (half)-7.0f, 512);
        fill(i16, (int16_t)-7, 512);
        CreateVecIndex(i32, (int32_t)5, 300);
        CreateVecIndex(f16, (half)-3.0f, 300);
        CreateVecIndex(i16, (int16_t)0, (uint64_t)100, 2, 1, 8);
        store(o, i32, 512);
        store(o, f16, 512, 4096);
        store(o, i16, 512, 6144);
    }
    // Arange / ArithProgression: float 0.1 + 0.3 i (300 terms), half 1 + 0.5 i (200 terms), int32 -5 + 3 i
    if (TILING_KEY_IS(21)) {
        Ub ub;
        LocalTensor<float> f = ub.at<float>(0);
        LocalTensor<half> h = ub.at<half>(1);
        LocalTensor<int32_t> i = ub.at<int32_t>(2);
        fill(f, -1.0f, 512);
        fill(h, (half)-1.0f, 512);
        fill(i, (int32_t)-1, 512);
        ArithProgression(f, 0.1f, 0.3f, 300);
        Arange(h, (half)1.0f, (half)0.5f, 200);
        ArithProgression<int32_t>(i, -5, 3, 130);
        store(o, f, 512);
        store(o, h, 512, 4096);
        store(o, i, 512, 8192);
    }
    // Copy mask forms (float): 40 lanes x 3 repeats, dst repeat stride 4 blocks (rows packed), then counter mode
    // with 144 elements in one repeat gathering the first block of each 8-block row (the docs' scenario 3).
    if (TILING_KEY_IS(30) || TILING_KEY_IS(31) || TILING_KEY_IS(32)) {
        Ub ub;
        LocalTensor<float> src = ub.at<float>(0), dst = ub.at<float>(1);
        load(src, a, 2048);
        fill(dst, -1.0f, 2048);
        if (TILING_KEY_IS(30)) Copy(dst, src, (uint64_t)40, 3, {1, 1, 4, 8});
        if (TILING_KEY_IS(31)) {
            SetMaskCount();
            SetVectorMask<float, MaskMode::COUNTER>(144);
            Copy<float, false>(dst, src, MASK_PLACEHOLDER, 1, {1, 8, 8, 8});
            SetMaskNorm();
            ResetMask();
        }
        if (TILING_KEY_IS(32)) Copy(dst, src, (uint32_t)512);  // count form: Ascend950 only
        store(o, dst, 2048);
    }
}
API_CASE_MAIN(api_gather)

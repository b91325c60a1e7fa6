// Cases for tests/test_emulator_api_layout.py: Transpose, TransDataTo5HD and the basic sort APIs.
#include "api_case.h"

template <class T>
__aicore__ inline void trans5hd_contiguous(GM_ADDR a, GM_ADDR o, bool high, bool implForm = false) {
    Ub ub;
    LocalTensor<T> src = ub.at<T>(0), dst = ub.at<T>(1);
    const uint32_t n = 512 / sizeof(T);  // 16 blocks of 32 B
    load(src, a, n);
    fill(dst.template ReinterpretCast<int16_t>(), (int16_t)0, 256);  // Duplicate has no 8-bit form on A2
    TransDataTo5HDParams p;
    p.repeatTimes = 1;
    p.dstHighHalf = high;
    p.srcHighHalf = high;
    uint64_t dl[16], sl[16];
    for (int i = 0; i < 16; i++) {
        dl[i] = dst[i * 32 / sizeof(T)].GetPhyAddr();
        sl[i] = src[i * 32 / sizeof(T)].GetPhyAddr();
    }
    if (implForm) {  // raw __ubuf__ pointer lists, as cann-ops kernels call TransDataTo5HDImpl
        __ubuf__ T* dp[16];
        __ubuf__ T* sp[16];
        for (int i = 0; i < 16; i++) {
            dp[i] = (__ubuf__ T*)dst.GetPhyAddr() + i * 32 / sizeof(T);
            sp[i] = (__ubuf__ T*)src.GetPhyAddr() + i * 32 / sizeof(T);
        }
        TransDataTo5HDImpl(dp, sp, p);
    } else {
        TransDataTo5HD<T>(dl, sl, p);
    }
    store(o, dst, n);
}

template <class T>
__aicore__ inline void load_transpose(GM_ADDR a, GM_ADDR o) {
    TPipe pipe;
    TBuf<TPosition::A1> l1;
    TBuf<TPosition::B2> l0b;
    TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(l1, 8192);
    pipe.InitBuffer(l0b, 8192);
    pipe.InitBuffer(ub, 8192);
    LocalTensor<T> s = l1.Get<T>(), d = l0b.Get<T>();
    LocalTensor<uint8_t> u = ub.Get<uint8_t>();
    const uint32_t frac = sizeof(T) == 2 ? 1 : 2;
    GlobalTensor<T> g;
    g.SetGlobalBuffer((__gm__ T*)a, 3 * frac * 512 / sizeof(T));
    DataCopy(s, g, 3 * frac * 512 / sizeof(T));
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    LoadData2dTransposeParams p(0, 3, 1, 0, 2);
    LoadDataWithTranspose(d, s, p);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<uint8_t> db = d.template ReinterpretCast<uint8_t>();
    for (uint32_t i = 0; i < 6 * 512; i++) u.SetValue(i, db.GetValue(i));
    store(o, u, 6 * 512);
}

extern "C" __global__ __aicore__ void api_layout(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR o) {
    if (TILING_KEY_IS(1)) trans5hd_contiguous<half>(a, o, false);
    if (TILING_KEY_IS(2)) trans5hd_contiguous<int8_t>(a, o, true);
    if (TILING_KEY_IS(3)) trans5hd_contiguous<int32_t>(a, o, false);
    if (TILING_KEY_IS(8)) trans5hd_contiguous<half>(a, o, false, true);
    // NCHW (C = 16, H*W = 64, half) -> NC1HWC0 with the documented list rule: src addresses one HW plane apart,
    // dst addresses one block apart, repeatTimes = HW / 16, srcRepStride 1, dstRepStride 16; address lists held
    // in LocalTensor<uint64_t> (the third form).
    if (TILING_KEY_IS(4)) {
        Ub ub;
        LocalTensor<half> src = ub.at<half>(0), dst = ub.at<half>(1);
        LocalTensor<uint64_t> dl = ub.at<uint64_t>(2), sl = ub.at<uint64_t>(3);
        load(src, a, 1024);
        for (int i = 0; i < 16; i++) {
            dl.SetValue(i, dst[i * 16].GetPhyAddr());
            sl.SetValue(i, src[i * 64].GetPhyAddr());
        }
        s_to_v();
        TransDataTo5HDParams p(false, false, 4, 16, 1);
        TransDataTo5HD<half>(dl, sl, p);
        store(o, dst, 1024);
    }
    // LocalTensor array form, float, two repeats (strides 16 blocks both sides).
    if (TILING_KEY_IS(5)) {
        Ub ub;
        LocalTensor<float> src = ub.at<float>(0), dst = ub.at<float>(1);
        load(src, a, 2048);
        fill(dst, 0.0f, 2048);
        LocalTensor<float> dl[16], sl[16];
        for (int i = 0; i < 16; i++) {
            dl[i] = dst[i * 8];
            sl[i] = src[i * 8];
        }
        TransDataTo5HDParams p(false, false, 2, 16, 16);
        TransDataTo5HD<float>(dl, sl, p);
        store(o, dst, 2048);
    }
    if (TILING_KEY_IS(6)) {  // one repeat with non-zero strides starts one stride in (the docs' rule)
        Ub ub;
        LocalTensor<half> src = ub.at<half>(0), dst = ub.at<half>(1);
        load(src, a, 512);
        fill(dst, (half)0, 512);
        uint64_t dl[16], sl[16];
        for (int i = 0; i < 16; i++) {
            dl[i] = dst[i * 16].GetPhyAddr();
            sl[i] = src[i * 16].GetPhyAddr();
        }
        TransDataTo5HDParams p(false, false, 1, 16, 16);
        TransDataTo5HD<half>(dl, sl, p);
        store(o, dst, 512);
    }
    if (TILING_KEY_IS(7)) {  // an address that is not in UB
        Ub ub;
        LocalTensor<half> src = ub.at<half>(0);
        load(src, a, 256);
        uint64_t dl[16], sl[16];
        for (int i = 0; i < 16; i++) {
            dl[i] = src[i * 16].GetPhyAddr();
            sl[i] = (uint64_t)(uintptr_t)a;  // a GM pointer
        }
        TransDataTo5HDParams p;
        TransDataTo5HD<half>(dl, sl, p);
    }
    // Transpose 16x16 (half) and [N,C,H,W] <-> [N,H,W,C] (float, N = 2, C = 3, H*W = 16)
    if (TILING_KEY_IS(10)) {
        Ub ub;
        LocalTensor<half> src = ub.at<half>(0), dst = ub.at<half>(1);
        load(src, a, 256);
        Transpose(dst, src);
        store(o, dst, 256);
    }
    if (TILING_KEY_IS(11) || TILING_KEY_IS(12) || TILING_KEY_IS(13)) {
        Ub ub;
        LocalTensor<float> src = ub.at<float>(0), dst = ub.at<float>(1);
        LocalTensor<uint8_t> tmp = ub.at<uint8_t>(2);
        load(src, a, 96);
        fill(dst, -1.0f, 128);
        TransposeParamsExt p(2, 3, 4, 4, TILING_KEY_IS(12) ? TransposeType::TRANSPOSE_NHWC2NCHW
                                                           : TransposeType::TRANSPOSE_NCHW2NHWC);
        // NCHW2NHWC needs (C + 2) * 16 * 8 floats = 2560 B of tmp; case 13 passes 1024 B
        Transpose(dst, src, TILING_KEY_IS(13) ? tmp[SLOT - 1024] : tmp, p);
        store(o, dst, 128);
    }
    // Sort32 (float then half): 2 repeats of 32 (score, index)
    if (TILING_KEY_IS(20) || TILING_KEY_IS(21)) {
        Ub ub;
        LocalTensor<uint32_t> idx = ub.at<uint32_t>(1);
        load(idx, b, 64);
        if (TILING_KEY_IS(20)) {
            LocalTensor<float> s = ub.at<float>(0), d = ub.at<float>(2);
            load(s, a, 64);
            Sort32(d, s, idx, 2);
            store(o, d, 128);
        } else {
            LocalTensor<half> s = ub.at<half>(0), d = ub.at<half>(2);
            load(s, a, 64);
            fill(d, (half)0, 256);
            Sort32(d, s, idx, 2);
            store(o, d, 256);
        }
    }
    // Sort32 over 4 x 32, then MrgSort of the 4 lists (validBit 15, 1 repeat) -> 128 sorted records
    if (TILING_KEY_IS(22) || TILING_KEY_IS(23) || TILING_KEY_IS(24) || TILING_KEY_IS(25)) {
        Ub ub;
        LocalTensor<float> s = ub.at<float>(0), w = ub.at<float>(2), d = ub.at<float>(3);
        LocalTensor<uint32_t> idx = ub.at<uint32_t>(1);
        LocalTensor<uint16_t> cnt = ub.at<uint16_t>(4);
        load(s, a, 256);
        load(idx, b, 256);
        Sort32(w, s, idx, 8);  // 8 sorted lists of 32 records (64 floats each)
        PipeBarrier<PIPE_V>();
        MrgSort4Info info;
        for (int i = 0; i < 4; i++) info.elementLengths[i] = 32;
        info.validBit = 15;
        if (TILING_KEY_IS(23)) info.repeatTimes = 2;  // two independent merges of 4 lists
        if (TILING_KEY_IS(24)) {                    // lists of 32, 5, 32 and suspension: stops at the short one
            info.elementLengths[1] = 5;
            info.ifExhaustedSuspension = true;
            info.validBit = 7;
        }
        if (TILING_KEY_IS(25)) info.validBit = 5;
        fill(d, -1.0f, 512);
        MrgSortSrcList<float> list(w, w[64], w[128], w[192]);
        MrgSort(d, list, info);
        uint16_t c1 = 0, c2 = 0, c3 = 0, c4 = 0;
        GetMrgSortResult(c1, c2, c3, c4);
        cnt.SetValue(0, c1);
        cnt.SetValue(1, c2);
        cnt.SetValue(2, c3);
        cnt.SetValue(3, c4);
        store(o, d, 512);
        store(o, cnt, 16, 4096);
    }
    // Region proposals on 310P (half): ProposalConcat of 5 coordinate rows, RpSort16, ProposalExtract of scores,
    // and MrgSort4 of two sorted groups of 16.
    if (TILING_KEY_IS(30)) {
        Ub ub;
        LocalTensor<half> rows = ub.at<half>(0), prop = ub.at<half>(1), sorted = ub.at<half>(2), out = ub.at<half>(3);
        LocalTensor<half> merged = ub.at<half>(4);
        load(rows, a, 6 * 32);
        fill(prop, (half)0, 512);
        for (int m = 0; m < 6; m++) ProposalConcat(prop, rows[m * 32], 2, m);  // 32 proposals
        PipeBarrier<PIPE_V>();
        RpSort16(sorted, prop, 2);
        PipeBarrier<PIPE_V>();
        ProposalExtract(out, sorted, 2, 4);
        MrgSort4Info info;
        info.elementLengths[0] = 16;
        info.elementLengths[1] = 16;
        info.validBit = 3;
        MrgSort4(merged, MrgSortSrcList<half>(sorted, sorted[128], sorted, sorted), info);
        store(o, sorted, 256);
        store(o, out, 32, 1024);
        store(o, merged, 256, 2048);
    }
    // LoadDataWithTranspose L1 -> L0B: 3 squares (b8 / b16 / b32 by case), srcStride 1, dstGap 0, dstFracGap 2
    // (b8/b32: the second fractal of each square lands 3 fractals after the first); read back with GetValue.
    if (TILING_KEY_IS(40)) load_transpose<int8_t>(a, o);
    if (TILING_KEY_IS(41)) load_transpose<half>(a, o);
    if (TILING_KEY_IS(42)) load_transpose<float>(a, o);
}
API_CASE_MAIN(api_layout)

// Cases for tests/test_emulator_op_kernel_compat.py: symbols the public op libraries' kernels call besides the
// documented AscendC API (ascendc_emu/op_kernel_compat.h), each run as those kernels use it.
#include "api_case.h"

static_assert(std::is_same<AscendC::Conditional<true, float, half>::type, float>::value &&
                  std::is_same<AscendC::Conditional<false, float, half>::type, half>::value,
              "Conditional");
// TQueConfig as TQue简介.md's example builds it: a constexpr function returning the aggregate, passed by address
__aicore__ constexpr TQueConfig MakeQueConfig(uint32_t bufferNumber, const TPosition consumer[]) {
    return {false, false, false, 0, bufferNumber, 0, {consumer[0], consumer[1], consumer[2], consumer[3], consumer[4],
                                                     consumer[5], consumer[6], consumer[7]}};
}
constexpr TPosition kConsumers[8] = {TPosition::MAX, TPosition::MAX, TPosition::MAX, TPosition::MAX,
                                     TPosition::MAX, TPosition::MAX, TPosition::MAX, TPosition::MAX};
constexpr TQueConfig kQueConfig = MakeQueConfig(1, kConsumers);
static_assert(kQueConfig.bufferNumber == 1 && !kQueConfig.nd2nz, "TQueConfig");
static_assert(AscendC::AIV == AIV && AscendC::AIC == AIC, "core types in AscendC");
static_assert(BRCB_BROADCAST_NUMBER == 8, "Brcb.md: 8 elements per repeat");
// the kernel-side tiling with srcM / srcK as numbers equals the documented SoftMaxShapeInfo form
static_assert(SoftMaxFlashV2TilingFuncImpl(8, 64, 4, 4, 8192, false, true).splitM ==
                  SoftMaxFlashV2TilingFunc(SoftMaxShapeInfo{8, 64, 8, 64}, 4, 4, 8192, false, true).splitM &&
              SoftMaxFlashV2TilingFuncImpl(8, 64, 4, 4, 8192).reduceSize ==
                  SoftMaxFlashV2TilingFunc(SoftMaxShapeInfo{8, 64, 8, 64}, 4, 4, 8192).reduceSize,
              "SoftMaxFlashV2TilingFuncImpl");

// A TBuf passed by value, as grid_sample's initBufTensor takes its mask buffers: the copy writes the original's memory
inline void write_pattern(TBuf<TPosition::VECCALC> buf, uint32_t v) {
    LocalTensor<uint32_t> t = buf.Get<uint32_t>();
    for (uint32_t i = 0; i < 8; i++) t.SetValue(i, v + i);
    buf.FreeTensor(t);
}

extern "C" __global__ __aicore__ void op_kernel_compat(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR o) {
    if (TILING_KEY_IS(1)) {  // PopStackBuffer: the UB left after the TPipe buffers, usable as a tensor
        Ub ub;
        LocalTensor<float> rest;
        bool ok = PopStackBuffer<float, TPosition::LCM>(rest);
        fill(rest, 3.0f, rest.GetSize());
        LocalTensor<float> r = ub.at<float>(0);
        DataCopy(r, rest, 64);
        PipeBarrier<PIPE_V>();
        v_to_s();
        r.SetValue(0, (float)ok);
        r.SetValue(1, (float)rest.GetSize());
        store(o, r, 64);
    }
    if (TILING_KEY_IS(2)) {  // VA registers + scatter_vnchwconv_b16: a 16 x 16 half transpose (add_layer_norm)
        Ub ub;
        LocalTensor<half> x = ub.at<half>(0), y = ub.at<half>(1);
        load(x, a, 256);
        __ubuf__ half* src = (__ubuf__ half*)x.GetPhyAddr();
        __ubuf__ half* dst = (__ubuf__ half*)y.GetPhyAddr();
        uint64_t d0[8], d1[8], s0[8], s1[8];
        for (int i = 0; i < 8; i++) {
            d0[i] = (uint64_t)(dst + 16 * i);
            d1[i] = (uint64_t)(dst + 16 * (i + 8));
            s0[i] = (uint64_t)(src + 16 * i);
            s1[i] = (uint64_t)(src + 16 * (i + 8));
        }
        set_va_reg_sb(VA0, d0);
        set_va_reg_sb(VA1, d1);
        set_va_reg_sb(VA2, s0);
        set_va_reg_sb(VA3, s1);
        scatter_vnchwconv_b16(VA0, VA2, 1, 0, 0);
        store(o, y, 256);
    }
    if (TILING_KEY_IS(3)) {  // get_max_min_cnt after a ReduceMax (add_layer_norm_quant's ReduceMaxFP32)
        Ub ub;
        LocalTensor<float> x = ub.at<float>(0), w = ub.at<float>(1), d = ub.at<float>(2);
        load(x, a, 200);
        ReduceMax(d, x, w, 200, true);
        v_to_s();
        uint64_t reg = get_max_min_cnt();
        LocalTensor<uint32_t> r = ub.at<uint32_t>(3);
        r.SetValue(0, (uint32_t)reg);
        r.SetValue(1, (uint32_t)(reg >> 32));
        store(o, r, 8);
    }
    if (TILING_KEY_IS(4)) {  // DeQue() without a type: the kernel goes on with the tensor it allocated (grid_sample)
        TPipe pipe;
        TQue<TPosition::VECIN, 1, &kQueConfig> q;  // the const TQueConfig* form of the mask parameter
        pipe.InitBuffer(q, 1, 256);
        LocalTensor<float> t = q.AllocTensor<float>();
        GlobalTensor<float> g;
        g.SetGlobalBuffer((__gm__ float*)a, 64);
        DataCopy(t, g, 64);
        q.EnQue(t);
        q.DeQue();
        Adds(t, t, 1.0f, 64);
        store(o, t, 64);
        q.FreeTensor(t);
    }
    if (TILING_KEY_IS(5)) {  // the SDK's raw-pointer forms (ge_glu_v2's MemSetZero, linear_index's pad copy)
        Ub ub;
        LocalTensor<float> x = ub.at<float>(0), z = ub.at<float>(1);
        DataCopyPadExtParams<float> pad{true, 0, 3, 0.0f};
        DataCopyPadGm2UBImpl((__ubuf__ float*)x.GetPhyAddr(), (__gm__ float*)a, DataCopyExtParams{1, 20, 0, 0, 0}, pad);
        DuplicateImpl<float>((__ubuf__ float*)z.GetPhyAddr(), 2.5f, 16);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        Add(z, z, x, 8);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        DataCopyUB2GMImpl((__gm__ float*)o, (__ubuf__ float*)z.GetPhyAddr(), {1, 2, 0, 0});
        DataCopyPadUB2GMImpl((__gm__ float*)(o + 64), (__ubuf__ float*)x.GetPhyAddr(), DataCopyExtParams{1, 12, 0, 0, 0});
    }
    if (TILING_KEY_IS(6)) {  // TransDataTo5HDImpl with lists of UB pointers (layer_norm_v4's transpose)
        Ub ub;
        LocalTensor<half> x = ub.at<half>(0), y = ub.at<half>(1);
        load(x, a, 256);
        __ubuf__ half* src = (__ubuf__ half*)x.GetPhyAddr();
        __ubuf__ half* dst = (__ubuf__ half*)y.GetPhyAddr();
        __ubuf__ half* srcList[16];
        __ubuf__ half* dstList[16];
        for (int i = 0; i < 16; i++) {
            srcList[i] = src + 16 * i;
            dstList[i] = dst + 16 * i;
        }
        TransDataTo5HDParams params;
        params.repeatTimes = 1;
        TransDataTo5HDImpl(dstList, srcList, params);
        store(o, y, 256);
    }
    if (TILING_KEY_IS(7)) {  // a TBuf copied into a helper
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 256);
        write_pattern(buf, 40);
        store(o, buf.Get<uint32_t>(), 8);
    }
}
API_CASE_MAIN(op_kernel_compat)

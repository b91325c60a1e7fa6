// Cases for tests/test_emulator_compat.py: constructs public kernels write that the emulator must take as the NPU
// build does (overload resolution, names the SDK declares at global scope, register-configured copies).
#include "api_case.h"

// QuantMode_t is named unqualified by kernels (the L0C-to-GM DataCopy doc's example).
static_assert(QuantMode_t::NoQuant == 0 && QuantMode_t::F322F16 == 1, "QuantMode_t at global scope");

inline void mte2_to_mte3() {
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
}

// AscendC::Std (Utils-API/CPP标准库): traits usable in constant expressions, as the docs' examples use them
static_assert(AscendC::Std::is_same_v<AscendC::Std::add_const_t<int>, const int>, "add_const_t");
static_assert(AscendC::Std::conditional_t<true, AscendC::Std::Int<3>, AscendC::Std::Int<4>>::value == 3, "Int");
static_assert(AscendC::Std::max(3u, 5u) == 5u && AscendC::Std::min(3u, 5u) == 3u && AscendC::Std::abs(-2) == 2, "");

extern "C" __global__ __aicore__ void api_compat(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR o) {
    Ub ub;
    if (TILING_KEY_IS(1)) {  // four-value brace lists are DataCopyParams (the devkit's fmod / cumsum samples)
        GlobalTensor<float> src, dst;
        src.SetGlobalBuffer((__gm__ float*)a, 100);
        dst.SetGlobalBuffer((__gm__ float*)o, 100);
        LocalTensor<float> x = ub.at<float>(0);
        DataCopyPadParams padParams;
        DataCopyPad(x, src, {1, static_cast<uint16_t>(100 * sizeof(float)), 0, 0}, padParams);
        mte2_to_mte3();
        DataCopyPad(dst, x, {1, static_cast<uint16_t>(100 * sizeof(float)), 0, 0});
    }
    if (TILING_KEY_IS(2) || TILING_KEY_IS(3)) {  // isPad false: SetPadValue fills the padding (case 2), else
        LocalTensor<half> x = ub.at<half>(0);      // the padding keeps what UB held (case 3)
        fill(x, (half)7.0f, 64);
        SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
        GlobalTensor<half> src;
        src.SetGlobalBuffer((__gm__ half*)a, 20);
        DataCopyExtParams copyParams{1, 20 * sizeof(half), 0, 0, 0};
        DataCopyPadExtParams<half> padParams;
        padParams.isPad = false;
        padParams.leftPadding = 2;
        padParams.rightPadding = 10;
        if (TILING_KEY_IS(2)) SetPadValue((half)1.0f);
        DataCopyPad(x, src, copyParams, padParams);
        mte2_to_mte3();
        GlobalTensor<half> dst;
        dst.SetGlobalBuffer((__gm__ half*)o, 64);
        DataCopy(dst, x, 64);
    }
    if (TILING_KEY_IS(4)) {  // Std::max sizes a buffer at run time; a Std::tuple carries three offsets
        GlobalTensor<uint32_t> g;
        g.SetGlobalBuffer((__gm__ uint32_t*)a, 8);
        uint32_t tile = g.GetValue(0), last = g.GetValue(1);
        AscendC::Std::tuple<uint32_t, uint32_t, int64_t> t = AscendC::Std::make_tuple(tile, last, (int64_t)-7);
        LocalTensor<uint32_t> r = ub.at<uint32_t>(0);
        fill(r, 0u, 8);
        v_to_s();
        r.SetValue(0, AscendC::Std::max(tile, last));
        r.SetValue(1, AscendC::Std::min(AscendC::Std::get<0>(t), AscendC::Std::get<1>(t)));
        r.SetValue(2, (uint32_t)AscendC::Std::abs(AscendC::Std::get<2>(t)));
        store(o, r, 8);
    }
    if (TILING_KEY_IS(6)) {  // vcadd(nullptr, src, ...): the sum of every repeat into the accumulator (GetAccVal)
        LocalTensor<float> x = ub.at<float>(0);
        load(x, a, 128);
        vcadd(nullptr, (__ubuf__ float*)x.GetPhyAddr(), 2, 1, 1, 8, true);
        uint64_t acc = GetAccVal();
        float sum;
        memcpy(&sum, &acc, sizeof(float));
        LocalTensor<float> r = ub.at<float>(1);
        fill(r, 0.0f, 8);
        v_to_s();
        r.SetValue(0, sum);
        store(o, r, 8);
    }
#if __NPU_ARCH__ == 3510
    if (TILING_KEY_IS(5)) {  // Ascend 950's system constants and the run-time UB size
        static_assert(GetUBSizeInBytes() == 248 * 1024 && GetVecLen() == 256, "950 constants");
        LocalTensor<uint32_t> r = ub.at<uint32_t>(0);
        fill(r, 0u, 8);
        v_to_s();
        r.SetValue(0, GetRuntimeUBSize());
        r.SetValue(1, GetVecLen() / sizeof(float));
        store(o, r, 8);
    }
#endif
}
API_CASE_MAIN(api_compat)

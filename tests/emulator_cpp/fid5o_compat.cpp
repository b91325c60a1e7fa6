// Cases for tests/test_fid5o_compat.py: op-library symbols of ascendc_emu/op_kernel_compat.h that need several
// blocks (IBSet / IBWait) or a by-value queue, run as the public kernels use them.
#include "api_case.h"

static_assert(inc == 0 && dec == 1, "LoadData_2D.md addrMode: 0 increments, 1 decrements");
constexpr uint32_t kBlocks = 4;
constexpr uint32_t kPer = 8;  // floats each block owns: one 32-byte DataBlock

// A TQue passed by value, as apply_fused_ema_adam's ScalarPow takes its input queue: the copy's AllocTensor /
// EnQue / DeQue / FreeTensor act on the original queue, which the caller keeps using afterwards.
inline void scale_through(TQue<TPosition::VECIN, 1> que, GM_ADDR src, float k, const LocalTensor<float>& dst) {
    LocalTensor<float> t = que.AllocTensor<float>();
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float*)src, kPer);
    DataCopy(t, g, kPer);
    que.EnQue(t);
    LocalTensor<float> d = que.DeQue<float>();
    Muls(dst, d, k, kPer);
    que.FreeTensor(d);
}

// Case 1: a chain across blocks, as TopK's sample orders its cores: block i waits for block i-1's flag, adds its own
// slice to block i-1's result, stores it and releases block i+1. Out slice i = a[0] + ... + a[i].
// Case 2: block 0 waits on a flag no block sets: the hang the NPU would show.
// Case 4: ffts_cross_core_sync mode 0 (all vector cores) + wait_flag_dev as stft spells them: each block stores
// its slice, sets flag 5, waits, then copies the whole of what the 4 blocks stored to its own output row; a
// wait_flag_dev on flag 1, which only the (not emulated) cube side raises, returns at once.
// Case 5: ParamOffset<float>(o, 8) is block idx's slice of o: each block fills its own with its index.
// Case 3 (block 0 only): scale_through on a by-value copy, twice, then the original queue's own hand-off.
extern "C" __global__ __aicore__ void fid5o_compat(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR o) {
    (void)c;
    const int32_t idx = (int32_t)GetBlockIdx();
    GlobalTensor<int32_t> sync_gm;
    sync_gm.SetGlobalBuffer((__gm__ int32_t*)b, 256);
    Ub ub;
    LocalTensor<int32_t> sync_buf = ub.at<int32_t>(3);
    if (TILING_KEY_IS(1)) {
        LocalTensor<float> acc = ub.at<float>(0), mine = ub.at<float>(1);
        if (idx > 0) {
            IBWait(sync_gm, sync_buf, idx - 1, 0);
            load(acc, o + (idx - 1) * kPer * sizeof(float), kPer);
        } else {
            fill(acc, 0.0f, kPer);
        }
        load(mine, a + idx * kPer * sizeof(float), kPer);
        Add(acc, acc, mine, kPer);
        store(o, acc, kPer, idx * kPer * sizeof(float));
        IBSet(sync_gm, sync_buf, idx, 0);
    } else if (TILING_KEY_IS(2)) {
        if (idx == 0) IBWait(sync_gm, sync_buf, 1, 3);
    } else if (TILING_KEY_IS(4)) {
        LocalTensor<float> mine = ub.at<float>(0), all = ub.at<float>(1);
        load(mine, a + idx * kPer * sizeof(float), kPer);
        store(o, mine, kPer, idx * kPer * sizeof(float));
        ffts_cross_core_sync(PIPE_MTE3, 1 | (0ull << 4) | (5ull << 8));
        wait_flag_dev(5);
        wait_flag_dev(1);
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);  // this block's own store before it reads the GM back
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        load(all, o, kBlocks * kPer);
        store(o, all, kBlocks * kPer, (1 + idx) * kBlocks * kPer * sizeof(float));
    } else if (TILING_KEY_IS(5)) {
        LocalTensor<float> t = ub.at<float>(0);
        fill(t, (float)idx, kPer);
        store(ParamOffset<float>(o, kPer), t, kPer);
    } else if (TILING_KEY_IS(3)) {
        if (idx != 0) return;
        TQue<TPosition::VECIN, 1> que;
        ub.pipe.InitBuffer(que, 1, kPer * sizeof(float));
        LocalTensor<float> r = ub.at<float>(0);
        scale_through(que, a, 2.0f, r);
        scale_through(que, a, 3.0f, r[kPer]);  // the slot the first copy freed is free again in the original
        LocalTensor<float> t = que.AllocTensor<float>();
        Duplicate(t, 7.0f, kPer);
        que.EnQue(t);
        LocalTensor<float> d = que.DeQue<float>();
        Adds(r[2 * kPer], d, 0.0f, kPer);
        que.FreeTensor(d);
        store(o, r, 3 * kPer);
        if (que.HasTensorInQue() || !que.HasIdleBuffer()) Duplicate(r, -1.0f, kPer);
    }
}

int main(int argc, char** argv) {
    ascendc_emu::Harness h(argc, argv);
    GM_ADDR a = h.Input("a");
    GM_ADDR b = h.Input("b");
    GM_ADDR c = h.Input("c");
    GM_ADDR o = h.Output("out", OUT_BYTES);
    h.Launch(kBlocks, [&] { fid5o_compat(a, b, c, o); });
    return h.Finish();
}

// Cases for tests/test_fid5o_compat.py: op-library symbols of ascendc_emu/op_kernel_compat.h that need several
// blocks (IBSet / IBWait) or a by-value queue, run as the public kernels use them.
#include "api_case.h"

constexpr uint32_t kBlocks = 4;
constexpr uint32_t kPer = 8;  // floats each block owns: one 32-byte DataBlock

// Case 1: a chain across blocks, as TopK's sample orders its cores: block i waits for block i-1's flag, adds its own
// slice to block i-1's result, stores it and releases block i+1. Out slice i = a[0] + ... + a[i].
// Case 2: block 0 waits on a flag no block sets: the hang the NPU would show.
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

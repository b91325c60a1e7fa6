// Small harness for the basic-API tests (tests/test_emulator_api_*.py): one binary per API family, one case per
// tiling key (`--tiling-key N`). Inputs a.bin, b.bin, c.bin are written by the test; every case writes its results
// to the output `out` (OUT_BYTES), which the test compares with NumPy.
#include "ascendc_emu/harness.h"
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t SLOT = 32 * 1024;    // bytes of each UB scratch tensor
constexpr uint32_t OUT_BYTES = 64 * 1024;

// Five separate 32 KB UB buffers, so an API that runs past its operand is caught by the bounds checks.
struct Ub {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf[5];
    Ub() {
        for (auto& b : buf) pipe.InitBuffer(b, SLOT);
    }
    template <class T>
    LocalTensor<T> at(int slot) { return buf[slot].Get<T>(); }
};

// GM <-> UB with the syncs a correct kernel needs (the race detector checks them).
template <class T>
inline void load(const LocalTensor<T>& t, GM_ADDR g, uint32_t n) {
    GlobalTensor<T> gt;
    gt.SetGlobalBuffer((__gm__ T*)g, n);
    DataCopy(t, gt, n);  // n * sizeof(T) is a multiple of 32 B in every case
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
}
template <class T>
inline void store(GM_ADDR g, const LocalTensor<T>& t, uint32_t n, uint32_t gm_byte_offset = 0) {
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
    GlobalTensor<T> gt;
    gt.SetGlobalBuffer((__gm__ T*)(g + gm_byte_offset), n);
    DataCopy(gt, t, n);
    SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);
    SetFlag<HardEvent::MTE3_S>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_S>(EVENT_ID0);
}
// Vector results read by scalar code, and scalar writes read by vector code.
inline void v_to_s() {
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
}
inline void s_to_v() {
    SetFlag<HardEvent::S_V>(EVENT_ID0);
    WaitFlag<HardEvent::S_V>(EVENT_ID0);
}
// Fills a UB tensor with a value so untouched elements are recognisable in the output.
template <class T>
inline void fill(const LocalTensor<T>& t, T v, uint32_t n) {
    Duplicate(t, v, (int32_t)n);
    PipeBarrier<PIPE_V>();
}

#define API_CASE_MAIN(KERNEL)                                                                               \
    int main(int argc, char** argv) {                                                                       \
        ascendc_emu::Harness h(argc, argv);                                                                 \
        GM_ADDR a = h.Input("a");                                                                           \
        GM_ADDR b = h.Input("b");                                                                           \
        GM_ADDR c = h.Input("c");                                                                           \
        GM_ADDR o = h.Output("out", OUT_BYTES);                                                             \
        h.Launch(1, [&] { KERNEL(a, b, c, o); });                                                           \
        return h.Finish();                                                                                  \
    }

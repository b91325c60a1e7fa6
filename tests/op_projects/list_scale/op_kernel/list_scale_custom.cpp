// Our own test op (not public code): reads the tensor-list descriptor of its dynamic input/output the way op
// libraries do (word 0: offset of the address table; then the addresses), one block per tensor.
#include "kernel_operator.h"

template <typename T>
__aicore__ inline __gm__ T* TensorAt(GM_ADDR list, uint32_t index)
{
    AscendC::GlobalTensor<uint64_t> words;
    words.SetGlobalBuffer((__gm__ uint64_t*)list);
    uint64_t table = words.GetValue(0) / sizeof(uint64_t);
    return reinterpret_cast<__gm__ T*>(words.GetValue(table + index));
}

extern "C" __global__ __aicore__ void list_scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    uint32_t i = AscendC::GetBlockIdx();
    if (i >= t.tensorNum) return;
    uint32_t len = t.lengths[i];
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer(TensorAt<float>(x, i), len);
    yg.SetGlobalBuffer(TensorAt<float>(y, i), len);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, len * sizeof(float));
    AscendC::LocalTensor<float> l = buf.Get<float>();
    AscendC::DataCopy(l, xg, len);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::Muls(l, l, 2.0f, len);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::DataCopy(yg, l, len);
}

// Our own test op (not public code): y = x * x (or -(x * x)); 4 blocks share the rows.
#include "kernel_operator.h"
#include "op_helpers/tile_math.h"
#include "square_custom_tiling.h"

extern "C" __global__ __aicore__ void square_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(SquareCustomTilingData);
    GET_TILING_DATA(t, tiling);
    uint32_t perBlock = CeilDivU32(t.totalLength, AscendC::GetBlockNum());
    uint32_t start = perBlock * AscendC::GetBlockIdx();
    uint32_t end = start + perBlock < t.totalLength ? start + perBlock : t.totalLength;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.tileLength * sizeof(float));
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x, t.totalLength);
    yg.SetGlobalBuffer((__gm__ float*)y, t.totalLength);
    AscendC::LocalTensor<float> l = buf.Get<float>();
    for (uint32_t at = start; at < end; at += t.tileLength) {
        uint32_t len = end - at < t.tileLength ? end - at : t.tileLength;
        AscendC::DataCopy(l, xg[at], len);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
        AscendC::Mul(l, l, l, len);
        if (t.negate) {
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Muls(l, l, -1.0f, len);
        }
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
        AscendC::DataCopy(yg[at], l, len);
        AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(0);
    }
}

/**
 * 向量加法算子：z = x + y（half 类型，单核，双缓冲）。
 * 说明：所有注释均为中文，用于检查 UTF-16 位置换算。
 */
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t TOTAL_LENGTH = 16384;   // 总长度（元素个数）
constexpr int32_t TILE_NUM = 16;          // 切分块数
constexpr int32_t BUFFER_NUM = 2;         // 双缓冲
constexpr int32_t TILE_LENGTH = TOTAL_LENGTH / TILE_NUM / BUFFER_NUM;  // 每块长度 = 512

class KernelAddZh {
public:
    __aicore__ inline KernelAddZh() {}
    // 初始化：设置 GM 地址并为队列分配 UB 内存
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z)
    {
        xGm.SetGlobalBuffer((__gm__ half *)x, TOTAL_LENGTH);
        yGm.SetGlobalBuffer((__gm__ half *)y, TOTAL_LENGTH);
        zGm.SetGlobalBuffer((__gm__ half *)z, TOTAL_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(half));  // 输入 x
        pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(half));  // 输入 y
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(half)); // 输出 z
    }
    // 主流程：搬入 -> 计算 -> 搬出
    __aicore__ inline void Process()
    {
        for (int32_t i = 0; i < TILE_NUM * BUFFER_NUM; i++) {
            CopyIn(i);   // 搬入
            Compute();   // 计算
            CopyOut(i);  // 搬出
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();  // 申请输入张量
        LocalTensor<half> yLocal = inQueueY.AllocTensor<half>();
        DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
        DataCopy(yLocal, yGm[progress * TILE_LENGTH], TILE_LENGTH);
        inQueueX.EnQue(xLocal);  // 入队
        inQueueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<half> xLocal = inQueueX.DeQue<half>();  // 出队
        LocalTensor<half> yLocal = inQueueY.DeQue<half>();
        LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
        Add(zLocal, xLocal, yLocal, TILE_LENGTH);  // 向量加
        outQueueZ.EnQue(zLocal);
        inQueueX.FreeTensor(xLocal);  // 释放
        inQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(int32_t progress)
    {
        LocalTensor<half> zLocal = outQueueZ.DeQue<half>();
        DataCopy(zGm[progress * TILE_LENGTH], zLocal, TILE_LENGTH);  // 写回 GM
        outQueueZ.FreeTensor(zLocal);
    }

    TPipe pipe;                                   // 管道
    TQue<QuePosition::VECIN, 1> inQueueX, inQueueY;  // 输入队列
    TQue<QuePosition::VECOUT, 1> outQueueZ;          // 输出队列
    GlobalTensor<half> xGm, yGm, zGm;
};

extern "C" __global__ __aicore__ void add_zh(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    KernelAddZh op;  // 算子实例
    op.Init(x, y, z);
    op.Process();
}

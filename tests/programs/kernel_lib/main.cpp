// ascendc-lsp test program (our own): the host side in both branches of the kernel-launch samples.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>
#include "scale_tiling.h"
#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
#include "aclrtlaunch_scale_custom.h"
extern "C" void scale_custom_do(uint32_t blockDim, void* l2ctrl, void* stream, uint8_t* x, uint8_t* y,
                                uint8_t* tiling);
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR y, ScaleTilingData tiling);
#endif

static bool ReadFile(const char* path, void* buf, size_t size)
{
    std::ifstream f(path, std::ios::binary);
    return f.read((char*)buf, (std::streamsize)size).gcount() == (std::streamsize)size;
}
static void WriteFile(const char* path, const void* buf, size_t size)
{
    std::ofstream f(path, std::ios::binary);
    f.write((const char*)buf, (std::streamsize)size);
}

int main(int argc, char** argv)
{
    const uint32_t blockDim = 4;
    ScaleTilingData tiling{4 * 2048, 512, 0.5f};
    size_t bytes = tiling.totalLength * sizeof(uint16_t);
#ifdef ASCENDC_CPU_DEBUG
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(bytes);
    if (!ReadFile("./input/input_x.bin", x, bytes)) { printf("[ERROR] no input\n"); return 1; }
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(scale_custom, blockDim, x, y, tiling);
    WriteFile("./output/output_y.bin", y, bytes);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    printf("cpu branch done\n");
#else
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    void *xHost, *yHost, *xDev, *yDev;
    aclrtMallocHost(&xHost, bytes);
    aclrtMallocHost(&yHost, bytes);
    aclrtMalloc(&xDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&yDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    if (!ReadFile("./input/input_x.bin", xHost, bytes)) { printf("[ERROR] no input\n"); return 1; }
    aclrtMemcpy(xDev, bytes, xHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    if (argc > 1 && strcmp(argv[1], "wrapper") == 0) {
        scale_custom_do(blockDim, nullptr, stream, (uint8_t*)xDev, (uint8_t*)yDev, (uint8_t*)&tiling);
    } else {
        ACLRT_LAUNCH_KERNEL(scale_custom)(blockDim, stream, xDev, yDev, &tiling);
    }
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(yHost, bytes, yDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    WriteFile("./output/output_y.bin", yHost, bytes);
    aclrtFree(xDev);
    aclrtFree(yDev);
    aclrtFreeHost(xHost);
    aclrtFreeHost(yHost);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    printf("npu branch done\n");
#endif
    return 0;
}

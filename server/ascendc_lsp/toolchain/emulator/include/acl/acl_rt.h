// ACL runtime (aclrt*) subset for the clean-room emulator: devices, contexts, streams, events, device and host
// memory, copies. Written from the public CANN "AscendCL API reference" (aclrtMalloc, aclrtMemcpy,
// aclrtMemcpyAsync, aclrtSynchronizeStream, ...) and from how the devkit direct-launch samples use them.
// Device memory is emulator GM (red zones, bounds checks: ascendc_emu/harness.h); a kernel launch runs on the
// emulator when the host calls it and its faults surface at the next synchronisation, as on the NPU
// (ascendc_emu/program.h). Every function takes a trailing defaulted call site, so host-side reports name the
// user's line; callers never pass it.
#ifndef ASCENDC_EMU_ACL_ACL_RT_H_
#define ASCENDC_EMU_ACL_ACL_RT_H_
#include "acl_base.h"

typedef void* aclrtStream;
typedef void* aclrtContext;
typedef void* aclrtEvent;
// kernel loading and launching (the Runtime API's "Kernel加载与执行"): in the emulator the kernels are those
// compiled into the program (the sample's ascendc_fatbin_library sources), found by name
typedef void* aclrtBinHandle;
typedef void* aclrtFuncHandle;
typedef void* aclrtArgsHandle;
typedef void* aclrtParamHandle;
typedef struct aclrtBinaryLoadOptions aclrtBinaryLoadOptions;
typedef struct aclrtLaunchKernelAttr aclrtLaunchKernelAttr;
typedef struct aclrtLaunchKernelCfg {
    aclrtLaunchKernelAttr* attrs;
    size_t numAttrs;
} aclrtLaunchKernelCfg;

typedef enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_DEVICE_TO_DEVICE,
    ACL_MEMCPY_DEFAULT,  // direction inferred from the addresses
} aclrtMemcpyKind;

typedef enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST,
    ACL_MEM_MALLOC_HUGE_ONLY,
    ACL_MEM_MALLOC_NORMAL_ONLY,
    ACL_MEM_MALLOC_HUGE_FIRST_P2P,
    ACL_MEM_MALLOC_HUGE_ONLY_P2P,
    ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
    ACL_MEM_TYPE_LOW_BAND_WIDTH = 0x0100,
    ACL_MEM_TYPE_HIGH_BAND_WIDTH = 0x1000,
} aclrtMemMallocPolicy;

typedef enum aclrtRunMode { ACL_DEVICE, ACL_HOST } aclrtRunMode;
typedef enum aclrtMemAttr { ACL_DDR_MEM, ACL_HBM_MEM, ACL_DDR_MEM_HUGE, ACL_DDR_MEM_NORMAL, ACL_HBM_MEM_HUGE,
                            ACL_HBM_MEM_NORMAL, ACL_DDR_MEM_P2P_HUGE, ACL_DDR_MEM_P2P_NORMAL, ACL_HBM_MEM_P2P_HUGE,
                            ACL_HBM_MEM_P2P_NORMAL } aclrtMemAttr;
typedef enum aclrtEventStatus { ACL_EVENT_STATUS_COMPLETE, ACL_EVENT_STATUS_NOT_READY, ACL_EVENT_STATUS_RESERVED }
    aclrtEventStatus;
typedef enum aclrtLastErrLevel { ACL_RT_THREAD_LEVEL = 0 } aclrtLastErrLevel;
// Event flags (aclrtCreateEventWithFlag / aclrtCreateEventExWithFlag, a bitmap): the emulator's events complete
// when recorded, so every flag behaves the same.
#define ACL_EVENT_SYNC 0x00000001u
#define ACL_EVENT_CAPTURE_STREAM_PROGRESS 0x00000002u
#define ACL_EVENT_TIME_LINE 0x00000008u

#ifdef ASCENDC_EMU_IDE
#define ASCENDC_EMU_ACL_LOC ...  // IDE mode: the call-site capture hidden from signatures (ascendc_emu/runtime.h)
#else
#define ASCENDC_EMU_ACL_LOC ascendc_emu::Loc loc = ascendc_emu::Loc()
#endif
// devices and contexts
EMU_RT_FN aclError aclrtSetDevice(int32_t deviceId, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtResetDevice(int32_t deviceId, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtResetDeviceForce(int32_t deviceId, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtGetDevice(int32_t* deviceId, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtGetDeviceCount(uint32_t* count, ASCENDC_EMU_ACL_LOC);
// Device attributes (aclrtGetDeviceInfo): the core counts of the emulated SoC profile.
typedef enum aclrtDevAttr {
    ACL_DEV_ATTR_AICPU_CORE_NUM = 1,
    ACL_DEV_ATTR_AICORE_CORE_NUM = 101,
    ACL_DEV_ATTR_CUBE_CORE_NUM = 102,
    ACL_DEV_ATTR_VECTOR_CORE_NUM = 201,
} aclrtDevAttr;
EMU_RT_FN aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t* value, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtGetRunMode(aclrtRunMode* runMode, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN const char* aclrtGetSocName();
EMU_RT_FN aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtDestroyContext(aclrtContext context, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtSetCurrentContext(aclrtContext context, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtGetCurrentContext(aclrtContext* context, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtSynchronizeDevice(ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout, ASCENDC_EMU_ACL_LOC);
// streams
EMU_RT_FN aclError aclrtCreateStream(aclrtStream* stream, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag,
                                               ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtDestroyStream(aclrtStream stream, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtDestroyStreamForce(aclrtStream stream, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtSynchronizeStream(aclrtStream stream, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout, ASCENDC_EMU_ACL_LOC);
// events
EMU_RT_FN aclError aclrtCreateEvent(aclrtEvent* event, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtSynchronizeEvent(aclrtEvent event, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventStatus* status, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtDestroyEvent(aclrtEvent event, ASCENDC_EMU_ACL_LOC);
// memory
EMU_RT_FN aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtMallocHost(void** hostPtr, size_t size, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtFree(void* devPtr, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtFreeHost(void* hostPtr, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream,
                                    ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                               ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                                    aclrtStream stream, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total, ASCENDC_EMU_ACL_LOC);
// kernel loading and launching
EMU_RT_FN aclError aclrtBinaryLoadFromFile(const char* binPath, aclrtBinaryLoadOptions* options,
                                           aclrtBinHandle* binHandle, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char* kernelName,
                                          aclrtFuncHandle* funcHandle, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle* argsHandle, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void* param, size_t paramSize,
                                         aclrtParamHandle* paramHandle, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t blockDim, aclrtStream stream,
                                               aclrtLaunchKernelCfg* cfg, aclrtArgsHandle argsHandle, void* reserve,
                                               ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t blockDim, const void* argsData,
                                     size_t argsSize, aclrtStream stream, ASCENDC_EMU_ACL_LOC);
// errors
EMU_RT_FN aclError aclrtGetLastError(aclrtLastErrLevel level);
EMU_RT_FN aclError aclrtPeekAtLastError(aclrtLastErrLevel level);
#undef ASCENDC_EMU_ACL_LOC
// Header-only builds (no emulator runtime object): the bodies come with the declarations.
#if ASCENDC_EMU_RT_BODIES && !defined(ASCENDC_EMU_RUNTIME_IMPL)
#include "../ascendc_emu/program.h"
#endif
#endif  // ASCENDC_EMU_ACL_ACL_RT_H_

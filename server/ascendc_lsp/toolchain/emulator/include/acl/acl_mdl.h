// ACL model-runtime-instance capture (aclmdlRI*) for the clean-room emulator: the subset direct-launch samples
// use to record a stream's work once and replay it (devkit examples 00_framework/04_aclgraph). Written from the
// public CANN Runtime API reference (aclmdlRICaptureBegin: between Begin and End every task issued to the stream
// is kept in the model instead of running, and runs when the model is executed; a stream that waits on an event
// recorded by a capturing stream joins the capture; aclmdlRIExecuteAsync, aclmdlRIExecute, aclmdlRIDestroy,
// aclmdlRIDebugPrint, aclmdlRIDebugJsonPrint, aclmdlRICaptureGetInfo). Bodies: ascendc_emu/program.h.
#ifndef ASCENDC_EMU_ACL_ACL_MDL_H_
#define ASCENDC_EMU_ACL_ACL_MDL_H_
#include "acl_base.h"
#include "acl_rt.h"

typedef void* aclmdlRI;
// The mode limits where the "unsafe" synchronous calls (aclrtMemcpy, aclrtMemset) may run during a capture; the
// emulator runs them as issued in every mode.
typedef enum aclmdlRICaptureMode {
    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL = 0,
    ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
    ACL_MODEL_RI_CAPTURE_MODE_RELAXED,
} aclmdlRICaptureMode;
typedef enum aclmdlRICaptureStatus {
    ACL_MODEL_RI_CAPTURE_STATUS_NONE = 0,
    ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE,
    ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED,
} aclmdlRICaptureStatus;

#ifdef ASCENDC_EMU_IDE
#define ASCENDC_EMU_ACL_LOC ...
#else
#define ASCENDC_EMU_ACL_LOC ascendc_emu::Loc loc = ascendc_emu::Loc()
#endif
EMU_RT_FN aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus* status, aclmdlRI* modelRI,
                                          ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclmdlRIDestroy(aclmdlRI modelRI, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclmdlRIDebugPrint(aclmdlRI modelRI, ASCENDC_EMU_ACL_LOC);
EMU_RT_FN aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char* path, uint32_t flags, ASCENDC_EMU_ACL_LOC);
#undef ASCENDC_EMU_ACL_LOC
#if ASCENDC_EMU_RT_BODIES && !defined(ASCENDC_EMU_RUNTIME_IMPL)
#include "../ascendc_emu/program.h"
#endif
#endif  // ASCENDC_EMU_ACL_ACL_MDL_H_

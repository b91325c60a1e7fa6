// Forwarding header: kernels include the SDK's internal header name for TPipe / TQue / TBuf; the emulator has it all in
// kernel_operator.h.
#ifndef ASCENDC_EMU_FWD_KERNEL_TPIPE_H_
#define ASCENDC_EMU_FWD_KERNEL_TPIPE_H_
#include "kernel_operator.h"
#endif  // ASCENDC_EMU_FWD_KERNEL_TPIPE_H_

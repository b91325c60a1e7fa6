// Forwarding header: kernels include the SDK's internal header name for KERNEL_LOG; the emulator has it all in
// kernel_operator.h.
#ifndef ASCENDC_EMU_FWD_KERNEL_LOG_H_
#define ASCENDC_EMU_FWD_KERNEL_LOG_H_
#include "kernel_operator.h"
#endif  // ASCENDC_EMU_FWD_KERNEL_LOG_H_

// Forwarding header: kernels include the SDK's internal header name for the basic API; the emulator has it all in
// kernel_operator.h.
#ifndef ASCENDC_EMU_FWD_KERNEL_OPERATOR_INTF_H_
#define ASCENDC_EMU_FWD_KERNEL_OPERATOR_INTF_H_
#include "kernel_operator.h"
#endif  // ASCENDC_EMU_FWD_KERNEL_OPERATOR_INTF_H_

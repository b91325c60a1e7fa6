// Forwarding header: kernels include the SDK's internal header name for the arch-2201 register helpers; the emulator has it all in
// kernel_operator.h.
#ifndef ASCENDC_EMU_FWD_IMPL_DAV_C220_KERNEL_OPERATOR_REG_OTHERS_IMPL_H_
#define ASCENDC_EMU_FWD_IMPL_DAV_C220_KERNEL_OPERATOR_REG_OTHERS_IMPL_H_
#include "../../kernel_operator.h"
#endif  // ASCENDC_EMU_FWD_IMPL_DAV_C220_KERNEL_OPERATOR_REG_OTHERS_IMPL_H_

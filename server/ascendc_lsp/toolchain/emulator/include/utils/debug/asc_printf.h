// Forwarding header: kernels include the SDK's internal header name for printf; the emulator has it all in
// kernel_operator.h.
#ifndef ASCENDC_EMU_FWD_UTILS_DEBUG_ASC_PRINTF_H_
#define ASCENDC_EMU_FWD_UTILS_DEBUG_ASC_PRINTF_H_
#include "../../kernel_operator.h"
#endif  // ASCENDC_EMU_FWD_UTILS_DEBUG_ASC_PRINTF_H_

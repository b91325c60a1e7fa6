// Forwarding header: kernels include the SDK's internal header name for LocalTensor / GlobalTensor / LocalMemAllocator; the emulator has it all in
// kernel_operator.h.
#ifndef ASCENDC_EMU_FWD_BASIC_API_KERNEL_TENSOR_H_
#define ASCENDC_EMU_FWD_BASIC_API_KERNEL_TENSOR_H_
#include "../kernel_operator.h"
#endif  // ASCENDC_EMU_FWD_BASIC_API_KERNEL_TENSOR_H_

// SIMT API header (devkit api SIMT-API/): the emulator has the whole SIMT API in ascendc_emu/simt.h.
#ifndef ASCENDC_EMU_SIMT_API_DEVICE_ATOMIC_FUNCTIONS_H_
#define ASCENDC_EMU_SIMT_API_DEVICE_ATOMIC_FUNCTIONS_H_
#include "../kernel_operator.h"
#include "../ascendc_emu/simt.h"
#endif

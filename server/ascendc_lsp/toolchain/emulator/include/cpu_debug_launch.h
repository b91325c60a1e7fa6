// "cpu_debug_launch.h": included by .asc programs built in CPU-debug mode (#ifdef ASCENDC_CPU_DEBUG), where the
// compiler turns <<<...>>> into a CPU call (devkit guide 调试调优/功能调试/CPU域孪生调试.md). On the emulator the
// toolchain lowers every launch itself, in either mode, onto ascendc_emu/launch.h.
#ifndef ASCENDC_EMU_CPU_DEBUG_LAUNCH_H_
#define ASCENDC_EMU_CPU_DEBUG_LAUNCH_H_
#include "ascendc_emu/launch.h"
#endif  // ASCENDC_EMU_CPU_DEBUG_LAUNCH_H_

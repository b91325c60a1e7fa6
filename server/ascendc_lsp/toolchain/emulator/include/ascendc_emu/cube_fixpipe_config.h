// SetFixPipeConfig (clean-room, docs/zh/api/SIMD-API/基础API/矩阵计算（ISASI）/矩阵计算的搬出/寄存器配置说明/
// SetFixPipeConfig.md; the unit-flag reset: .../Mmad计算/关键特性说明/UnitFlag.md). Two uses:
// - the quant tensor (Fixpipe Buffer, C2PIPE2GM) of per-channel quantisation in later L0C -> GM/L1 moves: the
//   emulated Fixpipe does not scale per channel and says so when a V* quantPre mode is used;
// - isUnitFlag on an L0C (CO1) tensor: clears the unit flags Mmad/Fixpipe left. The emulator orders Mmad and
//   Fixpipe by the sample's own flags and does not model unit flags, so there is nothing left to clear.
#ifndef ASCENDC_EMU_ASCENDC_EMU_CUBE_FIXPIPE_CONFIG_H_
#define ASCENDC_EMU_ASCENDC_EMU_CUBE_FIXPIPE_CONFIG_H_
#include "cube.h"

namespace AscendC {
template <typename T>
inline void SetFixPipeConfig(const LocalTensor<T>& reluPre, const LocalTensor<T>& quantPre, bool isUnitFlag = false,
                             EMU_LOC) {
    (void)reluPre;  // reserved by the docs: an empty tensor is passed
    (void)isUnitFlag;
    ascendc_emu::begin_epoch(ascendc_emu::P_FIX);
    ascendc_emu::want_pos(quantPre.pos_, {TPosition::C2PIPE2GM, TPosition::C2PIPE2LOCAL}, "quantPre",
                          "SetFixPipeConfig", ascendc_emu::P_FIX, loc);
}
template <typename T, bool setRelu = false>
inline void SetFixPipeConfig(const LocalTensor<T>& preData, bool isUnitFlag = false, EMU_LOC) {
    static_assert(!setRelu, "SetFixPipeConfig: setRelu supports only false (a quant tensor)");
    ascendc_emu::begin_epoch(ascendc_emu::P_FIX);
    // the unit-flag reset takes the L0C tensor itself; the quant form a Fixpipe Buffer tensor
    if (isUnitFlag)
        ascendc_emu::want_pos(preData.pos_, {TPosition::CO1, TPosition::C2PIPE2GM, TPosition::C2PIPE2LOCAL},
                              "preData", "SetFixPipeConfig", ascendc_emu::P_FIX, loc);
    else
        ascendc_emu::want_pos(preData.pos_, {TPosition::C2PIPE2GM, TPosition::C2PIPE2LOCAL}, "preData",
                              "SetFixPipeConfig", ascendc_emu::P_FIX, loc);
}
}  // namespace AscendC
#endif  // ASCENDC_EMU_ASCENDC_EMU_CUBE_FIXPIPE_CONFIG_H_

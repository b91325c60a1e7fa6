// Host-side tiling data of SubScaleCustom, as a framework (msOpGen) project keeps it in op_host/.
// The host TilingFunc fills it with set_* and SaveToBuffer; the kernel reads it back with GET_TILING_DATA.
#ifndef SUB_SCALE_CUSTOM_TILING_H
#define SUB_SCALE_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SubScaleCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, tileNum);
TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SubScaleCustom, SubScaleCustomTilingData)
}  // namespace optiling
#endif  // SUB_SCALE_CUSTOM_TILING_H

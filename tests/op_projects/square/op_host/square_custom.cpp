// Our own test op (not public code): y = x * x (or -(x * x)), float32, standard C++ tiling struct.
#include "../op_kernel/square_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SquareCustomTilingData* tiling = context->GetTilingData<SquareCustomTilingData>();
    tiling->totalLength = static_cast<uint32_t>(context->GetInputTensor(0)->GetShapeSize());
    tiling->tileLength = 1024;
    const bool* negate = context->GetAttrs()->GetAttrPointer<bool>(0);
    tiling->negate = negate != nullptr && *negate;
    context->SetBlockDim(platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).CalcTschNumBlocks(4, 0, 40));
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class SquareCustom : public OpDef {
public:
    explicit SquareCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("negate").AttrType(OPTIONAL).Bool(false);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(SquareCustom);
}  // namespace ops

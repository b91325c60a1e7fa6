// Our own test op (not public code): y[i] = x[i] * 2 for a dynamic (tensor list) input and output.
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ListScaleTilingData)
TILING_DATA_FIELD_DEF(uint32_t, tensorNum);
TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, lengths);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ListScaleCustom, ListScaleTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ListScaleTilingData tiling;
    size_t n = context->GetComputeNodeInfo()->GetInputInstanceInfo(0)->GetInstanceNum();
    if (n == 0 || n > 8) return ge::GRAPH_FAILED;
    uint32_t lengths[8] = {};
    for (size_t i = 0; i < n; ++i) {
        lengths[i] = static_cast<uint32_t>(context->GetDynamicInputShape(0, i)->GetStorageShape().GetShapeSize());
    }
    tiling.set_tensorNum(static_cast<uint32_t>(n));
    tiling.set_lengths(lengths);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(static_cast<uint32_t>(n));  // one block per tensor
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ListScaleCustom : public OpDef {
public:
    explicit ListScaleCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(DYNAMIC).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(DYNAMIC).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};
OP_ADD(ListScaleCustom);
}  // namespace ops

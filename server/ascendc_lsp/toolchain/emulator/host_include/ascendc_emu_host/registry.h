// The host-side registries the driver reads back: tiling data classes and their fields (from
// BEGIN_TILING_DATA_DEF...), REGISTER_TILING_DATA_CLASS bindings, op definitions (OP_ADD) and op
// implementations (SetTiling / IMPL_OP_OPTILING / SetInferShape ...). Function-local statics: static
// initialisation order across the op's translation units does not matter.
#ifndef ASCENDC_EMU_HOST_REGISTRY_H_
#define ASCENDC_EMU_HOST_REGISTRY_H_
#include <cstddef>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "exe_graph.h"

namespace optiling {
class TilingDef {};  // what CTilingDataClassFactory hands out (a tiling class's layout is exactly its fields)
}  // namespace optiling

namespace ascendc_emu_host {
using SizeFn = size_t (*)();

struct FieldInfo {
    const char* kind;  // scalar | array | struct
    const char* type;  // as written in the macro
    const char* name;
    size_t elem_size;
    size_t count;
    size_t offset;
};
using FieldFn = FieldInfo (*)();

struct ClassInfo {
    std::string name;
    std::string file;
    int line = 0;
    SizeFn size = nullptr;
    std::vector<FieldFn> fields;
};

inline std::vector<ClassInfo>& tiling_classes() {
    static std::vector<ClassInfo> v;
    return v;
}

inline ClassInfo* find_class(SizeFn key) {
    for (auto& c : tiling_classes())
        if (c.size == key) return &c;
    return nullptr;
}

inline int register_class(const char* name, const char* file, int line, SizeFn key) {
    if (!find_class(key)) tiling_classes().push_back(ClassInfo{name, file, line, key, {}});
    return 0;
}

inline int register_field(SizeFn key, FieldFn fn) {
    ClassInfo* c = find_class(key);
    if (c) c->fields.push_back(fn);
    return 0;
}

struct TilingClassBinding {
    std::string op, cls;
    SizeFn key;
    std::string file;
    int line;
    std::function<std::shared_ptr<optiling::TilingDef>()> make;
};

inline std::vector<TilingClassBinding>& tiling_bindings() {
    static std::vector<TilingClassBinding> v;
    return v;
}

inline int bind_tiling_class(const char* op, const char* cls, SizeFn key, const char* file, int line,
                             std::function<std::shared_ptr<optiling::TilingDef>()> make) {
    for (auto& b : tiling_bindings())
        if (b.op == op && b.cls == cls) return 0;
    tiling_bindings().push_back(TilingClassBinding{op, cls, key, file, line, std::move(make)});
    return 0;
}

// SetDataPtr: setters write the whole object through to the framework's buffer (kept beside the object, so
// the class layout stays exactly its fields).
inline std::map<const void*, void*>& write_targets() {
    static std::map<const void*, void*> m;
    return m;
}
inline void write_through(const void* self, size_t bytes) {
    auto it = write_targets().find(self);
    if (it != write_targets().end() && it->second) std::memcpy(it->second, self, bytes);
}

using TilingFn = ge::graphStatus (*)(gert::TilingContext*);
using TilingParseFn = ge::graphStatus (*)(gert::TilingParseContext*);
using InferShapeFn = ge::graphStatus (*)(gert::InferShapeContext*);
using InferShapeRangeFn = ge::graphStatus (*)(gert::InferShapeRangeContext*);
using InferDataTypeFn = ge::graphStatus (*)(gert::InferDataTypeContext*);

struct OpImpl {
    TilingFn tiling = nullptr;
    std::string tiling_file;
    int tiling_line = 0;
    TilingParseFn parse = nullptr;
    std::function<void*()> new_compile_info;
    InferShapeFn infer_shape = nullptr;
    InferDataTypeFn infer_dtype = nullptr;
};

inline std::map<std::string, OpImpl>& op_impls() {
    static std::map<std::string, OpImpl> m;
    return m;
}
}  // namespace ascendc_emu_host

namespace optiling {
class CTilingDataClassFactory {
public:
    static CTilingDataClassFactory& GetInstance() {
        static CTilingDataClassFactory f;
        return f;
    }
    static std::shared_ptr<TilingDef> CreateTilingDataInstance(const char* op) {
        for (auto& b : ascendc_emu_host::tiling_bindings())
            if (b.op == op) return b.make();
        return nullptr;
    }
};
}  // namespace optiling

#endif  // ASCENDC_EMU_HOST_REGISTRY_H_

// Host-side tiling data definition (clean-room), as docs/zh/api/Utils-API/Tiling数据结构注册/TilingData结构定义.md
// and TilingData结构注册.md describe it: set_<field>/get_<field>, SaveToBuffer, GetDataSize, SetDataPtr.
// A class's layout is its fields in declaration order with natural alignment (the docs require
// offset % sizeof(field) == 0 and pad otherwise), i.e. the C struct the kernel side reads back with
// GET_TILING_DATA. Every class and field also registers itself, so the driver can describe the classes to
// ascendc-lsp, which generates the kernel-side structs from that description (as the real op build does).
#ifndef ASCENDC_EMU_HOST_REGISTER_TILINGDATA_BASE_H_
#define ASCENDC_EMU_HOST_REGISTER_TILINGDATA_BASE_H_
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "../ascendc_emu_host/registry.h"

// No base class: an empty base shared by a class and its first (nested tiling) member would be laid out twice
// and pad the struct, breaking the layout the kernel reads.
#define BEGIN_TILING_DATA_DEF(class_name)                                                                    \
    class class_name {                                                                                       \
    public:                                                                                                  \
        using ascendc_emu_self = class_name;                                                                 \
        static size_t ascendc_emu_sizeof() { return sizeof(class_name); }                                    \
        static inline const int ascendc_emu_class_reg =                                                      \
            ::ascendc_emu_host::register_class(#class_name, __FILE__, __LINE__, &class_name::ascendc_emu_sizeof);

#define ASCENDC_EMU_FIELD_REG(kind, type, field, count)                                                      \
    static ::ascendc_emu_host::FieldInfo ascendc_emu_field_##field() {                                       \
        return {kind, #type, #field, sizeof(type), (count), offsetof(ascendc_emu_self, field)};              \
    }                                                                                                        \
    static inline const int ascendc_emu_reg_##field =                                                        \
        ::ascendc_emu_host::register_field(&ascendc_emu_self::ascendc_emu_sizeof, &ascendc_emu_field_##field);

#define TILING_DATA_FIELD_DEF(type, field)                                                                   \
public:                                                                                                      \
    type field = type();                                                                                     \
    void set_##field(type v) {                                                                               \
        field = v;                                                                                           \
        ::ascendc_emu_host::write_through(this, sizeof(*this));                                              \
    }                                                                                                        \
    type get_##field() const { return field; }                                                               \
    ASCENDC_EMU_FIELD_REG("scalar", type, field, 1)

#define TILING_DATA_FIELD_DEF_ARR(type, arr_size, field)                                                     \
public:                                                                                                      \
    type field[arr_size] = {};                                                                               \
    void set_##field(const type* v) {                                                                        \
        if (v) std::memcpy(field, v, sizeof(field));                                                         \
        ::ascendc_emu_host::write_through(this, sizeof(*this));                                              \
    }                                                                                                        \
    type* get_##field() { return field; }                                                                    \
    const type* get_##field() const { return field; }                                                        \
    ASCENDC_EMU_FIELD_REG("array", type, field, sizeof(ascendc_emu_self::field) / sizeof(type))

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field)                                                     \
public:                                                                                                      \
    struct_type field;                                                                                       \
    void set_##field(const struct_type& v) {                                                                 \
        field = v;                                                                                           \
        ::ascendc_emu_host::write_through(this, sizeof(*this));                                              \
    }                                                                                                        \
    struct_type& get_##field() { return field; }                                                             \
    const struct_type& get_##field() const { return field; }                                                 \
    ASCENDC_EMU_FIELD_REG("struct", struct_type, field, 1)

#define END_TILING_DATA_DEF                                                                                  \
public:                                                                                                      \
    void SaveToBuffer(void* buf, size_t cap) const {                                                         \
        if (buf) std::memcpy(buf, this, sizeof(*this) < cap ? sizeof(*this) : cap);                          \
    }                                                                                                        \
    size_t GetDataSize() const { return sizeof(*this); }                                                     \
    void SetDataPtr(void* p) {                                                                               \
        ::ascendc_emu_host::write_targets()[this] = p;                                                       \
        ::ascendc_emu_host::write_through(this, sizeof(*this));                                              \
    }                                                                                                        \
    void InitData() {}                                                                                       \
    bool CheckAlignAndGenPlaceHolder(const char*, size_t) { return true; }                                   \
    };  /* the semicolon is the macro's: public code writes END_TILING_DATA_DEF with and without one */

#define ASCENDC_EMU_TD_CAT_(a, b) a##b
#define ASCENDC_EMU_TD_CAT(a, b) ASCENDC_EMU_TD_CAT_(a, b)
#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                                                      \
    static const int ASCENDC_EMU_TD_CAT(ascendc_emu_tiling_bind_, __COUNTER__) = ::ascendc_emu_host::bind_tiling_class( \
        #op_type, #class_name, &class_name::ascendc_emu_sizeof, __FILE__, __LINE__,                          \
        []() -> std::shared_ptr<::optiling::TilingDef> {                                                     \
            auto obj = std::make_shared<class_name>();                                                       \
            return std::shared_ptr<::optiling::TilingDef>(obj, reinterpret_cast<::optiling::TilingDef*>(obj.get())); \
        });

#endif  // ASCENDC_EMU_HOST_REGISTER_TILINGDATA_BASE_H_

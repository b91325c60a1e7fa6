// Host-side tiling definition macros, as plain standard-layout structs with set_/get_ accessors (the layout
// the kernel side memcpy's back in GET_TILING_DATA). Clean-room; only the macro names follow AscendC.
#ifndef ASCENDC_EMU_REGISTER_TILINGDATA_BASE_H_
#define ASCENDC_EMU_REGISTER_TILINGDATA_BASE_H_
#include <cstddef>
#include <cstdint>
#include <cstring>

// When ascendc-lsp generated the op's tiling structs (at global scope, with optiling:: aliases) a host tiling
// header the kernel also includes declares renamed copies, so the kernel sees one struct per name.
#ifdef ASCENDC_EMU_GENERATED_TILING
#define ASCENDC_EMU_TILING_NAME(name) ascendc_emu_host_copy_##name
#else
#define ASCENDC_EMU_TILING_NAME(name) name
#endif
#define BEGIN_TILING_DATA_DEF(name)     \
    struct ASCENDC_EMU_TILING_NAME(name) { \
        using ascendc_emu_self = ASCENDC_EMU_TILING_NAME(name);
#define TILING_DATA_FIELD_DEF(type, field)        \
    type field;                                   \
    void set_##field(type v) { field = v; }       \
    type get_##field() const { return field; }
#define TILING_DATA_FIELD_DEF_ARR(type, n, field)                                     \
    type field[n];                                                                    \
    void set_##field(const type* v) { std::memcpy(field, v, sizeof(field)); }         \
    const type* get_##field() const { return field; }
#define TILING_DATA_FIELD_DEF_STRUCT(stype, field)            \
    stype field;                                              \
    void set_##field(const stype& v) { field = v; }           \
    stype& get_##field() { return field; }
#define END_TILING_DATA_DEF                                                                   \
    void SaveToBuffer(void* buf, size_t cap) const {                                          \
        std::memcpy(buf, this, sizeof(*this) < cap ? sizeof(*this) : cap);                    \
    }                                                                                         \
    size_t GetDataSize() const { return sizeof(*this); }                                      \
    }
#define REGISTER_TILING_DATA_CLASS(op, cls)
#endif  // ASCENDC_EMU_REGISTER_TILINGDATA_BASE_H_

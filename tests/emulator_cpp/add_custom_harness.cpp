// Harness for add_custom.cpp, written as the runner would generate it (PROTOCOL.md).
#define ASCENDC_EMU_TILING_TYPE AddTiling
#include "ascendc_emu/harness.h"
#include "add_custom.cpp"
int main(int argc, char** argv) {
    ascendc_emu::Harness h(argc, argv);
    GM_ADDR x = h.Input("x");
    GM_ADDR y = h.Input("y");
    GM_ADDR z = h.Output("z", 8 * 2048 * 2);
    GM_ADDR ws = h.Workspace(0);
    AddTiling t{};
    t.totalLength = 8 * 2048;
    t.tileNum = 8;
    GM_ADDR tiling = h.Bytes("tiling", &t, sizeof(t));
    h.Launch(8, [&] { add_custom(x, y, z, ws, tiling); });
    return h.Finish();
}

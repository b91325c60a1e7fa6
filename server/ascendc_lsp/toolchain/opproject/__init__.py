"""msOpGen-style op projects (op_host/ + op_kernel/) as a unit the toolchain understands: discovery, the OpDef,
the kernel-side tiling structs, the host program (OpDef + TilingFunc on the CPU) and the test case format.
Entry point: `opbuild.run_case(load_test_case(path))`."""

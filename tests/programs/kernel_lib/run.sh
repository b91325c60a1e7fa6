#!/bin/bash
# ascendc-lsp test program (our own): the run recipe, as the kernel-launch samples write it.
set -e
RUN_MODE=${1:-npu}
cmake -B build -DRUN_MODE=${RUN_MODE} -DSOC_VERSION=Ascend910B1
cmake --build build -j
rm -rf input output
mkdir -p input output
python3 scripts/gen_data.py
./probe_bbit
python3 scripts/verify_result.py output/output_y.bin output/golden.bin

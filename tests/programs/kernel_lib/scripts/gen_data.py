# ascendc-lsp test program (our own): inputs and golden for y = x * 0.5 (fp16)
import sys

import numpy as np


def main() -> None:
    rng = np.random.default_rng(7)
    x = rng.uniform(-4, 4, [4 * 2048]).astype(np.float16)
    golden = (x * np.float16(0.5)).astype(np.float16)
    if "--wrong-golden" in sys.argv:
        golden[100] += np.float16(1.0)
    x.tofile("./input/input_x.bin")
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    main()

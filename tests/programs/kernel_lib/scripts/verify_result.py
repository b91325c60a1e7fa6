# ascendc-lsp test program (our own): compare like the samples do (isclose, error ratio, "test pass")
import sys

import numpy as np


def main() -> int:
    out = np.fromfile(sys.argv[1], dtype=np.float16)
    golden = np.fromfile(sys.argv[2], dtype=np.float16)
    bad = np.where(~np.isclose(out, golden, rtol=1e-3, atol=1e-5, equal_nan=True))[0]
    for i in bad[:10]:
        print(f"data index: {i:06d}, expected: {golden[i]:.6f}, actual: {out[i]:.6f}")
    ratio = bad.size / golden.size
    print(f"error ratio: {ratio:.4f}, tolerance: 0.0000")
    if ratio > 0:
        print("[ERROR] result error")
        return 1
    print("test pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())

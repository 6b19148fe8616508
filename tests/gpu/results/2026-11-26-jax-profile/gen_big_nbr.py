"""nbr_stencil's arguments at rows * cols > 2^31 (its 64-bit kernel), in Futhark's binary
format. Usage: gen_big_nbr.py OUT ROWS COLS"""
import sys
import numpy as np
sys.path.insert(0, "bench")
from futhark_data import write_values
out, rows, cols = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
img = np.empty((rows, cols), dtype=np.float32)
img[:] = np.arange(cols, dtype=np.float32) * np.float32(1e-3)
i, j = np.arange(rows, dtype=np.int64), np.arange(cols, dtype=np.int64)
write_values(out, [img, np.maximum(i - 1, 0), np.minimum(i + 1, rows - 1), np.maximum(j - 1, 0),
                   np.minimum(j + 1, cols - 1)])

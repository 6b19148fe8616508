# spmv inputs of other row lengths (bench/gen_data.py's generator): 2^21 rows of 0-7
# nonzeros, 2^19 rows of 0-127, 2^22 rows of 0-31 with x of 2^16 (x cached), 2^21 rows
# of 0-15 (7.5 a row: not bounded) and of 0-23 (11.5: bounded).
import sys, os
sys.path.insert(0, "bench")
import gen_data
from futhark_data import write_values
for name, shape in [("spmv_short", (1 << 21, 8, 1 << 21)), ("spmv_long", (1 << 19, 128, 1 << 21)),
                    ("spmv_smallx", (1 << 22, 32, 1 << 16)), ("spmv_16", (1 << 21, 16, 1 << 21)),
                    ("spmv_24", (1 << 21, 24, 1 << 21))]:
    write_values(f"bench/data/{name}.in", gen_data.gen_spmv(shape))
    print("wrote", name, flush=True)

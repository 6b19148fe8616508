"""Futhark's binary value format, which `kerb` reads (`input @ FILE`, `--input FILE`):
for each value 'b', version 2, the rank (one byte), the element type in four
characters (' f32', ' i64', ...), the shape as little-endian int64s, then the
elements, little-endian, row-major. A file holds any number of values in a row.
Used by bench/gen_data.py, bench/check_results.py and the tests; needs numpy."""

import numpy as np

_TYPES = {
    "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
    "f16": np.float16, "f32": np.float32, "f64": np.float64, "bool": np.bool_,
}
_NAMES = {np.dtype(t): name for name, t in _TYPES.items()}


def write_values(path, values):
    """Writes numpy arrays and scalars (np.float32(1), np.int64(3), ...) to `path`."""
    with open(path, "wb") as f:
        for v in values:
            a = np.asarray(v)
            name = _NAMES.get(a.dtype)
            if name is None:
                raise ValueError(f"no Futhark type for numpy type {a.dtype}")
            f.write(b"b" + bytes([2, a.ndim]) + name.rjust(4).encode())
            f.write(np.asarray(a.shape, dtype="<i8").tobytes())
            f.write(np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("<")).tobytes())


def read_values(path):
    """The values of a file written in the binary format, as numpy arrays (rank 0 for
    scalars)."""
    data = open(path, "rb").read()
    pos, out = 0, []
    while pos < len(data):
        if data[pos:pos + 2] != b"b\x02":
            raise ValueError(f"{path}: not a binary value at byte {pos}")
        rank = data[pos + 2]
        name = data[pos + 3:pos + 7].decode().strip()
        dtype = np.dtype(_TYPES[name]).newbyteorder("<")
        pos += 7
        shape = tuple(np.frombuffer(data, "<i8", rank, pos)) if rank else ()
        pos += 8 * rank
        count = int(np.prod(shape)) if rank else 1
        a = np.frombuffer(data, dtype, count, pos).reshape(shape)
        pos += count * dtype.itemsize
        out.append(a)
    return out


def read_headers(path):
    """(type, shape, value) of each value of a binary-format file without reading the
    arrays: `value` is the scalar for rank 0, None for arrays."""
    out = []
    with open(path, "rb") as f:
        while True:
            head = f.read(7)
            if not head:
                return out
            if len(head) < 7 or head[:2] != b"b\x02":
                raise ValueError(f"{path}: not a binary value")
            rank, name = head[2], head[3:7].decode().strip()
            dtype = np.dtype(_TYPES[name]).newbyteorder("<")
            shape = tuple(int(d) for d in np.frombuffer(f.read(8 * rank), "<i8")) if rank else ()
            count = int(np.prod(shape)) if rank else 1
            if rank == 0:
                out.append((name, shape, np.frombuffer(f.read(dtype.itemsize), dtype)[0].item()))
            else:
                f.seek(count * dtype.itemsize, 1)
                out.append((name, shape, None))

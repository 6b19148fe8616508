"""Futhark's binary value format, which `kerb` reads (`input @ FILE`, `--input FILE`):
for each value 'b', version 2, the rank (one byte), the element type in four
characters (' f32', ' i64', ...), the shape as little-endian int64s, then the
elements, little-endian, row-major. A file holds any number of values in a row.
Used by bench/gen_data.py, bench/check_results.py and bench/summarize.py; reading and
writing values needs numpy, read_headers does not."""

import math
import struct

# Element type -> (numpy type name, bytes, struct format for scalars).
_TYPES = {
    "i8": ("int8", 1, "<b"), "i16": ("int16", 2, "<h"), "i32": ("int32", 4, "<i"),
    "i64": ("int64", 8, "<q"), "u8": ("uint8", 1, "<B"), "u16": ("uint16", 2, "<H"),
    "u32": ("uint32", 4, "<I"), "u64": ("uint64", 8, "<Q"), "f16": ("float16", 2, "<e"),
    "f32": ("float32", 4, "<f"), "f64": ("float64", 8, "<d"), "bool": ("bool", 1, "<?"),
}


def write_values(path, values):
    """Writes numpy arrays and scalars (np.float32(1), np.int64(3), ...) to `path`."""
    import numpy as np

    names = {np.dtype(t[0]): name for name, t in _TYPES.items()}
    with open(path, "wb") as f:
        for v in values:
            a = np.asarray(v)
            name = names.get(a.dtype)
            if name is None:
                raise ValueError(f"no Futhark type for numpy type {a.dtype}")
            f.write(b"b" + bytes([2, a.ndim]) + name.rjust(4).encode())
            f.write(np.asarray(a.shape, dtype="<i8").tobytes())
            f.write(np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("<")).tobytes())


def read_values(path):
    """The values of a file written in the binary format, as numpy arrays (rank 0 for
    scalars)."""
    import numpy as np

    data = open(path, "rb").read()
    pos, out = 0, []
    while pos < len(data):
        if data[pos:pos + 2] != b"b\x02":
            raise ValueError(f"{path}: not a binary value at byte {pos}")
        rank = data[pos + 2]
        name = data[pos + 3:pos + 7].decode().strip()
        dtype = np.dtype(_TYPES[name][0]).newbyteorder("<")
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
    arrays: `value` is the scalar for rank 0, None for arrays. Needs no numpy."""
    out = []
    with open(path, "rb") as f:
        while True:
            head = f.read(7)
            if not head:
                return out
            if len(head) < 7 or head[:2] != b"b\x02":
                raise ValueError(f"{path}: not a binary value")
            rank, name = head[2], head[3:7].decode().strip()
            _, size, fmt = _TYPES[name]
            shape = struct.unpack(f"<{rank}q", f.read(8 * rank)) if rank else ()
            if rank == 0:
                out.append((name, shape, struct.unpack(fmt, f.read(size))[0]))
            else:
                f.seek(math.prod(shape) * size, 1)
                out.append((name, shape, None))

"""kerb.Array: an array in a program's device memory, as entries return it when asked
(output="array", or by default on the GPU when no argument says which library to give
results to). It is DLPack-capable, so torch.from_dlpack, cupy.from_dlpack,
jax.dlpack.from_dlpack and numpy.from_dlpack take it without a copy, and it goes back
into entries as it is."""

import sys

import numpy as np

from . import _native

NUMPY_DTYPE = {
    "bool": np.dtype(np.bool_), "i8": np.dtype(np.int8), "i16": np.dtype(np.int16), "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64), "u8": np.dtype(np.uint8), "u16": np.dtype(np.uint16), "u32": np.dtype(np.uint32),
    "u64": np.dtype(np.uint64), "f16": np.dtype(np.float16), "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
}


class Array:
    """An array of a Kerb program (in the memory of its device). `shape`, `dtype` (a numpy
    dtype), `ndim`, `device` ("cpu" or "cuda:N"); `numpy()` copies it to the host (on the
    GPU a sync point: a failed check of an earlier call raises kerb.CheckError here).
    `__dlpack__` lends it to other libraries without a copy; the memory stays valid while
    either side holds it."""

    __slots__ = ("_program", "_handle", "_prim", "_rank", "_shape", "__weakref__")

    def __init__(self, program, handle, prim, shape, rank=None):
        self._program = program
        self._handle = handle
        self._prim = prim
        # A result's shape is asked of the runtime when first wanted (None until then).
        self._rank = len(shape) if shape is not None else rank
        self._shape = tuple(shape) if shape is not None else None

    @property
    def shape(self):
        s = self._shape
        if s is None:
            s = self._shape = self._program._shape(self)
        return s

    @property
    def dtype(self):
        return NUMPY_DTYPE[self._prim]

    @property
    def kerb_type(self):
        """The Futhark type, e.g. "[3]f32"."""
        return "".join("[%d]" % d for d in self.shape) + self._prim

    @property
    def ndim(self):
        return self._rank

    @property
    def size(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    @property
    def device(self):
        return self._program._device_tag

    def __len__(self):
        return self.shape[0]

    def numpy(self):
        """A copy in a new numpy array (waits for the device)."""
        return self._program._values(self)

    def __array__(self, dtype=None, copy=None):
        a = self.numpy()
        return a if dtype is None else a.astype(dtype, copy=False)

    def __dlpack_device__(self):
        return self._program._dlpack_device

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if dl_device is not None and tuple(dl_device) != self._program._dlpack_device:
            raise BufferError("kerb.Array: cannot export to another device (%r)" % (dl_device,))
        if copy:
            raise BufferError("kerb.Array: exports without a copy only")
        return self._program._export(self, stream)

    def __repr__(self):
        if self._handle is None:
            return "kerb.Array(<freed>)"
        return "kerb.Array(%s, device=%r)" % (self.kerb_type, self.device)

    def __del__(self, _finalizing=sys.is_finalizing):
        h = self._handle
        # At interpreter exit the modules' globals may be gone already (a default argument
        # is not); the memory goes with the process.
        if h is not None and not _finalizing():
            self._handle = None
            self._program._release(h, self._prim, self._rank)


__all__ = ["Array", "NUMPY_DTYPE", "_native"]

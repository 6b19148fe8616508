"""The C side of the package: a compiled program's shared library (libNAME.so, made by
`kerb compile --library --shared`) loaded with ctypes, the prototypes of the C API
functions the package calls (include/kerb/kerb.h, runtime/program_abi.h), and DLPack
capsules made and taken apart with Python's own capsule functions (ctypes.pythonapi),
so that the package needs no compiled extension of its own and runs on any Python 3.

Every function here is called with the GIL released (ctypes.CDLL): the runtime may wait
for the device, and other Python threads go on meanwhile. A Program serialises its own
calls with a lock (a context is used by one thread at a time)."""

import ctypes
import json

from ctypes import POINTER, byref, c_char_p, c_int, c_int32, c_int64, c_void_p

# The runtime's PrimType numbering (runtime/value.h) and names.
PRIMS = ["bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "f32", "f64"]
PRIM_ID = {name: i for i, name in enumerate(PRIMS)}
CTYPE = {
    "bool": ctypes.c_bool, "i8": ctypes.c_int8, "i16": ctypes.c_int16, "i32": ctypes.c_int32,
    "i64": ctypes.c_int64, "u8": ctypes.c_uint8, "u16": ctypes.c_uint16, "u32": ctypes.c_uint32,
    "u64": ctypes.c_uint64, "f16": ctypes.c_uint16, "f32": ctypes.c_float, "f64": ctypes.c_double,
}

# Error codes (include/kerb/kerb.h).
SUCCESS, ERROR, PROGRAM_ERROR, OUT_OF_MEMORY, USAGE_ERROR = 0, 1, 2, 3, 4
# Why a DLPack tensor does not fit a parameter (KERB_DLPACK_*, include/kerb/kerb.h).
DLPACK_OK, DLPACK_DEVICE, DLPACK_TYPE, DLPACK_RANK, DLPACK_STRIDES, DLPACK_ALIGNMENT = 0, 1, 2, 3, 4, 5
DLPACK_NOT_TAKEN = 6  # kerb_call_dlpack: failed before looking at the tensors
# kerb_call_dlpack's flags.
CALL_EXPORT, CALL_SYNC = 1, 2
# DLPack's device types.
DL_CPU, DL_CUDA, DL_CUDA_HOST, DL_CUDA_MANAGED = 1, 2, 3, 13


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", c_int32), ("device_id", c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", c_void_p), ("device", DLDevice), ("ndim", c_int32), ("dtype", DLDataType),
                ("shape", POINTER(c_int64)), ("strides", POINTER(c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", c_void_p), ("deleter", c_void_p)]


_DL_CODES = {0: "int", 1: "uint", 2: "float", 6: "bool"}


def describe_dltensor(ptr):
    """(element type, device) of a DLManagedTensor, for messages: ("float64", "cuda:0")."""
    t = DLManagedTensor.from_address(ptr).dl_tensor
    code = _DL_CODES.get(t.dtype.code, "code %d " % t.dtype.code)
    dtype = "bool" if code == "bool" else "%s%d" % (code, t.dtype.bits)
    if t.dtype.lanes != 1:
        dtype += "x%d" % t.dtype.lanes
    return dtype, device_name(t.device.device_type, t.device.device_id)


def device_name(device_type, device_id):
    if device_type in (DL_CPU, DL_CUDA_HOST):
        return "cpu"
    if device_type in (DL_CUDA, DL_CUDA_MANAGED):
        return "cuda:%d" % device_id
    return "DLPack device %d:%d" % (device_type, device_id)


# Python's capsule functions.
_py = ctypes.pythonapi
_py.PyCapsule_New.restype = ctypes.py_object
_py.PyCapsule_New.argtypes = [c_void_p, c_void_p, c_void_p]
_py.PyCapsule_GetPointer.restype = c_void_p
_py.PyCapsule_GetPointer.argtypes = [ctypes.py_object, c_char_p]
_py.PyCapsule_SetName.restype = c_int
_py.PyCapsule_SetName.argtypes = [ctypes.py_object, c_void_p]
_py.PyCapsule_IsValid.restype = c_int
_py.PyCapsule_IsValid.argtypes = [ctypes.py_object, c_char_p]
capsule_pointer = _py.PyCapsule_GetPointer
capsule_is_valid = _py.PyCapsule_IsValid
_CAPSULE_GET_NAME = ctypes.cast(_py.PyCapsule_GetName, c_void_p).value
_CAPSULE_GET_POINTER = ctypes.cast(_py.PyCapsule_GetPointer, c_void_p).value

_libc = ctypes.CDLL(None)
_libc.free.argtypes = [c_void_p]
_libc.free.restype = None


def take_string(ptr):
    """The text of a malloc'd C string (freed), or None for NULL."""
    if not ptr:
        return None
    try:
        return ctypes.string_at(ptr).decode("utf-8", "replace")
    finally:
        _libc.free(ptr)


class Library:
    """A loaded libNAME.so: its manifest and the C functions the package calls."""

    def __init__(self, path):
        self.path = str(path)
        try:
            lib = ctypes.CDLL(self.path)
        except OSError as e:
            raise OSError("cannot load the Kerb library %s: %s" % (self.path, e)) from None
        self.lib = lib
        try:
            manifest_fn = lib.kerb_program_manifest
        except AttributeError:
            raise ValueError("%s is not a library made by `kerb compile --library --shared` (it has no "
                             "kerb_program_manifest)" % self.path) from None
        manifest_fn.restype = c_char_p
        manifest_fn.argtypes = []
        self.manifest = json.loads(manifest_fn().decode("utf-8"))
        if self.manifest.get("manifest_version") != 1:
            raise ValueError("%s: unknown manifest version %r" % (self.path, self.manifest.get("manifest_version")))

        def fn(name, restype, *argtypes):
            f = getattr(lib, name)
            f.restype = restype
            f.argtypes = list(argtypes)
            return f

        self.config_new = fn("kerb_context_config_new", c_void_p)
        self.config_free = fn("kerb_context_config_free", None, c_void_p)
        self.config_set_device = fn("kerb_context_config_set_device", c_int, c_void_p, c_char_p)
        self.config_set_sync_checks = fn("kerb_context_config_set_sync_checks", c_int, c_void_p, c_int)
        self.context_new = fn("kerb_context_new", c_void_p, c_void_p)
        self.context_free = fn("kerb_context_free", None, c_void_p)
        self.context_sync = fn("kerb_context_sync", c_int, c_void_p)
        self.context_get_error = fn("kerb_context_get_error", c_void_p, c_void_p)
        self.context_poll_error = fn("kerb_context_poll_error", c_int, c_void_p)
        self.context_get_device = fn("kerb_context_get_device", c_char_p, c_void_p)
        self.context_report = fn("kerb_context_report", c_void_p, c_void_p)
        self.context_clear_caches = fn("kerb_context_clear_caches", c_int, c_void_p)
        self.get_cuda_stream = fn("kerb_context_get_cuda_stream", c_int, c_void_p, POINTER(c_void_p))
        self.set_cuda_stream = fn("kerb_context_set_cuda_stream", c_int, c_void_p, c_void_p)
        self.order_cuda_stream = fn("kerb_context_order_cuda_stream", c_int, c_void_p, c_void_p)
        self.array_new = fn("kerb_rt_array_new", c_void_p, c_void_p, c_int32, c_int32, c_void_p, POINTER(c_int64))
        self.array_values = fn("kerb_rt_array_values", c_int, c_void_p, c_int32, c_int32, c_void_p, c_void_p)
        self.array_shape = fn("kerb_rt_array_shape", POINTER(c_int64), c_void_p, c_int32, c_int32, c_void_p)
        self.array_free = fn("kerb_rt_array_free", c_int, c_void_p, c_int32, c_int32, c_void_p)
        self.array_from_dlpack = fn("kerb_rt_array_from_dlpack", c_void_p, c_void_p, c_int32, c_int32, c_void_p,
                                    POINTER(c_int32))
        self.array_to_dlpack = fn("kerb_rt_array_to_dlpack", c_void_p, c_void_p, c_int32, c_int32, c_void_p,
                                  c_int64)
        # Streams that outlive the context (JAX's; a library made by an older runtime has none).
        self.lasting_cuda_stream = None
        if hasattr(lib, "kerb_context_lasting_cuda_stream"):
            self.lasting_cuda_stream = fn("kerb_context_lasting_cuda_stream", c_int, c_void_p, c_void_p)
        # A whole call in one crossing (a library made by an older runtime has none).
        self.call_dlpack = None
        if hasattr(lib, "kerb_call_dlpack"):
            self.call_dlpack = fn("kerb_call_dlpack", c_int, c_void_p, c_int32, c_void_p, c_void_p, c_void_p,
                                  c_int32, c_int64, c_void_p)
        fn("kerb_rt_dlpack_capsule_api", None, c_void_p, c_void_p)(_CAPSULE_GET_NAME, _CAPSULE_GET_POINTER)
        name = fn("kerb_rt_dlpack_name", c_void_p, c_int32)
        self.capsule_name, self.used_capsule_name = name(0), name(1)
        self.capsule_destructor = ctypes.cast(lib.kerb_rt_dlpack_capsule_destructor, c_void_p).value

    def entry_function(self, entry, index):
        """The ctypes function of entry number `index` of the manifest: ctx, a pointer per
        result, then the parameters' slots (scalars by value, arrays as handles). An entry
        whose C function takes opaque values (records, ...) is called through
        kerb_call_dlpack instead, which takes its slots one by one."""
        opaque = any(v["opaque"] is not None for p in entry["params"] for v in p.get("values", ())) or \
            any(v["opaque"] is not None for v in entry["result"].get("values", ()))
        if opaque:
            return _SlotCall(self, entry, index)
        f = getattr(self.lib, entry["cfun"])
        f.restype = c_int
        results = entry["result"]["slots"]
        argtypes = [c_void_p] + [c_void_p] * len(results)
        for p in entry["params"]:
            for s in p["slots"]:
                argtypes.append(c_void_p if s["rank"] else CTYPE[s["prim"]])
        f.argtypes = argtypes
        return f

    def capsule(self, managed):
        """A "dltensor" capsule holding `managed` (a DLManagedTensor pointer); if no consumer
        takes it, its destructor calls the tensor's deleter."""
        return _py.PyCapsule_New(managed, self.capsule_name, self.capsule_destructor)

    def take_capsule(self, capsule):
        """Marks a capsule whose tensor the runtime took (DLPack's protocol)."""
        _py.PyCapsule_SetName(capsule, self.used_capsule_name)


class _SlotCall:
    """An entry called with its flattened slots, as entry_function's ctypes functions are,
    through kerb_call_dlpack with every array a handle (its C function takes opaque values)."""

    def __init__(self, library, entry, index):
        self.call_dlpack = library.call_dlpack
        self.index = index
        self.slots = [(s["rank"], CTYPE[s["prim"]]) for p in entry["params"] for s in p["slots"]]
        self.nout = len(entry["result"]["slots"])
        n = len(self.slots)
        self.args = (c_void_p * max(n, 1))()
        self.kinds = (ctypes.c_uint8 * max(n, 1))(*([1] * n))
        self.outs = (c_void_p * max(self.nout, 1))()
        self.problem = (c_int32 * 2)()

    def __call__(self, ctx, *args):
        keep = []
        for k, ((rank, ctype), v) in enumerate(zip(self.slots, args[self.nout:])):
            if rank:
                self.args[k] = v.value if isinstance(v, c_void_p) else v
            else:
                value = v if isinstance(v, ctype) else ctype(v)
                keep.append(value)
                self.args[k] = ctypes.addressof(value)
        for k, address in enumerate(args[:self.nout]):
            self.outs[k] = address
        return self.call_dlpack(ctx, self.index, ctypes.addressof(self.args), ctypes.addressof(self.kinds),
                                ctypes.addressof(self.outs), 0, -1, ctypes.addressof(self.problem))


capsule_new = _py.PyCapsule_New
capsule_set_name = _py.PyCapsule_SetName


def c_int64_array(values):
    return (c_int64 * max(len(values), 1))(*values)


__all__ = ["Library", "byref", "c_void_p", "c_int32", "c_int64"]

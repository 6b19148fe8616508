"""kerb.Program: a compiled Kerb program loaded into a context on one device, with one
Python function per entry point; and how arguments become the C API's (numpy arrays,
DLPack arrays of PyTorch, CuPy and JAX, Python scalars) and results come back.

Streams (CUDA): a call runs on a stream chosen for it (Note [Streams] in docs/PYTHON.md):
the program's `stream` if one was set; else PyTorch's current stream when an argument is
a PyTorch tensor, CuPy's when one is a CuPy array; else the context's stream of the moment
(its own, or a default stream a library used last). A library's stream other than the
default ones is borrowed for the call only: at its end the context goes back to its
stream, which waits for the call's work, so that Kerb never names that stream again
(the library may destroy it at any time after the call returns). Arguments are taken
with __dlpack__(stream=that stream), so their producers order their work before the
call; results lent out with __dlpack__(stream=s) make `s` wait for the call. Memory
stays valid until the work queued on it is done on both sides (runtime/c_api.cpp, Note
[Arrays lent through DLPack])."""

import collections
import inspect
import json
import keyword
import operator
import sys
import threading
import weakref

import numpy as np

from . import _native
from ._array import NUMPY_DTYPE, Array
from ._errors import CheckError, KerbError, OutOfMemoryError
from ._native import byref, c_int32, c_int64, c_void_p

_OUTPUTS = ("auto", "numpy", "array", "torch", "cupy", "jax")
_INT_RANGE = {
    "i8": (-2**7, 2**7 - 1), "i16": (-2**15, 2**15 - 1), "i32": (-2**31, 2**31 - 1), "i64": (-2**63, 2**63 - 1),
    "u8": (0, 2**8 - 1), "u16": (0, 2**16 - 1), "u32": (0, 2**32 - 1), "u64": (0, 2**64 - 1),
}


def _library_of(value):
    """"torch", "cupy", "jax", "numpy" or None: which library an argument comes from."""
    t = type(value)
    kind = _KINDS.get(t)
    if kind is None:
        root = t.__module__.split(".")[0]
        kind = {"torch": "torch", "cupy": "cupy", "jax": "jax", "jaxlib": "jax", "numpy": "numpy"}.get(root, "")
        if kind == "torch" and _torch_tensor is None:
            _load_torch()
        _KINDS[t] = kind
    return kind or None


_KINDS = {Array: ""}

# CUDA's legacy default stream (0) and per-thread default stream (2): never destroyed.
_LASTING_STREAMS = (0, 2)


def stream_handle(stream):
    """A CUDA stream as an integer handle: an int, or a stream object of PyTorch
    (.cuda_stream), CuPy (.ptr) or any with __cuda_stream__."""
    if isinstance(stream, int):
        return stream
    if hasattr(stream, "__cuda_stream__"):
        return int(stream.__cuda_stream__()[1])
    for attr in ("cuda_stream", "ptr", "handle"):
        if hasattr(stream, attr):
            return int(getattr(stream, attr))
    raise TypeError("not a CUDA stream: %r (expected an int handle, or a stream of PyTorch or CuPy)" % (stream,))


class _Slot:
    """One flattened parameter or result of an entry (the manifest's slot)."""

    __slots__ = ("prim", "prim_id", "rank", "dims", "named_dims", "dtype", "ctype", "quick", "lo", "hi")

    def __init__(self, s):
        self.prim = s["prim"]
        self.prim_id = _native.PRIM_ID[self.prim]
        self.rank = s["rank"]
        self.dims = s["dims"]
        # (k, size name or constant) of the dimensions that something is known about.
        self.named_dims = tuple((k, d) for k, d in enumerate(self.dims) if d is not None)
        self.dtype = NUMPY_DTYPE[self.prim]
        self.ctype = _native.CTYPE[self.prim]
        # A scalar's quick conversion (kerb_call_dlpack): a value of type `quick` within [lo,
        # hi] goes into the C storage as it is: an int in range for integers, a float for
        # f32 and f64; anything else (and bools, f16) takes _scalar.
        self.quick, self.lo, self.hi = None, 0, 0
        if self.prim in _INT_RANGE:
            self.quick = int
            self.lo, self.hi = _INT_RANGE[self.prim]
        elif self.prim in ("f32", "f64"):
            self.quick, self.lo, self.hi = float, float("-inf"), float("inf")

    def type_text(self):
        return "".join("[%s]" % ("" if d is None else d) for d in self.dims) + self.prim


class _Param:
    __slots__ = ("name", "type", "tuple", "slots", "values")

    def __init__(self, p, records):
        self.name = p["name"]
        self.type = p["type"]
        self.tuple = p["tuple"]
        self.slots = [_Slot(s) for s in p["slots"]]
        # The manifest's values when one of them is a record, sum or abstract type (else None).
        self.values = p.get("values") if records.any_opaque(p.get("values")) else None


class _Records:
    """The program's opaque types (the manifest's opaque_types: records, arrays of records,
    abstract and sum types) in Python: a record is a namedtuple of its fields (a field
    named like a Python keyword gets a trailing `_`), built from an entry's flattened
    results and taken apart into its slots for an argument; an abstract or sum value is
    the tuple of its slots (one slot: the value itself), as it was before."""

    def __init__(self, manifest):
        self.types = manifest.get("opaque_types", [])
        self.classes = {}

    @staticmethod
    def any_opaque(values):
        return bool(values) and any(v["opaque"] is not None for v in values)

    def record_class(self, k):
        cls = self.classes.get(k)
        if cls is None:
            t = self.types[k]
            name = t["ctype"][len("kerb_opaque_"):]
            fields = [_python_name(f["name"], i) for i, f in enumerate(t["fields"])]
            cls = self.classes[k] = collections.namedtuple(name if name.isidentifier() else "record", fields)
            cls.__doc__ = "A value of type %s of the Kerb program." % t["name"]
        return cls

    def build(self, values, flat, pos=0):
        """The Python values of `values` from flat results `flat` (from `pos`), and the position
        after them."""
        out = []
        for v in values:
            k = v["opaque"]
            if k is None:
                out.append(flat[pos])
                pos += 1
                continue
            t = self.types[k]
            if t["kind"] == "record":
                fields = []
                for f in t["fields"]:
                    vals, pos = self.build(f["values"], flat, pos)
                    fields.append(vals[0] if len(vals) == 1 else tuple(vals))
                out.append(self.record_class(k)(*fields))
            else:
                n = t["slots"]
                out.append(flat[pos] if n == 1 else tuple(flat[pos:pos + n]))
                pos += n
        return out, pos

    def flatten(self, values, x, what, out):
        """Appends (name for messages, value) per slot of argument `x` of `values` to `out`."""
        if len(values) == 1:
            self._flatten_value(values[0], x, what, out)
            return
        if not isinstance(x, (tuple, list)) or len(x) != len(values):
            raise TypeError("%s: expected a tuple of %d components, got %s" % (what, len(values), _describe(x)))
        for i, (v, c) in enumerate(zip(values, x)):
            self._flatten_value(v, c, "%s[%d]" % (what, i), out)

    def _flatten_value(self, v, x, what, out):
        k = v["opaque"]
        if k is None:
            out.append((what, x))
            return
        t = self.types[k]
        if t["kind"] != "record":
            n = t["slots"]
            if n == 1:
                out.append((what, x))
                return
            if not isinstance(x, (tuple, list)) or len(x) != n:
                raise TypeError("%s: expected a %s as a tuple of %d components, got %s" % (what, t["name"], n,
                                                                                         _describe(x)))
            out.extend(("%s[%d]" % (what, i), c) for i, c in enumerate(x))
            return
        fields = t["fields"]
        names = [_python_name(f["name"], i) for i, f in enumerate(fields)]
        if isinstance(x, dict):
            missing = [f["name"] for f, n in zip(fields, names) if f["name"] not in x and n not in x]
            if missing:
                raise TypeError("%s: the %s has no field %s" % (what, t["name"], ", ".join(missing)))
            parts = [x[f["name"]] if f["name"] in x else x[n] for f, n in zip(fields, names)]
        elif isinstance(x, (tuple, list)) and not hasattr(x, "_fields"):
            if len(x) == t["slots"] and len(x) != len(fields):
                out.extend(("%s[%d]" % (what, i), c) for i, c in enumerate(x))  # flattened already
                return
            if len(x) != len(fields):
                raise TypeError("%s: expected a %s (fields %s), got %s" % (what, t["name"], ", ".join(names),
                                                                          _describe(x)))
            parts = list(x)
        else:
            try:
                parts = [getattr(x, n) for n in names]
            except AttributeError:
                raise TypeError("%s: expected a %s (an object, dict or tuple of fields %s), got %s" %
                                (what, t["name"], ", ".join(names), _describe(x))) from None
        for f, n, part in zip(fields, names, parts):
            self.flatten(f["values"], part, "%s.%s" % (what, n), out)


class _Entry:
    """An entry point: its manifest, C function and Python signature."""

    def __init__(self, program, e, index):
        self.name = e["name"]
        records = program._records
        self.records = records
        self.params = [_Param(p, records) for p in e["params"]]
        self.result_type = e["result"]["type"]
        self.result_tuple = e["result"]["tuple"]
        self.results = [_Slot(s) for s in e["result"]["slots"]]
        # The results' values when one is a record, sum or abstract type (else None).
        self.result_values = e["result"].get("values") if records.any_opaque(e["result"].get("values")) else None
        self.cfun = program._lib.entry_function(e, index)
        self.out_values = [_native.c_void_p() if r.rank else r.ctype() for r in self.results]
        self.out_addresses = [_native.ctypes.addressof(v) for v in self.out_values]
        self.index = {}
        for k, p in enumerate(self.params):
            self.index[p.name] = self.index[_python_name(p.name, k)] = k
        # (name, parameter, slot) of each parameter, when none is a tuple or record (the quick path).
        self.flat = None if any(p.tuple or p.values is not None for p in self.params) else \
            [(p.name, p, p.slots[0]) for p in self.params]
        self.plan = _Plan(self, index) if self.flat is not None and \
            program._lib.call_dlpack is not None else None

    def finish(self, out):
        """The call's result from its flattened results `out`."""
        if self.result_values is not None:
            values, _ = self.records.build(self.result_values, out)
            return values[0] if len(values) == 1 else tuple(values)
        if self.result_tuple:
            return tuple(out)
        return out[0]

    def signature_text(self):
        return "%s(%s) -> %s" % (self.name, ", ".join("%s: %s" % (p.name, p.type) for p in self.params),
                                 self.result_type)

    def bind(self, args, kwargs):
        n = len(self.params)
        if len(args) > n:
            raise TypeError("%s() takes %d argument%s but %d were given" %
                            (self.name, n, "" if n == 1 else "s", len(args)))
        if not kwargs and len(args) == n:
            return args
        values = list(args) + [_MISSING] * (n - len(args))
        for k, v in kwargs.items():
            i = self.index.get(k)
            if i is None:
                raise TypeError("%s() got an unexpected keyword argument '%s'" % (self.name, k))
            if values[i] is not _MISSING:
                raise TypeError("%s() got multiple values for argument '%s'" % (self.name, k))
            values[i] = v
        missing = [self.params[i].name for i, v in enumerate(values) if v is _MISSING]
        if missing:
            raise TypeError("%s() missing argument%s: %s" % (self.name, "" if len(missing) == 1 else "s",
                                                           ", ".join("'%s'" % m for m in missing)))
        return values


_MISSING = object()


class _Plan:
    """What a call of an entry through kerb_call_dlpack (the whole call in one crossing
    into C) needs that does not depend on the arguments' values, made once: the C
    argument arrays (scalars' storage at fixed addresses), the parameters' slots, and the
    sizes to compare: only those that two parameters name, or fixed ones (Note [The quick
    call])."""

    __slots__ = ("index", "args", "kinds", "outs", "problem", "params", "checks", "args_p", "kinds_p", "outs_p",
                 "problem_p", "bool_results", "array_results", "results")

    def __init__(self, entry, index):
        import ctypes
        n = len(entry.params)
        self.index = index
        self.args = (c_void_p * max(n, 1))()
        self.kinds = (ctypes.c_uint8 * max(n, 1))()
        self.outs = (c_void_p * max(len(entry.results), 1))(*entry.out_addresses)
        self.problem = (c_int32 * 2)()
        self.args_p, self.kinds_p, self.outs_p, self.problem_p = (
            ctypes.addressof(x) for x in (self.args, self.kinds, self.outs, self.problem))
        # Per parameter: (number, name, slot, its storage if a scalar).
        self.params = []
        uses = {}
        for k, (name, p, slot) in enumerate(entry.flat):
            storage = None
            if slot.rank == 0:
                storage = slot.ctype()
                self.args[k] = ctypes.addressof(storage)
            self.params.append((k, name, slot, storage))
            for d, size in slot.named_dims:
                uses.setdefault(size, []).append((k, d))
        # (parameter number, dimension, size) of each dimension to compare.
        self.checks = tuple((k, d, size) for size, where in uses.items()
                            if size.__class__ is int or len(where) > 1 for k, d in where)
        self.bool_results = any(r.rank and r.prim == "bool" for r in entry.results)
        self.array_results = any(r.rank for r in entry.results)
        self.results = tuple(zip(entry.results, entry.out_values))


def _python_name(name, k):
    """A parameter's name as a Python identifier: `is` becomes `is_`."""
    if keyword.iskeyword(name):
        return name + "_"
    return name if name.isidentifier() else "arg%d" % k


def _entry_function(program, entry):
    """A Python function for `entry`, with its signature and help text."""
    ref = weakref.ref(program)

    n = len(entry.params)

    def call(*args, **kwargs):
        p = ref()
        if p is None:
            raise KerbError("the kerb.Program of %s() is gone" % entry.name)
        return p._call(entry, args if not kwargs and len(args) == n else entry.bind(args, kwargs))

    call.__name__ = call.__qualname__ = entry.name
    call.__signature__ = inspect.Signature(
        [inspect.Parameter(_python_name(p.name, k), inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=p.type)
         for k, p in enumerate(entry.params)], return_annotation=entry.result_type)
    call.__doc__ = ("Entry point %s of %s.\n\n"
                    "Arrays: numpy arrays, kerb.Arrays, or DLPack arrays (PyTorch, CuPy, JAX) on the program's "
                    "device; sizes named alike must agree. Tuples are passed and returned as Python tuples, records as "
                    "namedtuples (a dict or an object with the fields goes in too).\n"
                    "Raises kerb.CheckError when a check fails, TypeError or ValueError for a wrong argument."
                    % (entry.signature_text(), program.source))
    return call


class Program:
    """A compiled Kerb program in a context on one device (kerb.compile, kerb.load).

    Each entry point is a method with its parameters' names (help(prog.NAME) shows its
    types): prog.main(xs, is_). Arguments are numpy arrays, kerb.Arrays, DLPack arrays of
    other libraries (PyTorch, CuPy, JAX) on the program's device, which are used without a
    copy, or, on the GPU, host arrays, which are copied; scalars are Python or numpy
    numbers. Results follow `output`: "auto" (default: the library of the first array
    argument: numpy, torch, cupy or jax; else numpy on the CPU and kerb.Array on the GPU),
    "numpy", "array" (kerb.Array), "torch", "cupy" or "jax". Scalars come back as numpy
    scalars, tuples as tuples, records as namedtuples.

    Failed checks raise kerb.CheckError (a RuntimeError) with Futhark's message and the
    source location; on the GPU calls are asynchronous and a failure surfaces at the next
    sync point (sync(), numpy(), a scalar result, a call whose host code reads a value).
    The program stays usable after one."""

    def __init__(self, library, device="", *, output="auto", sync_checks=False, stream=None):
        if output not in _OUTPUTS:
            raise ValueError("output must be one of %s, not %r" % (", ".join(_OUTPUTS), output))
        if not isinstance(library, _native.Library):
            library = _native.Library(library)
        self._lib = lib = library
        self._ctx = None
        self._lock = threading.RLock()
        self._dead = []
        self._output = output
        m = lib.manifest
        self.name = m["name"]
        self.source = m["source"]
        self.manifest = m
        cfg = lib.config_new()
        if not cfg:
            raise MemoryError("kerb: out of memory making a configuration")
        try:
            if lib.config_set_device(cfg, (device or "").encode()) != 0:
                raise ValueError(_native.take_string(lib.context_get_error(None)) or "bad device %r" % device)
            lib.config_set_sync_checks(cfg, 1 if sync_checks else 0)
            ctx = lib.context_new(cfg)
        finally:
            lib.config_free(cfg)
        if not ctx:
            raise MemoryError("kerb: out of memory making a context")
        self._ctx = ctx
        d = lib.context_get_device(ctx)
        if d is None:
            message = _native.take_string(lib.context_get_error(ctx))
            lib.context_free(ctx)
            self._ctx = None
            raise KerbError(message or "the context did not start")
        self.device_description = d.decode()
        self._cuda = not self.device_description.startswith("cpu")
        stream_out = c_void_p()
        if self._cuda:
            self._check(lib.get_cuda_stream(ctx, byref(stream_out)))
            self._ordinal = int(self.device_description.split("(device ")[1].split(",")[0])
            self._device_tag = "cuda:%d" % self._ordinal
            self._dlpack_device = (_native.DL_CUDA, self._ordinal)
        else:
            self._ordinal = 0
            self._device_tag = "cpu"
            self._dlpack_device = (_native.DL_CPU, 0)
        self._own_stream = stream_out.value or 0
        self._current_stream = self._own_stream
        self._last_stream = None  # the stream of the last call (for tests)
        self._torch_stream_of_call = None  # the call's stream when it is PyTorch's current one
        self._lasting = set()  # streams declared lasting (_declare_lasting)
        self._stream = None
        if stream is not None:
            self.stream = stream
        self._records = _Records(m)
        self._entries = {}
        self._functions = {}
        # An entry's number is its place in the manifest, as in the library (kerb_call_dlpack).
        for index, e in enumerate(m["entries"]):
            entry = _Entry(self, e, index)
            self._entries[entry.name] = entry
            f = self._functions[entry.name] = _entry_function(self, entry)
            if entry.name.isidentifier() and not hasattr(Program, entry.name):
                self.__dict__[entry.name] = f  # found without __getattr__
        self._problem = c_int32()

    # ---- the program as a Python object

    def __getattr__(self, name):
        functions = self.__dict__.get("_functions")
        if functions is not None and name in functions:
            return functions[name]
        raise AttributeError("%s has no entry point or attribute '%s' (entries: %s)" %
                             (self.__dict__.get("source", "the program"), name,
                              ", ".join(sorted(functions or ())) or "none"))

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._functions))

    def __getitem__(self, name):
        """The function of entry `name` (for names that are no identifiers, or clash)."""
        return self._functions[name]

    @property
    def entries(self):
        """Entry name -> its signature text, e.g. "gather(xs: [n]f32, is: [m]i64) -> [m]f32"."""
        return {n: e.signature_text() for n, e in self._entries.items()}

    @property
    def device(self):
        """"cpu" or "cuda:N"."""
        return self._device_tag

    def __repr__(self):
        state = "closed" if self._ctx is None else self.device_description
        return "kerb.Program(%s, %s, entries: %s)" % (self.source, state, ", ".join(self._entries))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        """Waits for the device and frees the context; arrays lent to other libraries stay
        valid until they let go."""
        with self._lock:
            ctx, self._ctx = self._ctx, None
            if ctx is not None:
                self._free_dead(ctx)
                if self._cuda and self._current_stream != self._own_stream:
                    self._lib.set_cuda_stream(ctx, self._own_stream)
                self._lib.context_free(ctx)

    def __del__(self):
        if getattr(self, "_ctx", None) is not None:
            try:
                self.close()
            except Exception:
                pass

    @property
    def stream(self):
        """The CUDA stream calls run on: None (default) chooses per call: PyTorch's current
        stream when an argument is a PyTorch tensor, CuPy's for a CuPy array (borrowed for
        the call only), else the program's. Set an int handle or a stream object (PyTorch,
        CuPy) to use that one for every call: its lifetime is then yours: it must stay
        alive while it is set, until `prog.stream = None` (or another stream, or close())
        has returned, since switching away names it (its work is ordered first)."""
        return self._stream

    @stream.setter
    def stream(self, s):
        if not self._cuda:
            raise ValueError("stream: the program runs on the cpu device")
        s = None if s is None else stream_handle(s)
        if s == 1:
            s = 0
        with self._lock:
            ctx = self._context()
            # At once: the old stream is named (its work ordered before the new one's) while
            # it is certainly alive.
            new = self._own_stream if s is None else s
            if new != self._current_stream:
                self._check(self._lib.set_cuda_stream(ctx, new))
                self._current_stream = new
            self._stream = s

    # ---- the context

    def _context(self):
        if self._ctx is None:
            raise KerbError("the kerb.Program of %s is closed" % self.source)
        return self._ctx

    def _check(self, rc, ctx=None):
        if rc == 0:
            return
        message = _native.take_string(self._lib.context_get_error(ctx if ctx is not None else self._ctx))
        message = message or "kerb: error %d" % rc
        if rc == _native.PROGRAM_ERROR:
            raise CheckError(message)
        if rc == _native.OUT_OF_MEMORY:
            raise OutOfMemoryError(message)
        if rc == _native.USAGE_ERROR:
            raise ValueError(message)
        raise KerbError(message)

    def sync(self):
        """Waits for all work; raises kerb.CheckError if a check failed since the last sync."""
        with self._lock:
            ctx = self._context()
            self._free_dead(ctx)
            self._check(self._lib.context_sync(ctx))

    def poll(self):
        """Raises kerb.CheckError if a check has failed in work not synchronised yet, without
        waiting (the next sync point reports it again)."""
        ctx = self._context()
        self._check(self._lib.context_poll_error(ctx))

    def report(self):
        """The context's counters as a dict (entry calls, live arrays, bytes in use and at
        most, allocations, fresh allocations, cached bytes; docs/C-API.md)."""
        with self._lock:
            ctx = self._context()
            self._free_dead(ctx)
            text = _native.take_string(self._lib.context_report(ctx))
            if text is None:
                self._check(_native.ERROR)
            return json.loads(text)

    def clear_caches(self):
        """Gives the device memory that no array uses back to the device."""
        with self._lock:
            ctx = self._context()
            self._free_dead(ctx)
            self._check(self._lib.context_clear_caches(ctx))

    # ---- arrays

    def _release(self, handle, prim, rank):
        """Frees an Array's handle: now if the program is free, else at its next call."""
        if self._ctx is None:
            return
        self._dead.append((handle, prim, rank))
        if self._lock.acquire(blocking=False):
            try:
                if self._ctx is not None:
                    self._free_dead(self._ctx)
            finally:
                self._lock.release()

    def _free_dead(self, ctx):
        dead = self._dead
        while dead:
            handle, prim, rank = dead.pop()
            self._lib.array_free(ctx, _native.PRIM_ID[prim], rank, handle)

    def _shape(self, array):
        """The shape of an Array made without one (a result), asked of the runtime."""
        with self._lock:
            ctx = self._context()
            shape_p = self._lib.array_shape(ctx, _native.PRIM_ID[array._prim], array._rank, array._handle)
            if not shape_p:
                self._check(_native.USAGE_ERROR)
            return tuple(shape_p[k] for k in range(array._rank))

    def _values(self, array):
        with self._lock:
            ctx = self._context()
            out = np.empty(array.shape, dtype=NUMPY_DTYPE[array._prim])
            self._check(self._lib.array_values(ctx, _native.PRIM_ID[array._prim], array._rank, array._handle,
                                               out.ctypes.data))
            return out

    def _declare_lasting(self, stream):
        """Declares a CUDA stream (an int handle) as living as long as the program's context
        (_JaxLent), once per stream."""
        if stream in self._lasting or self._lib.lasting_cuda_stream is None:
            return
        with self._lock:
            self._check(self._lib.lasting_cuda_stream(self._context(), stream))
            self._lasting.add(stream)

    def _export(self, array, stream):
        """A DLPack capsule lending `array` (consumer stream: DLPack's convention)."""
        with self._lock:
            ctx = self._context()
            if stream is None:
                stream = 1 if self._cuda else -1
            elif not isinstance(stream, int):
                raise TypeError("__dlpack__: stream must be an int or None")
            managed = self._lib.array_to_dlpack(ctx, _native.PRIM_ID[array._prim], array._rank, array._handle,
                                                stream if self._cuda else -1)
            if not managed:
                self._check(_native.USAGE_ERROR)
            return self._lib.capsule(managed)

    def array(self, value, dtype=None):
        """A kerb.Array holding a copy of `value` (anything numpy.asarray takes) on the
        program's device; `dtype` is a Kerb type name ("f32") or a numpy dtype."""
        a = np.ascontiguousarray(value, dtype=NUMPY_DTYPE.get(dtype, dtype))
        prim = {v: k for k, v in NUMPY_DTYPE.items()}.get(a.dtype)
        if prim is None or a.ndim == 0:
            raise TypeError("kerb.Program.array: no Kerb array type for %s of %d dimensions" % (a.dtype, a.ndim))
        with self._lock:
            ctx = self._context()
            h = self._new_array(ctx, prim, a)
            return Array(self, h, prim, a.shape)

    def _new_array(self, ctx, prim, a):
        dims = _native.c_int64_array(a.shape)
        h = self._lib.array_new(ctx, _native.PRIM_ID[prim], a.ndim, a.ctypes.data if a.size else None, dims)
        if not h:
            self._check(_native.ERROR)
        return h

    # ---- calls

    def _call(self, entry, args):
        with self._lock:
            ctx = self._ctx
            if ctx is None:
                self._context()  # raises
            if self._dead:
                self._free_dead(ctx)
            plan = entry.plan
            if not self._cuda:
                if plan is not None:
                    result = self._call_plan(ctx, entry, plan, args, None)
                    if result is not _SLOW:
                        return result
                return self._call_general(ctx, entry, args, None)
            back = None  # the stream to go back to after a call on a borrowed one
            try:
                stream, back = self._choose_stream(args)
                if plan is not None:
                    result = self._call_plan(ctx, entry, plan, args, stream)
                    if result is not _SLOW:
                        return result
                return self._call_general(ctx, entry, args, stream)
            finally:
                if back is not None:
                    self._go_back(back)

    def _call_general(self, ctx, entry, args, stream):
        """A call of any entry on any arguments, one C function at a time: arrays that need a
        copy or a conversion, tuples, entries of libraries without kerb_call_dlpack, and the
        messages of wrong arguments."""
        lib = self._lib
        temps = []     # handles made for this call, freed after it
        sizes = {}     # size name -> (size, parameter that set it)
        kinds = []     # libraries of the array arguments
        # The results' storage is the entry's own (calls are serialised by the lock).
        out_values = entry.out_values
        c_args = [ctx] + entry.out_addresses
        try:
            flat = entry.flat
            for (what, p, slot), v in zip(flat or (), args):
                if slot.rank == 0:
                    c_args.append(_scalar(what, slot, v))
                else:
                    c_args.append(self._array_arg(ctx, what, p, slot, v, sizes, temps, kinds, stream))
            for p, value in zip(entry.params if flat is None else (), args):
                if p.values is not None:
                    parts = []
                    entry.records.flatten(p.values, value, p.name, parts)
                    if len(parts) != len(p.slots):
                        raise TypeError("%s: expected %d components (%s), got %d" % (p.name, len(p.slots), p.type,
                                                                                   len(parts)))
                    for slot, (what, v) in zip(p.slots, parts):
                        if slot.rank == 0:
                            c_args.append(_scalar(what, slot, v))
                        else:
                            c_args.append(self._array_arg(ctx, what, p, slot, v, sizes, temps, kinds, stream))
                    continue
                if p.tuple:
                    if not isinstance(value, (tuple, list)) or len(value) != len(p.slots):
                        raise TypeError("%s: expected a tuple of %d components (%s), got %s" %
                                        (p.name, len(p.slots), p.type, _describe(value)))
                    components = value
                else:
                    components = (value,)
                for k, (slot, v) in enumerate(zip(p.slots, components)):
                    what = p.name if not p.tuple else "%s[%d]" % (p.name, k)
                    if slot.rank == 0:
                        c_args.append(_scalar(what, slot, v))
                    else:
                        c_args.append(self._array_arg(ctx, what, p, slot, v, sizes, temps, kinds, stream))
            rc = entry.cfun(*c_args)
            for h, prim_id, rank in temps:
                lib.array_free(ctx, prim_id, rank, h)
            temps = ()
            if rc:
                self._check(rc)
            mode = self._output
            if mode == "auto":
                mode = kinds[0] if kinds else ("numpy" if not self._cuda else "array")
            try:
                if not self._cuda:
                    # The CPU device's work is done: looking at the failure slot costs nothing,
                    # and each call reports its own failure before its results are seen.
                    rc = lib.context_sync(ctx)
                    if rc:
                        self._check(rc)
            except BaseException:
                for r, v in zip(entry.results, out_values):
                    if r.rank and v.value:
                        lib.array_free(ctx, r.prim_id, r.rank, v.value)
                        v.value = None
                raise
            # Results lent to the library on the call's stream: nothing to wait for.
            return self._results(ctx, entry, out_values, mode)
        finally:
            for h, prim_id, rank in temps:
                lib.array_free(ctx, prim_id, rank, h)

    # Note [The quick call]
    # ~~~~~~~~~~~~~~~~~~~~~~
    # Python pays for every crossing into C (a ctypes call) and for every object and
    # dictionary it builds, so a call of an entry whose parameters are no tuples goes
    # through kerb_call_dlpack (include/kerb/kerb.h), which takes the whole call at once:
    # each argument's DLPack tensor (or a kerb.Array's handle, or a scalar's value), then
    # the call, the arguments' views given back, on the CPU device the sync that makes the
    # call report its own failure, and the results exported as DLPack tensors for the
    # library the caller gets them in. What does not depend on the values is made once per
    # entry (_Plan): the C arrays of arguments and results, scalars' storage at fixed
    # addresses, and the sizes worth comparing (a size named by one parameter only needs no
    # comparison). Per array argument Python does a type test, __dlpack__ (torch's
    # to_dlpack for tensors) and one capsule look-up; per result one capsule and the
    # library's from_dlpack.
    #
    # The quick path never explains: anything it does not take as it is (a list, a
    # read-only, non-contiguous or (before numpy 2) bool numpy array, a host array for the GPU, a tensor
    # that requires grad or is on another stream, sizes that disagree, a tensor of the
    # wrong type or rank, which kerb_call_dlpack reports without taking any) returns
    # _SLOW before anything was taken, and _call_general makes the call one C function at
    # a time, with its copies and its messages naming the parameter. The stream of a call
    # is chosen before either (_choose_stream), so both order alike (Note [Streams]).
    def _call_plan(self, ctx, entry, plan, args, stream):
        """A call through kerb_call_dlpack, in one crossing into C (Note [The quick call]); or
        _SLOW, nothing taken, when an argument wants the general path (a copy, a conversion,
        or an error to explain)."""
        cuda = self._cuda
        c_args = plan.args
        capsules = []
        handles = None  # the parameters given kerb.Arrays' handles
        kind = None     # the library of the first array argument
        shapes = {} if plan.checks else None
        for (k, what, slot, storage), v in zip(plan.params, args):
            t = type(v)
            if storage is not None:
                if t is slot.quick and slot.lo <= v <= slot.hi:
                    storage.value = v
                else:
                    storage.value = _scalar(what, slot, v).value
                continue
            if t is _ndarray:
                if cuda or v.ndim != slot.rank or v.dtype is not slot.dtype and v.dtype != slot.dtype:
                    return _SLOW
                try:
                    capsule = v.__dlpack__()
                except Exception:  # read-only; bool before numpy 2: numpy lends no view
                    return _SLOW
                this = "numpy"
            elif t is _torch_tensor:
                if v.requires_grad or v.is_cuda is not cuda or v.dim() != slot.rank or \
                        stream is not None and stream != self._torch_stream_of_call:
                    return _SLOW
                capsule = _torch_to_dlpack(v)
                this = "torch"
            elif t is Array:
                if v._program is not self or v._handle is None or v._prim != slot.prim or v._rank != slot.rank:
                    return _SLOW
                c_args[k] = v._handle
                if handles is None:
                    handles = []
                handles.append(k)
                if shapes is not None:
                    shapes[k] = v.shape
                continue
            else:
                this = _library_of(v)
                if this == "numpy" or not hasattr(t, "__dlpack__"):
                    return _SLOW
                try:
                    capsule = v.__dlpack__() if stream is None else v.__dlpack__(stream=stream if stream else 1)
                except Exception:  # a host array on the GPU, say: the general path copies it
                    return _SLOW
            if kind is None:
                kind = this
            if shapes is not None:
                shapes[k] = v.shape
            c_args[k] = _capsule_pointer(capsule, b"dltensor")
            capsules.append(capsule)
        if shapes is not None:
            sizes = {}
            for k, d, size in plan.checks:
                n = shapes[k][d]
                if size.__class__ is int:
                    if n != size:
                        return _SLOW
                elif sizes.setdefault(size, n) != n:
                    return _SLOW
        mode = self._output
        if mode == "auto":
            mode = kind or ("array" if cuda else "numpy")
        flags = 0 if cuda else _CALL_SYNC
        consumer = -1
        export = False
        if plan.array_results:
            if mode == "torch":
                export = True
                if _torch_from_dlpack is None:  # output="torch" before any tensor came
                    _load_torch()
                if cuda:
                    consumer = self._torch_consumer_stream()
            elif mode == "numpy":
                export = not cuda and not plan.bool_results
            elif mode == "cupy" and kind == "cupy":
                # The call ran on CuPy's current stream, which takes the results.
                export = True
                consumer = stream or 1
            if export:
                flags |= _CALL_EXPORT
        kinds = plan.kinds
        if handles is not None:
            for k in handles:
                kinds[k] = 1
        lib = self._lib
        rc = lib.call_dlpack(ctx, plan.index, plan.args_p, plan.kinds_p, plan.outs_p, flags, consumer,
                             plan.problem_p)
        if handles is not None:
            for k in handles:
                kinds[k] = 0
        if plan.problem[1]:
            return _SLOW  # nothing taken: the general path explains
        used = lib.used_capsule_name
        for capsule in capsules:
            _capsule_set_name(capsule, used)
        if rc:
            self._check(rc)
        if not plan.array_results:
            out = [_scalar_result(r, v.value) for r, v in plan.results]
        elif export:
            name, destructor = lib.capsule_name, lib.capsule_destructor
            out = []
            for r, v in plan.results:
                if r.rank:
                    out.append(_capsule_new(v.value, name, destructor))
                    v.value = None
                else:
                    out.append(_scalar_result(r, v.value))
            for i, (r, _) in enumerate(plan.results):
                if not r.rank:
                    continue
                if mode == "torch":
                    out[i] = _torch_from_dlpack(out[i])
                elif mode == "numpy":
                    out[i] = _np_from_dlpack(_Lent(out[i]))
                else:
                    out[i] = sys.modules["cupy"].from_dlpack(_Lent(out[i], self._dlpack_device))
        else:
            out = []
            for r, v in plan.results:
                if r.rank:
                    out.append(Array(self, v.value, r.prim, None, r.rank))
                    v.value = None
                else:
                    out.append(_scalar_result(r, v.value))
            if mode != "array":
                for i, (r, _) in enumerate(plan.results):
                    if r.rank:
                        out[i] = self._convert(out[i], mode)
        return entry.finish(out)

    def _choose_stream(self, args):
        """(the stream of a call on the GPU, set as the context's; the stream to go back to
        after the call, or None): see Program.stream and Note [Borrowed streams]."""
        s = self._stream
        self._torch_stream_of_call = None
        if s is not None:
            self._last_stream = s
            return s, None
        for v in args:
            kind = _library_of(v)
            if kind == "torch" and v.is_cuda:
                # The program's device's (a tensor on another device is refused anyway).
                s = self._torch_stream_of_call = _torch_current_stream(self._ordinal)
                if s == 1:
                    self._torch_stream_of_call = 0
                break
            if kind == "cupy":
                s = sys.modules["cupy"].cuda.get_current_stream().ptr  # imported: v is CuPy's
                break
        if s is None:
            self._last_stream = self._current_stream
            return self._current_stream, None
        if s == 1:
            s = 0
        self._last_stream = s
        if s == self._current_stream:
            return s, None
        back = self._current_stream
        self._check(self._lib.set_cuda_stream(self._ctx, s))
        self._current_stream = s
        # The default streams are never destroyed: the context may stay on them.
        return s, (None if s in _LASTING_STREAMS else back)

    def _go_back(self, back):
        """Back to the stream `back` (the context's own, or a default stream) after a call on a
        library's stream, which waits for the call's work while that stream is alive."""
        self._current_stream = back
        self._check(self._lib.set_cuda_stream(self._ctx, back))

    def _array_arg(self, ctx, what, param, slot, v, sizes, temps, kinds, stream):
        t = type(v)
        if t is np.ndarray and not self._cuda:
            # numpy on the CPU device: its DLPack view (numpy's own, cheap), no copy.
            kinds.append("numpy")
            if v.dtype is not slot.dtype and v.dtype != slot.dtype or v.ndim != slot.rank:
                _check_type(what, param, slot, v.shape, _PRIM_OF_DTYPE.get(v.dtype, str(v.dtype)))
            _check_sizes(what, param, slot, v.shape, sizes)
            if not v.flags.c_contiguous:
                v = np.ascontiguousarray(v)
            if not v.flags.writeable or slot.prim == "bool":
                # numpy gives no DLPack view of these: a copy.
                h = self._new_array(ctx, slot.prim, v)
                temps.append((h, slot.prim_id, slot.rank))
                return h
            return self._from_capsule(ctx, what, param, slot, v.__dlpack__(), temps)
        if t is _torch_tensor and not v.requires_grad and v.is_cuda == self._cuda and \
                (stream is None or stream == self._torch_stream_of_call):
            # A PyTorch tensor on the program's device, on PyTorch's current stream (or the
            # CPU): torch's own to_dlpack, which is what its __dlpack__ does after checks
            # that hold here (no stream to order: the call runs on the current one).
            kinds.append("torch")
            shape = v.shape
            if len(shape) != slot.rank:
                _check_type(what, param, slot, shape, None)
            _check_sizes(what, param, slot, shape, sizes)
            return self._from_capsule(ctx, what, param, slot, _torch_to_dlpack(v), temps)
        if isinstance(v, Array):
            if v._program is not self:
                raise ValueError("%s: the kerb.Array belongs to another program (%s)" % (what, v._program.source))
            if v._handle is None:
                raise ValueError("%s: the kerb.Array was freed" % what)
            _check_type(what, param, slot, v.shape, v._prim)
            _check_sizes(what, param, slot, v.shape, sizes)
            return v._handle
        if hasattr(v, "__dlpack_device__"):
            kind = _library_of(v)
            if kind:
                kinds.append(kind)
        else:
            try:
                v = np.asarray(v, dtype=slot.dtype)
            except (TypeError, ValueError) as e:
                raise TypeError("%s: expected an array (%s), got %s (%s)" % (what, param.type, _describe(v), e)) \
                    from None
            kind = "numpy"
        shape = tuple(v.shape)
        if kind == "numpy":
            _check_type(what, param, slot, shape, _PRIM_OF_DTYPE.get(v.dtype, str(v.dtype)))
        elif len(shape) != slot.rank:
            _check_type(what, param, slot, shape, None)
        _check_sizes(what, param, slot, shape, sizes)
        device_type, device_id = v.__dlpack_device__()
        device_type = int(device_type)
        host = device_type in (_native.DL_CPU, _native.DL_CUDA_HOST)
        if host and kind == "numpy":
            v = np.ascontiguousarray(v)
            if self._cuda or not v.flags.writeable or slot.prim == "bool":
                # Copied: to the GPU; or numpy gives no DLPack view of it.
                h = self._new_array(ctx, slot.prim, v)
                temps.append((h, slot.prim_id, slot.rank))
                return h
        elif host and self._cuda:
            a = np.ascontiguousarray(np.asarray(v))
            _check_type(what, param, slot, shape, _PRIM_OF_DTYPE.get(a.dtype, str(a.dtype)))
            h = self._new_array(ctx, slot.prim, a)
            temps.append((h, slot.prim_id, slot.rank))
            return h
        if not host and not self._cuda:
            raise ValueError("%s: the array is on %s, but the program runs on the cpu device" %
                             (what, _native.device_name(device_type, int(device_id))))
        if host or stream is None:
            capsule = v.__dlpack__()
        else:
            capsule = v.__dlpack__(stream=stream if stream else 1)
        return self._from_capsule(ctx, what, param, slot, capsule, temps)

    def _from_capsule(self, ctx, what, param, slot, capsule, temps):
        """The handle of a DLPack capsule's array (freed after the call), or the error that
        names the parameter."""
        managed = _native.capsule_pointer(capsule, b"dltensor")
        h = self._lib.array_from_dlpack(ctx, slot.prim_id, slot.rank, managed, byref(self._problem))
        if not h:
            problem = self._problem.value
            if problem == 0:
                self._check(_native.ERROR)
            dtype, device = _native.describe_dltensor(managed)
            if problem == _native.DLPACK_DEVICE:
                raise ValueError("%s: the array is on %s, but the program runs on %s" % (what, device, self._device_tag))
            if problem == _native.DLPACK_TYPE:
                raise TypeError("%s: expected an array of %s (%s), got one of %s" % (what, slot.prim, param.type, dtype))
            if problem == _native.DLPACK_STRIDES:
                raise ValueError("%s: the array is not contiguous in C order (make a contiguous copy, e.g. "
                                 "x.contiguous() in PyTorch)" % what)
            if problem == _native.DLPACK_ALIGNMENT:
                raise ValueError("%s: the array's data is not aligned to its element size" % what)
            raise ValueError("%s: expected %d dimensions (%s)" % (what, slot.rank, param.type))
        self._lib.take_capsule(capsule)
        temps.append((h, slot.prim_id, slot.rank))
        return h

    def _results(self, ctx, entry, out_values, mode):
        out = []
        for r, v in zip(entry.results, out_values):
            if r.rank == 0:
                out.append(_scalar_result(r, v.value))
                continue
            h = v.value
            v.value = None
            if mode == "torch" or (mode == "numpy" and not self._cuda and r.prim != "bool"):
                out.append(self._lend(ctx, r, h, mode))
                continue
            a = Array(self, h, r.prim, None, r.rank)
            out.append(a if mode == "array" else self._convert(a, mode))
        return entry.finish(out)

    def _lend(self, ctx, r, h, mode):
        """Result handle `h` given to numpy (the CPU device) or PyTorch as a DLPack capsule,
        without a kerb.Array: the capsule holds the memory, the handle goes at once."""
        lib = self._lib
        if mode == "torch":
            stream = self._torch_consumer_stream() if self._cuda else -1
        else:
            stream = -1
        try:
            managed = lib.array_to_dlpack(ctx, r.prim_id, r.rank, h, stream)
        finally:
            lib.array_free(ctx, r.prim_id, r.rank, h)
        if not managed:
            self._check(_native.USAGE_ERROR)
        capsule = lib.capsule(managed)
        if mode == "torch":
            if _torch_from_dlpack is None:
                _load_torch()
            return _torch_from_dlpack(capsule)
        return np.from_dlpack(_Lent(capsule))

    def _convert(self, a, mode):
        if mode == "array":
            return a
        if mode == "numpy":
            if self._cuda or a._prim == "bool":
                return a.numpy()
            return np.from_dlpack(a)
        if mode == "torch":
            import torch.utils.dlpack
            # The call ran on PyTorch's current stream when its arguments were tensors; the
            # capsule orders it before that stream otherwise.
            return torch.utils.dlpack.from_dlpack(a.__dlpack__(stream=self._torch_stream() if self._cuda else None))
        if mode == "cupy":
            import cupy
            return cupy.from_dlpack(a)
        if mode == "jax":
            import jax.dlpack
            return jax.dlpack.from_dlpack(_JaxLent(a) if self._cuda else a)
        raise AssertionError(mode)

    def _torch_stream(self):
        s = _torch_current_stream(self._ordinal)
        return s if s else 1

    def _torch_consumer_stream(self):
        """PyTorch's current stream, for a result lent to it: the call's own when the call
        ran on it (known without asking)."""
        s = self._torch_stream_of_call
        if s is None:
            s = _torch_current_stream(self._ordinal)
        return s if s else 1


class _JaxLent:
    """A kerb.Array offered to jax.dlpack.from_dlpack. JAX asks for it on a stream of its
    client, which lives as long as the process: that stream is declared lasting
    (kerb_context_lasting_cuda_stream) before the export, so that the array, once JAX
    drops it, goes back after an event on that stream rather than after a wait for the
    whole device (Note [Arrays lent through DLPack] in runtime/c_api.cpp), which would
    stall a host that keeps JAX's work queued."""

    __slots__ = ("_array",)

    def __init__(self, array):
        self._array = array

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        a = self._array
        if isinstance(stream, int) and stream > 2:
            a._program._declare_lasting(stream)
        return a.__dlpack__(stream=stream, max_version=max_version, dl_device=dl_device, copy=copy)


class _Lent:
    """A DLPack capsule made already (for the stream its consumer uses), for numpy's and
    CuPy's from_dlpack, which want an object."""

    __slots__ = ("capsule", "device")

    def __init__(self, capsule, device=(_native.DL_CPU, 0)):
        self.capsule = capsule
        self.device = device

    def __dlpack__(self, *, stream=None, **_):
        return self.capsule

    def __dlpack_device__(self):
        return self.device


_SLOW = object()  # _call_plan: the general path takes the call
_ndarray = np.ndarray
_np_from_dlpack = np.from_dlpack
_capsule_pointer = _native.capsule_pointer
_capsule_set_name = _native.capsule_set_name
_capsule_new = _native.capsule_new
_CALL_SYNC, _CALL_EXPORT = _native.CALL_SYNC, _native.CALL_EXPORT


def _scalar_result(r, x):
    """A scalar result as a numpy scalar."""
    if r.prim == "f16":
        return np.uint16(x).view(np.float16)
    return r.dtype.type(x)


_PRIM_OF_DTYPE = {d: k for k, d in NUMPY_DTYPE.items()}
_torch_tensor = None       # torch.Tensor once torch is imported (type tests)
_torch_to_dlpack = None
_torch_from_dlpack = None
_torch_raw_stream = None


def _torch_current_stream(device_index):
    """PyTorch's current CUDA stream on a device, as an int handle: its raw query (no
    Stream object) where there is one."""
    f = _torch_raw_stream
    if f is None:
        _load_torch()
        f = _torch_raw_stream
    return f(device_index)


def _load_torch():
    global _torch_tensor, _torch_to_dlpack, _torch_from_dlpack, _torch_raw_stream
    import torch
    import torch.utils.dlpack
    _torch_tensor = torch.Tensor
    _torch_to_dlpack = torch.utils.dlpack.to_dlpack
    _torch_from_dlpack = getattr(torch._C, "_from_dlpack", torch.utils.dlpack.from_dlpack)
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is None:
        def raw(index):
            return torch.cuda.current_stream(index).cuda_stream
    _torch_raw_stream = raw


def _describe(v):
    t = type(v)
    name = t.__name__ if t.__module__ == "builtins" else "%s.%s" % (t.__module__.split(".")[0], t.__name__)
    shape = getattr(v, "shape", None)
    dtype = getattr(v, "dtype", None)
    if shape is not None and dtype is not None:
        return "%s of %s, shape %s" % (name, dtype, tuple(shape))
    return name


def _check_type(what, param, slot, shape, prim):
    if len(shape) != slot.rank:
        raise ValueError("%s: expected an array of %d dimension%s (%s), got %d dimension%s (shape %s)" %
                         (what, slot.rank, "" if slot.rank == 1 else "s", param.type, len(shape),
                          "" if len(shape) == 1 else "s", tuple(shape)))
    if prim is not None and prim != slot.prim:
        raise TypeError("%s: expected an array of %s (%s), got one of %s" % (what, slot.prim, param.type, prim))


def _check_sizes(what, param, slot, shape, sizes):
    for k, d in slot.named_dims:
        n = shape[k]
        if d.__class__ is int:
            if n != d:
                raise ValueError("%s: dimension %d must be %d (%s), but is %d" % (what, k, d, param.type, n))
            continue
        seen = sizes.get(d)
        if seen is None:
            sizes[d] = (n, what)
        elif seen[0] != n:
            raise ValueError("%s: dimension %d is %d, but the size %s is %d (from %s)" %
                             (what, k, n, d, seen[0], seen[1]))


def _scalar(what, slot, v):
    prim = slot.prim
    if hasattr(v, "shape") and tuple(v.shape) == () and not isinstance(v, (np.generic,)):
        # A 0-d array or tensor.
        v = v.item() if hasattr(v, "item") else v
    if prim == "bool":
        if isinstance(v, (bool, np.bool_)):
            return slot.ctype(bool(v))
        raise TypeError("%s: expected a bool, got %s" % (what, _describe(v)))
    if prim in _INT_RANGE:
        if isinstance(v, (bool, np.bool_)) or isinstance(v, (float, np.floating)):
            raise TypeError("%s: expected an integer (%s), got %s" % (what, prim, _describe(v)))
        try:
            x = operator.index(v)
        except TypeError:
            raise TypeError("%s: expected an integer (%s), got %s" % (what, prim, _describe(v))) from None
        lo, hi = _INT_RANGE[prim]
        if not lo <= x <= hi:
            raise ValueError("%s: %d is out of range for %s" % (what, x, prim))
        return slot.ctype(x)
    if isinstance(v, (bool, np.bool_, str, bytes)):
        raise TypeError("%s: expected a number (%s), got %s" % (what, prim, _describe(v)))
    try:
        x = float(v)
    except (TypeError, ValueError):
        raise TypeError("%s: expected a number (%s), got %s" % (what, prim, _describe(v))) from None
    if prim == "f16":
        return slot.ctype(int(np.float16(x).view(np.uint16)))
    return slot.ctype(x)


def load(path, device="", **options):
    """Loads libNAME.so (made by `kerb compile --library --shared`) into a new context on
    `device`: "cpu", "cuda", "cuda:N", or "" (the GPU if there is one, else the CPU).
    Options: output=, sync_checks=, stream= (see kerb.Program)."""
    return Program(path, device, **options)

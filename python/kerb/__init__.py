"""Kerb from Python: checked Kerb (Futhark) programs called on numpy arrays, and on
PyTorch, CuPy and JAX arrays on the GPU without a copy (DLPack).

    import kerb
    prog = kerb.compile("gather.fut", device="cpu")    # or "cuda"; or kerb.load("libgather.so")
    ys = prog.main(xs, idx)                            # entry points are methods
    help(prog.main)                                    # its parameters and types

A failed check (an index out of bounds, a division by zero, a false assert) raises
kerb.CheckError, a RuntimeError, with Futhark's message and the source location; the
program stays usable. docs/PYTHON.md in Kerb's repository describes the package."""

from ._array import Array
from ._compile import compile, find_kerb
from ._errors import CheckError, CompileError, KerbError, OutOfMemoryError
from ._program import Program, load

__all__ = ["Array", "CheckError", "CompileError", "KerbError", "OutOfMemoryError", "Program", "compile",
           "find_kerb", "load"]
__version__ = "0.1.0"

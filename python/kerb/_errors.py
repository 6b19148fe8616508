"""The exceptions the package raises. Wrong arguments raise Python's own TypeError and
ValueError, naming the parameter."""


class KerbError(RuntimeError):
    """An error of Kerb's runtime: a device error, a context that did not start, misuse."""


class CheckError(KerbError):
    """A check in the program failed: an index out of bounds, a division by zero, a false
    assert, ... `message` is Futhark's message, `location` where in the source
    ("prog.fut:5:46-50", or None). The program stays usable; on the GPU, a failure is
    reported at the next point where the host waits for the device (Program.sync(),
    Array.numpy(), a scalar result), by the call that waits."""

    def __init__(self, text):
        super().__init__(text)
        first, _, rest = text.partition("\n")
        self.message = first
        self.location = rest[3:] if rest.startswith("at ") else None


class CompileError(KerbError):
    """`kerb compile` rejected the program; the text is kerb's diagnostic."""


class OutOfMemoryError(KerbError, MemoryError):
    """The device ran out of memory."""

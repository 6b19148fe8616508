"""kerb.compile: a .fut file compiled with the `kerb` command into libNAME.so (`kerb
compile --library --shared`), cached by the source's text, the flags and the kerb
binary, then loaded (kerb.load).

The kerb binary is, in this order: the `kerb` argument, $KERB, kerb/bin/kerb inside the
package (for an installed copy that carries one), the build tree's when the package is
imported from a checkout (build/kerb), or `kerb` on PATH. Compiled libraries go to
$KERB_CACHE_DIR, else ~/.cache/kerb."""

import hashlib
import os
import shutil
import subprocess
import tempfile

from ._errors import CompileError, KerbError
from ._program import Program

_HERE = os.path.dirname(os.path.abspath(__file__))


def find_kerb(kerb=None):
    """The path of the kerb binary (see the module's help)."""
    candidates = [kerb, os.environ.get("KERB"), os.path.join(_HERE, "bin", "kerb"),
                  os.path.join(_HERE, "..", "..", "build", "kerb")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    found = shutil.which("kerb")
    if found:
        return found
    raise KerbError("cannot find the kerb command: pass kerb=PATH, set $KERB, or put kerb on PATH")


def _cache_dir():
    d = os.environ.get("KERB_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "kerb")
    os.makedirs(d, exist_ok=True)
    return d


def compile_library(source, *, kerb=None, unsafe=False, checks=None, sm=None, flags=()):
    """Compiles `source` (a .fut file) into a cached libNAME.so and returns its path."""
    kerb_path = find_kerb(kerb)
    with open(source, "rb") as f:
        text = f.read()
    args = list(flags)
    if unsafe:
        args.append("--unsafe")
    if checks is not None:
        args.append("--checks=%s" % checks)
    if sm is not None:
        args.append("--sm=%s" % sm)
    st = os.stat(kerb_path)
    key = hashlib.sha256()
    for part in (text, source.encode(), " ".join(args).encode(), kerb_path.encode(),
                 str(st.st_mtime_ns).encode(), str(st.st_size).encode()):
        key.update(part)
        key.update(b"\0")
    name = os.path.splitext(os.path.basename(source))[0] or "program"
    out_dir = os.path.join(_cache_dir(), "%s-%s" % (name, key.hexdigest()[:20]))
    lib = os.path.join(out_dir, "lib%s.so" % name)
    if os.path.isfile(lib):
        return lib
    tmp = tempfile.mkdtemp(prefix=".tmp-", dir=_cache_dir())
    try:
        proc = subprocess.run([kerb_path, "compile", "--library", "--shared", source, "-o",
                               os.path.join(tmp, name)] + args, capture_output=True, text=True)
        if proc.returncode != 0:
            raise CompileError((proc.stderr or proc.stdout).rstrip() or "kerb compile failed (exit %d)" %
                               proc.returncode)
        try:
            os.rename(tmp, out_dir)
        except OSError:
            if not os.path.isfile(lib):  # not another process's copy: a real failure
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return lib


def compile(source, device="", *, kerb=None, unsafe=False, checks=None, sm=None, **options):
    """Compiles the Kerb (Futhark) program `source` and loads it on `device` ("cpu",
    "cuda", "cuda:N", or "": the GPU if there is one, else the CPU). `unsafe`, `checks`
    and `sm` are kerb's --unsafe, --checks=KINDS and --sm=SM. The other options are
    kerb.Program's (output=, sync_checks=, stream=). Raises kerb.CompileError with kerb's
    diagnostic for a program that does not compile."""
    return Program(compile_library(source, kerb=kerb, unsafe=unsafe, checks=checks, sm=sm), device, **options)

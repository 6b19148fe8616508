"""For the Python package's tests (test_kerb.py, fake_cuda_test.py): which calls take the
quick path, kerb_call_dlpack in one crossing into C (Note [The quick call] in
python/kerb/_program.py)."""

from kerb import _program


def spy_quick_calls(test):
    """A list that gets, per call from now until `test` ends, whether the call took the
    quick path (True) or the general one (False)."""
    taken = []
    quick = _program.Program._call_plan

    def spy(*args):
        result = quick(*args)
        taken.append(result is not _program._SLOW)
        return result

    _program.Program._call_plan = spy
    test.addCleanup(setattr, _program.Program, "_call_plan", quick)
    return taken

"""What the tests of bench/'s summaries share: bench/ on the import path, `check` (counts
a failure and says what failed), `write` (a made-up report or text file) and `finish`
(the verdict line, and exit 1 on a failure). Standard library only."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))

failures = 0


def check(cond, what):
    global failures
    if not cond:
        print(f"FAIL: {what}")
        failures += 1


def write(path, value):
    """`value` to `path`: a string as it is, anything else as JSON."""
    with open(path, "w") as f:
        if isinstance(value, str):
            f.write(value)
        else:
            json.dump(value, f)


def finish(name):
    print(f"{name}: " + ("ok" if failures == 0 else f"{failures} failures"))
    sys.exit(1 if failures else 0)

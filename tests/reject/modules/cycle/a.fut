-- Part of the import cycle of import_cycle.fut.

import "b"
def a = 1i32

-- Part of the import cycle of import_cycle.fut.

import "a"
def b = 2i32

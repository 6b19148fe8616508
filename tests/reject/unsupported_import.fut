-- Imports are left out of the subset.
-- ==
-- error: unsupported_import\.fut:4:1: error: modules are not supported \('import'\)
import "lib/github.com/diku-dk/sorts/radix_sort"
def main (x: i32) = x

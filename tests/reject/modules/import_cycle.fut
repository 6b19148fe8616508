-- An import cycle is an error at the import that closes it, naming the cycle.
-- ==
-- error: cycle/b\.fut:3:1: error: import cycle: '.*cycle/a\.fut' imports '.*cycle/b\.fut' imports '.*cycle/a\.fut'
import "cycle/a"
def main (x: i32) = x

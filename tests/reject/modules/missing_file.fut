-- Importing a file that does not exist is an error at the import.
-- ==
-- error: missing_file\.fut:4:1: error: cannot import "no/such/file": there is no file '.*no/such/file\.fut'
import "no/such/file"
def main (x: i32) = x

-- A missing file imported by an imported file: the error is at that import, with the
-- chain of imports that led there.
-- ==
-- error: cycle/imports_missing\.fut:3:1: error: cannot import "gone": there is no file '.*cycle/gone\.fut' \(imported from '.*cycle/imports_missing\.fut', imported from '.*missing_nested\.fut'\)
import "cycle/imports_missing"
def main (x: i32) = x

-- Attributes other than #\[unsafe\] are left out of the subset.
-- ==
-- error: unsupported_attribute\.fut:4:3: error: attribute 'inline' is not supported
#[inline]
def main (x: i32) = x

-- Only arrays can be indexed.
-- ==
-- error: type_index_non_array\.fut:4:21: error: only arrays can be indexed, but this has type i32
def main (x: i32) = x[0]

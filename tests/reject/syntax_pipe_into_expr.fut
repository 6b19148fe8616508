-- A pipe into something that is not a function name or application is rejected.
-- ==
-- error: syntax_pipe_into_expr\.fut:4:26: error: the function side of '\|>' must be a function name or an application
def main (x: i32) = x |> (+)

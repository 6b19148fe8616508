-- Top-level function parameters need a type.
-- ==
-- error: type_missing_param_type\.fut:4:10: error: parameter 'x' needs a type annotation: write '\(x: t\)'
def main x = x + 1

-- An anonymous function's result may not alias a top-level constant.
-- ==
-- error: type_uniq_lambda_returns_global\.fut:5:45: error: Function result aliases the free variable "table"\. Use "copy" to break the aliasing\.
def table : []i32 = [1, 2, 3]
def main (b: bool) : []i32 = (\(c: bool) -> if c then table else [0]) b

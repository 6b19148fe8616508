-- A local function's type parameter may not become the type of something outside it.
-- ==
-- error: type_param_scope_violation\.fut:5:21: error: the branches of 'if' have different types: 'then' has type b, 'else' has type t0 \(Cannot unify type variable "t0" with type parameter "b" \(scope violation\): "b" is not in scope there\. For more information, see https://futhark-lang\.org/error-index\.html#scope-violation\)
def f x =
  let g 'b (y: b) = if true then y else x
  in g

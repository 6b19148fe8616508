-- Record types with different fields do not unify; the message names the fields.
-- ==
-- error: type_record_unshared_fields\.fut:4:66: error: Function body does not have expected type: the body of 'f' has type \{a: i32, b: i32, c: i32\}, but its declared return type is \{a: i32, b: i32, d: i32\} \(Cannot unify record types with unshared fields: c, d\.\)
def f (v: {a: i32, b: i32, c: i32}) : {a: i32, b: i32, d: i32} = v
def main (x: i32) = (f {a = x, b = x, c = x}).a

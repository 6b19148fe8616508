-- Entry points take and return no functions.
-- ==
-- error: type_entry_higher_order\.fut:4:13: error: Entry point functions may not be higher-order: a parameter of 'main' has type i32 -> i32
entry main (f: i32 -> i32) = f 1

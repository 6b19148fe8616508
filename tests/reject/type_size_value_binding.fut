-- A size-polymorphic constant may not have an existential size.
-- ==
-- error: type_size_value_binding\.fut:4:5: error: A size-polymorphic value binding may not have a type with an existential size\. Type of this binding is: \[\]i64
def evens [n] = filter (\i -> i % 2 == 0) (iota n)

-- A unique result may not alias a non-unique parameter.
-- ==
-- error: type_uniq_result_alias\.fut:4:33: error: Unique-typed return value is aliased to "xs", which is not consumable\.
def main (xs: []i32) : *[]i32 = xs

-- Only a unique parameter may be updated in place.
-- ==
-- error: type_uniq_consume_param\.fut:4:32: error: Consuming variable "xs", which is not consumable \(it is a non-unique parameter\)\.
def set0 (xs: []i32) : []i32 = xs with [0] = 0
def main (xs: []i32) : []i32 = set0 (copy xs)

-- Arrays may not hold functions.
-- ==
-- error: type_array_of_functions\.fut:4:30: error: Type i32 -> i32 found to be functional: the elements of an array may not be functions
def main (x: i32) = let fs = [(+ 1), (* 2)] in x

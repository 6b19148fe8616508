-- A trailing comma in a parameter pattern made a 1-tuple type (internal error).
def main (x: i3,) = x 1
def f (x: i32,) = x

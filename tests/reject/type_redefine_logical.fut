-- && and || are built in (short-circuiting) and may not be redefined.
-- ==
-- error: type_redefine_logical\.fut:4:6: error: '&&' may not be redefined
def (&&) (a: bool) (b: bool) : bool = a || b
def main (x: bool) : bool = x && true

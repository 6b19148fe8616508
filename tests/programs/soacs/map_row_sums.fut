-- map whose body reduces each row; rows of length 0 give the neutral element.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }  output { [6, 15] }
-- input { empty([2][0]i32) }        output { [0, 0] }
entry main (xss: [][]i32) : []i32 = map (\row -> reduce (+) 0 row) xss

-- A size parameter named as a top-level constant shadows it in its function (parboil's
-- tpacf: `def numBins : i32 = 20` and `def sumBins [numBins] ...`); elsewhere the name is
-- the constant.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] }  output { [5, 7, 9] 20i32 }

def width : i32 = 20

def column_sums [width] [rows] (xss: [rows][width]i32) : [width]i32 =
  map i32.sum (transpose xss)

entry main (xss: [][]i32) = (column_sums xss, width)

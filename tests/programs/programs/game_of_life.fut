-- Game of Life on a torus: neighbour counts from rotations of the board in both
-- dimensions (rotate on the outer dimension and, via map, on rows).
-- ==
-- input { [[0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [1, 1, 1, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]] 1 }
-- output { [[0, 0, 0, 0, 0], [1, 0, 1, 0, 0], [0, 1, 1, 0, 0], [0, 1, 0, 0, 0], [0, 0, 0, 0, 0]] }
-- input { [[0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [1, 1, 1, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]] 4 }
-- output { [[0, 0, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 1, 0], [0, 1, 1, 1, 0], [0, 0, 0, 0, 0]] }
def shift [n][m] (di: i64) (dj: i64) (b: [n][m]i32) : [n][m]i32 =
  map (\row -> rotate dj row) (rotate di b)

def step [n][m] (b: [n][m]i32) : [n][m]i32 =
  let offsets = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
  let counts = foldl (\acc (di, dj) -> map2 (\r s -> map2 (+) r s) acc (shift di dj b))
                     (replicate n (replicate m 0)) offsets
  in map2 (\brow crow ->
             map2 (\alive c -> if c == 3 || (alive == 1 && c == 2) then 1 else 0) brow crow)
          b counts

entry main [n][m] (b: [n][m]i32) (steps: i32) : [n][m]i32 =
  loop b = b for _s < steps do step b

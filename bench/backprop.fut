-- A backprop-like layer (Rodinia's bpnn_layerforward and bpnn_adjust_weights), ported
-- with explicit indexing: the hidden units' activations, sigmoid of a weighted sum over
-- all inputs (a reduction inside a map), and the weight update of the input layer
-- (a map of maps). 2^20 inputs, 16 hidden units.
-- ==
-- nobench input { [1f32, 2f32] [[0.5f32, -1f32], [0.25f32, 0f32]] [[0f32, 1f32], [2f32, 0f32]]
--                 [1f32, -1f32] }
--         output { [0.7310586f32, 0.26894143f32]
--                  [[0.8f32, -0.99999994f32], [1.45f32, -0.6f32]] }
-- "2^20 inputs, 16 hidden" no_interp no_cpu input @ data/backprop.in output @ data/backprop.out
def eta : f32 = 0.3f32
def momentum : f32 = 0.3f32

entry main [nin][nh] (input: [nin]f32) (w: [nin][nh]f32) (oldw: [nin][nh]f32)
                     (delta: [nh]f32) : ([nh]f32, [nin][nh]f32) =
  let hidden =
    map (\j ->
           let s = reduce (+) 0f32 (map (\i -> w[i, j] * input[i]) (iota nin))
           in 1f32 / (1f32 + f32.exp (-s)))
        (iota nh)
  let w' =
    map (\i -> map (\j -> w[i, j] + eta * delta[j] * input[i] + momentum * oldw[i, j]) (iota nh))
        (iota nin)
  in (hidden, w')

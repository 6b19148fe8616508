-- f32.sqrt, f32.exp, f32.log, f32.sin, f32.cos.
-- ==
-- input { 4.0f32 } output { 2.0f32 54.59815f32 1.3862944f32 -0.7568025f32 -0.6536436f32 }
-- input { 0.25f32 } output { 0.5f32 1.2840255f32 -1.3862944f32 0.24740396f32 0.9689124f32 }
-- input { 2.0f32 } output { 1.4142135f32 7.3890557f32 0.6931472f32 0.9092974f32 -0.4161468f32 }
entry main (x: f32) : (f32, f32, f32, f32, f32) =
  (f32.sqrt x, f32.exp x, f32.log x, f32.sin x, f32.cos x)

-- error: 3:3: main must end in the kernel: a nest of 1 to 3 `map`s
fun f32 main(f32 x) =
  x + 1f32

// tiler.cuh: helpers every generated kernel uses; included into each .cu so
// that a generated file compiles on its own.
#ifndef TILER_CUH
#define TILER_CUH
#include <math.h>
#endif

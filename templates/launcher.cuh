// launcher.cuh: what every host launcher shares, included into each .cu for
// nvcc only (NVRTC compiles device code alone), once a translation unit.
#ifndef TILER_LAUNCHER_CUH
#define TILER_LAUNCHER_CUH

#include <atomic>

// The SM count of `device`, read once a device (the first DEVICES devices;
// others at each call): some versions run only where their grid fills it.
// Atomic: launches from several host threads may ask at once (each then
// reads the same count and stores it; nothing else is shared).
template <int DEVICES>
static int tiler_multiprocessor_count(int device) {
  static std::atomic<int> counts[DEVICES];  // (zero: static storage)
  int count = device < DEVICES ? counts[device].load(std::memory_order_relaxed) : 0;
  if (count == 0) {
    cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device);
    if (device < DEVICES) counts[device].store(count, std::memory_order_relaxed);
  }
  return count;
}
#endif

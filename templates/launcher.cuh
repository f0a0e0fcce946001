// launcher.cuh: what every host launcher shares, included into each .cu for
// nvcc only (NVRTC compiles device code alone), once a translation unit.
#ifndef TILER_LAUNCHER_CUH
#define TILER_LAUNCHER_CUH

// The SM count of `device`, read once a device (the first DEVICES devices;
// others at each call): some versions run only where their grid fills it.
template <int DEVICES>
static int tiler_multiprocessor_count(int device) {
  static int counts[DEVICES] = {0};
  int count = device < DEVICES ? counts[device] : 0;
  if (count == 0) {
    cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device);
    if (device < DEVICES) counts[device] = count;
  }
  return count;
}
#endif

// race.cuh: how a host launcher races a version against its rival (the
// untiled kernel) the first time it meets a set of sizes; included into each
// .cu whose launcher races, for nvcc only, once a translation unit.
#ifndef TILER_RACE_CUH
#define TILER_RACE_CUH
#include <cstring>
#include <mutex>

// A launcher's memory of its races: for up to SIZES sets of sizes (each with
// the device and the version the conditions picked: KEYS numbers), the
// version that won there. The lock is held to look up and to remember, never
// across a race's launches.
template <int KEYS, int SIZES>
struct tiler_races {
  long long seen[SIZES][KEYS];
  int winners[SIZES];
  int count;
  std::mutex lock;
  int known(const long long* key) const {  // the winner remembered for `key`, or -1 (call with the lock held)
    for (int i = 0; i < count; ++i)
      if (std::memcmp(seen[i], key, sizeof seen[i]) == 0) return winners[i];
    return -1;
  }
};

// Sets *chosen to `version` (the conditions' pick) or its `rival`. Where
// `key` is new, `races` has room to remember it, and no graph is being
// captured on `stream`, the two race there first: a warm-up launch each, then
// ROUNDS launches each, alternating; the fastest launch of each counts, and
// the rival wins only where its time times `margin` is below the version's
// (timer noise must not flip the model's choice). That call waits for the
// race's launches. `run(v, raise)` launches version v, raising its shared
// memory limit first where `raise`. Returns the picked version's own launch
// error if it fails in the race, else cudaSuccess.
template <int ROUNDS, int KEYS, int SIZES, typename Run>
static cudaError_t tiler_race(tiler_races<KEYS, SIZES>& races, const long long (&key)[KEYS], int version,
                              int rival, float margin, cudaStream_t stream, Run run, int* chosen) {
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  const bool may_race = cudaStreamIsCapturing(stream, &capture) == cudaSuccess &&
                        capture == cudaStreamCaptureStatusNone;
  if (!may_race) (void)cudaGetLastError();  // a capture: the winner if known, else the condition's pick
  int winner = -1;
  bool room = false;
  {
    std::lock_guard<std::mutex> hold(races.lock);
    winner = races.known(key);
    room = races.count < SIZES;
  }
  cudaEvent_t start = nullptr, stop = nullptr;
  if (winner < 0 && may_race && room &&
      cudaEventCreate(&start) == cudaSuccess && cudaEventCreate(&stop) == cudaSuccess) {
    // waiting for the race's events must stay legal while another thread captures a graph
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    (void)cudaThreadExchangeStreamCaptureMode(&mode);
    const int racers[2] = {version, rival};
    float best[2] = {3.4e38f, 3.4e38f};
    bool timed = true;
    cudaError_t failed = cudaSuccess;  // the picked version's own launch error ends the race
    for (int round = 0; round <= ROUNDS && timed; ++round)  // round 0 warms up
      for (int r = 0; r < 2 && timed; ++r) {
        timed = cudaEventRecord(start, stream) == cudaSuccess;
        // the shared memory limit is raised in the warm-up: host work the timed launches leave out
        const cudaError_t err = run(racers[r], round == 0);
        float ms = 0;
        timed = timed && cudaEventRecord(stop, stream) == cudaSuccess && cudaEventSynchronize(stop) == cudaSuccess &&
                cudaEventElapsedTime(&ms, start, stop) == cudaSuccess;
        if (err != cudaSuccess && r == 0) {
          failed = err;
          timed = false;
        } else if (err != cudaSuccess) {
          best[1] = -1.0f;  // the rival cannot run here: never chosen
        } else if (timed && round > 0 && best[r] >= 0 && ms < best[r]) {
          best[r] = ms;
        }
      }
    (void)cudaThreadExchangeStreamCaptureMode(&mode);  // the thread's own mode again
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    if (failed != cudaSuccess) return failed;
    if (timed) {
      winner = best[1] >= 0 && best[1] * margin < best[0] ? racers[1] : racers[0];
      std::lock_guard<std::mutex> hold(races.lock);
      const int first = races.known(key);  // another thread may have raced these sizes meanwhile: its winner stays
      if (first >= 0) {
        winner = first;
      } else if (races.count < SIZES) {
        std::memcpy(races.seen[races.count], key, sizeof key);
        races.winners[races.count++] = winner;
      }
    } else {
      (void)cudaGetLastError();  // the timer failed: nothing remembered, the condition's pick runs
    }
  } else {
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    if (winner < 0) (void)cudaGetLastError();  // an event could not be made (or no race): the condition's pick runs
  }
  *chosen = winner >= 0 ? winner : version;
  return cudaSuccess;
}
#endif

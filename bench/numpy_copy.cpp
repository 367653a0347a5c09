// Baseline for numpy_copy.py: 10 round trips of a 4096x4096 f32 buffer into a
// freshly allocated one and back with memcpy (to_numpy allocates its array
// and fills it with one memcpy when the field is dense and row-major).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
int main() {
  const int N = 4096;
  const size_t bytes = (size_t)N * N * sizeof(float);
  std::vector<float> field((size_t)N * N);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) field[(size_t)i * N + j] = (float)((i * 7 + j) % 100) * 0.01f;
  auto round_trip = [&]() {
    float* a = static_cast<float*>(std::aligned_alloc(64, bytes));
    std::memcpy(a, field.data(), bytes);
    std::memcpy(field.data(), a, bytes);
    return a;
  };
  std::free(round_trip());
  float* last = nullptr;
  auto t = std::chrono::steady_clock::now();
  for (int k = 0; k < 10; k++) {
    std::free(last);
    last = round_trip();
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
  double s = 0;
  for (int i = 0; i < N; i += 512)
    for (int j = 0; j < N; j += 512) s += last[(size_t)i * N + j];
  s += field[(size_t)(N - 1) * N + N - 1];
  std::printf("checksum %.17g\ntime_ms %f\n", s, ms);
  std::free(last);
}

// Baseline for nbody_soa.py: the same all-pairs loop with masses over separate
// x/y/z/mass arrays in f32, in the kernel's operation order, with fast_math's
// freedoms as Kiln takes them: FMA contraction (-ffp-contract=fast) and the
// acceleration sums as an `omp simd` reduction (Kiln splits them into 8
// partials in lanes). Serial as built by scripts/bench; with -fopenmp the body
// loop runs in parallel.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>
int main() {
  const int N = 4096;
  std::vector<float> px(N), py(N), pz(N), pm(N), vx(N, 0.0f), vy(N, 0.0f), vz(N, 0.0f);
  for (int i = 0; i < N; i++) {
    px[i] = (float)(i * 37 % 101) * 0.1f;
    py[i] = (float)(i * 53 % 103) * 0.1f;
    pz[i] = (float)(i * 71 % 107) * 0.1f;
    pm[i] = 0.5f + (float)(i % 7) * 0.25f;
  }
  auto step = [&](float dt) {
    // Raw pointers: the OpenMP-outlined loops then vectorize.
    float *X = px.data(), *Y = py.data(), *Z = pz.data(), *M = pm.data();
    float *VX = vx.data(), *VY = vy.data(), *VZ = vz.data();
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++) {
      float xi = X[i], yi = Y[i], zi = Z[i], ax = 0, ay = 0, az = 0;
#pragma omp simd reduction(+ : ax, ay, az)
      for (int j = 0; j < N; j++) {
        float dx = X[j] - xi, dy = Y[j] - yi, dz = Z[j] - zi;
        float r2 = dx * dx + dy * dy + dz * dz + 0.01f;
        float inv = 1.0f / std::sqrt(r2);
        float s = M[j] * inv * inv * inv;
        ax += dx * s;
        ay += dy * s;
        az += dz * s;
      }
      VX[i] += ax * dt;
      VY[i] += ay * dt;
      VZ[i] += az * dt;
    }
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++) {
      X[i] += VX[i] * dt;
      Y[i] += VY[i] * dt;
      Z[i] += VZ[i] * dt;
    }
  };
  step(0.001f);
  auto t = std::chrono::steady_clock::now();
  for (int k = 0; k < 2; k++) step(0.001f);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
  double s = 0;
  for (int i = 0; i < N; i++) s += (double)px[i] + (double)py[i] + (double)pz[i];
  std::printf("checksum %.10g\ntime_ms %f\n", s, ms);
}

// Baseline for nbody_example.py (Taichi's n-body example): the same pairs in
// f32 and in the kernel's operation order (norm(eps) = sqrt(x*x + y*y + eps),
// (1 / r) ** 3 as two products), the force summed in a register in j's order,
// as Kiln sums it (it keeps force[i] in a local across the j loop, and
// fast_math leaves a field element's sums in order: docs/fast_math.md), so no
// `omp simd` reduction here. Serial as built by scripts/bench; with -fopenmp
// the i loop runs in parallel.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>
int main() {
  const int N = 3000;
  std::vector<float> px(N), py(N), vx(N), vy(N), fx(N), fy(N);
  const double pi = 3.141592653589793;
  for (int i = 0; i < N; i++) {
    float theta = (float)((double)(i * 37 % 101) / 101.0 * 2.0 * pi);
    float r = ((float)(i * 53 % 103) / 103.0f * 0.6f + 0.4f) * 0.4f;
    float ox = r * std::cos(theta), oy = r * std::sin(theta);
    px[i] = 0.5f + ox;
    py[i] = 0.5f + oy;
    vx[i] = -oy * 120.0f;
    vy[i] = ox * 120.0f;
  }
  auto step = [&](float dt) {
    float *X = px.data(), *Y = py.data(), *FX = fx.data(), *FY = fy.data(), *VX = vx.data(), *VY = vy.data();
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++) {
      float x = X[i], y = Y[i], ax = 0, ay = 0;
      for (int j = 0; j < N; j++) {
        if (i != j) {
          float dx = x - X[j], dy = y - Y[j];
          float r = std::sqrt(dx * dx + dy * dy + 1e-5f);
          float inv = 1.0f / r;
          float s = -(inv * inv * inv);
          ax += s * dx;
          ay += s * dy;
        }
      }
      FX[i] = ax;
      FY[i] = ay;
    }
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++) {
      VX[i] += dt * FX[i];
      VY[i] += dt * FY[i];
      X[i] += dt * VX[i];
      Y[i] += dt * VY[i];
    }
  };
  step(1e-5f);
  auto t = std::chrono::steady_clock::now();
  for (int k = 0; k < 2; k++) step(1e-5f);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
  double s = 0;
  for (int i = 0; i < N; i++) s += (double)px[i] + (double)py[i];
  std::printf("checksum %.10g\ntime_ms %f\n", s, ms);
}

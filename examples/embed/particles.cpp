// The C++ face of the embedding API (kiln.hpp): the same kind of particle
// simulation as particles.c, with RAII handles, std::span arrays passed to
// kernels without a copy, and exceptions carrying the diagnostic.
#include <cstdio>
#include <span>
#include <vector>

#include "kiln/kiln.hpp"

static const char* source = R"(
import taichi as ti
ti.init()
height = ti.field(ti.f32, shape=32)

@ti.kernel
def drop(h: ti.types.ndarray(dtype=ti.f32, ndim=1), dt: ti.f32, steps: ti.i32) -> ti.f32:
    for i in h:
        v = 0.0
        y = h[i]
        for s in range(steps):
            v -= 9.8 * dt
            y += v * dt
            if y < 0.0:
                y = -y
                v = -0.7 * v
        h[i] = y
        height[i] = y
    total = 0.0
    for i in h:
        total += h[i]
    return total
)";

int main() {
  try {
    kiln::VM vm;
    kiln::Module m = vm.load(source, "drop.py");
    std::vector<float> h(32);
    for (size_t i = 0; i < h.size(); i++) h[i] = 1.0f + 0.1f * (float)i;
    kiln::Kernel drop = m.kernel("drop");
    float total = drop(std::span<float>(h), 0.01f, int32_t(50)).as<float>();
    std::printf("total height after 50 steps: %.4f\n", total);

    // the field and the host array agree
    std::vector<float> from_field(32);
    m.field("height").copy_to(std::span<float>(from_field));
    for (size_t i = 0; i < h.size(); i++)
      if (from_field[i] != h[i]) {
        std::printf("mismatch at %zu\n", i);
        return 1;
      }
    std::printf("h[0] = %.4f, height[31] = %.4f\n", h[0], m.field("height").get<float>({31}));

    try {
      drop(std::span<float>(h), 0.01, int32_t(1));  // a double where the kernel takes f32
      return 1;
    } catch (const kiln::Failure& e) {
      std::printf("caught %s at %s:%d: %s\n", e.kind.c_str(), e.file.c_str(), e.line, e.message.c_str());
    }
  } catch (const kiln::Failure& e) {
    std::fputs(e.what(), stderr);
    return 1;
  }
  return 0;
}

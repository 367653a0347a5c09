// When a task's own loop gets hot: its iterations count across chunks and
// launches (interp::LoopHook::task_iterations), so a short loop launched
// often, or a heavy one cut into chunks shorter than the threshold, gets a
// trace; before, each chunk's counter started at 0 and such loops were
// interpreted forever (Taichi's mpm examples: 2.3-3.4x slower).
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "host_session.h"
#include "jit/jit.h"

using kiln::test::HostSession;

namespace {

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) n++;
  return n;
}

// A kernel whose task loop runs `n` iterations a launch, launched `launches` times.
std::string run(int n, int launches) {
  kiln::HostOptions o;
  o.engine = "jit";
  HostSession s(o);
  return s("import taichi as ti\n"
           "ti.init(arch=ti.cpu, cpu_max_num_threads=1)\n"
           "x = ti.field(ti.f32, shape=" + std::to_string(n) + ")\n"
           "@ti.kernel\n"
           "def step(a: ti.f32):\n"
           "    for i in x:\n"
           "        x[i] = x[i] * a + 1.0\n"
           "for k in range(" + std::to_string(launches) + "):\n"
           "    step(0.5)\n"
           "print(x[0], x[" + std::to_string(n - 1) + "])\n");
}

}  // namespace

TEST_CASE("a task loop shorter than the threshold gets a trace once its launches add up") {
  unsetenv("KILN_JIT");  // the default threshold: 56 back edges
  kiln::jit::keep_traces(true);
  std::string before = kiln::jit::trace_report();
  std::string once = run(20, 2);  // 40 iterations in all: interpreted
  std::string after_two = kiln::jit::trace_report().substr(before.size());
  CHECK(count(after_two, "IR, ") == 0);  // the one-line note of each trace compiled
  std::string many = run(20, 10);  // 200: hot at the third launch
  std::string after_ten = kiln::jit::trace_report().substr(before.size() + after_two.size());
  CHECK(count(after_ten, "IR, ") == 1);
  CHECK(count(after_ten, "trace step.task0_range_for @") >= 1);
  CHECK(once == "1.5 1.5\n");
  CHECK(many == "1.998046875 1.998046875\n");
}

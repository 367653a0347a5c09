// The tiered engine's compiles in flight, and the wait for them at exit.
//
// A program can end while a compile is running (a short program whose kernel
// tiered up near its end, or a Python program whose kernels are never freed):
// exit() would then destroy LLVM's static state (function-local statics made
// by the first compile, such as SelectionDAG's value-type tables) under the
// compiling thread, which crashed. The hosts call wait_for_tier_compiles() at
// exit before exit() runs (the CPython host from its atexit hook, which runs
// before any C exit handler); an atexit handler registered before the first
// compile is the fallback for hosts that do not (statics made later than it
// are gone by then, so it narrows the window but cannot close it). The module
// loader registers the same wait after loading LLVM, so that it runs before
// the module's and LLVM's own destructors.
#include "jit/tier_compiles.h"

#include <condition_variable>
#include <cstdlib>
#include <mutex>

#include "jit/llvm_module.h"

namespace kiln::tiering {

namespace {

// Leaked on purpose: it must outlive every static destructor.
struct InFlight {
  std::mutex mu;
  std::condition_variable idle;
  int running = 0;
};

void wait_idle(InFlight& g) {
  std::unique_lock<std::mutex> lock(g.mu);
  g.idle.wait(lock, [&] { return g.running == 0; });
}

InFlight& in_flight() {
  static InFlight* f = [] {
    auto* p = new InFlight;
    std::atexit([] { wait_idle(in_flight()); });
    return p;
  }();
  return *f;
}

}  // namespace

void compile_started() {
  InFlight& f = in_flight();
  std::lock_guard<std::mutex> lock(f.mu);
  f.running++;
}

void compile_ended() {
  InFlight& f = in_flight();
  std::lock_guard<std::mutex> lock(f.mu);
  if (--f.running == 0) f.idle.notify_all();
}

}  // namespace kiln::tiering

namespace kiln {
void wait_for_tier_compiles() { tiering::wait_idle(tiering::in_flight()); }
}  // namespace kiln

// Ctrl-C during a kernel launch (see core.h: LaunchInterrupt).
//
// CPython's SIGINT handler only sets a flag that the eval loop reads between
// bytecodes, which a launch (C++, GIL held) never reaches: a kernel spinning
// in a loop would ignore Ctrl-C. While a launch runs, the handler installed
// here asks that Program to stop instead (engines poll interrupt_requested at
// loop back-edges and raise KeyboardInterrupt, which becomes Python's); at
// any other time it passes the signal to the handler it replaced, so Python
// code is interrupted as usual and a single Ctrl-C never raises twice.
#include <signal.h>

#include <atomic>
#include <csignal>

#include "python/core/core.h"

namespace kiln::py_host {

namespace {

std::atomic<std::atomic<bool>*> g_launching{nullptr};  // the launching Program's stop flag
struct sigaction g_previous;                            // the handler this one replaced
bool g_installed = false;

void on_sigint(int sig, siginfo_t* info, void* ctx) {
  if (std::atomic<bool>* stop = g_launching.load()) {
    stop->store(true, std::memory_order_relaxed);
    return;
  }
  if (g_previous.sa_flags & SA_SIGINFO) g_previous.sa_sigaction(sig, info, ctx);
  else if (g_previous.sa_handler != SIG_IGN && g_previous.sa_handler != SIG_DFL) g_previous.sa_handler(sig);
}

// Installed on the first launch, and only over CPython's own handler for the
// default KeyboardInterrupt: a program that set signal.signal(SIGINT, ...),
// or a host that ignores SIGINT, keeps what it chose.
// `_signal`, the C module under `signal`: the same handler objects, without
// importing signal.py and enum (~1.5 ms of a program's first launch).
void install() {
  g_installed = true;
  py::module_ signal = py::module_::import("_signal");
  if (!signal.attr("getsignal")(SIGINT).is(signal.attr("default_int_handler"))) return;
  struct sigaction sa {};
  sa.sa_sigaction = on_sigint;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGINT, nullptr, &g_previous) != 0) return;
  if (!(g_previous.sa_flags & SA_SIGINFO) && (g_previous.sa_handler == SIG_IGN || g_previous.sa_handler == SIG_DFL))
    return;
  sigaction(SIGINT, &sa, nullptr);
}

}  // namespace

LaunchInterrupt::LaunchInterrupt(Program& p) {
  if (!g_installed && PyGILState_Check()) {
    try {
      install();
    } catch (py::error_already_set&) {  // no signal module: launches stay uninterruptible
    }
  }
  p.interrupt_requested.store(false, std::memory_order_relaxed);  // a Ctrl-C from before is Python's
  // Launches hold the GIL: only this thread writes g_launching (no locked
  // exchange needed); the handler reads it on whichever thread it runs.
  outer_ = g_launching.load(std::memory_order_relaxed);  // a kernel launched from a kernel's callback
  g_launching.store(&p.interrupt_requested, std::memory_order_release);
}

LaunchInterrupt::~LaunchInterrupt() { g_launching.store(outer_, std::memory_order_release); }

}  // namespace kiln::py_host

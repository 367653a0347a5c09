// The tiered engine's compiles in flight (jit/tiered.cpp runs them on
// background threads), for the wait at exit: tier_compiles.cpp.
#pragma once

namespace kiln::tiering {

// A background compile starts, and ends (its thread's last step).
void compile_started();
void compile_ended();

}  // namespace kiln::tiering

// The one interface between the runtime and the engines that run kernels
// (interpreter, JIT, Vulkan, CUDA). The runtime never names an engine; each
// engine registers itself by filling in an Engine.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "vm/ir/ir.h"

namespace kiln {

struct Program;
namespace interp {
struct MidLaunch;
}

// What one kernel launch sees: argument values (8-byte slots, each holding the
// value in the representation of its type: ints sign/zero-extended, f32 as the
// float's bits in the low 4 bytes, f64 as double bits), return slots, the
// trees' base pointers, and scratch for global temporaries.
struct LaunchContext {
  Program* program = nullptr;
  std::vector<uint64_t> args;
  std::vector<uint64_t> rets;
  std::vector<uint8_t*> tree_bases;
  std::vector<uint64_t> temps;            // Kernel::num_global_temps slots
  uint64_t rng_key = 0;                   // ti.random: this launch's key (vm/runtime/rng.h)
  std::string print_buffer;               // kernel print output, flushed at kernel end
  std::mutex print_mu;
  // Set by the tiered engine (jit/tiered.cpp) around its JIT kernel's launch:
  // the interpreter's launcher runs the launch's tasks in slices and reports
  // to it (vm/interp/mid_launch.h), so that a long launch can tier up part
  // way. Null for every other launch.
  interp::MidLaunch* mid = nullptr;
};

// A kernel compiled by an engine; launch runs all its tasks in order.
struct CompiledKernel {
  virtual ~CompiledKernel() = default;
  virtual void launch(LaunchContext& ctx) = 0;
  // Human-readable code (bytecode listing with source lines, for `kiln dis`).
  virtual std::string disassemble() const = 0;
};

struct Engine {
  virtual ~Engine() = default;
  virtual const char* name() const = 0;   // "interp", "jit", "vulkan", ...
  // Which primitive types this engine computes with (seed 000's table).
  virtual bool supports(Prim p) const = 0;
  // Which parallel reduction nests ir::run_pipeline jams two outer
  // iterations a pass for it (vm/ir/passes/jam_outer.cpp; no value changes):
  // those an engine's code gains from, ir::JamKind flags (0: none).
  virtual int jams_outer_loops() const { return 0; }
  // Compiles an offloaded kernel (after ir::run_pipeline). Throws kiln::Error on failure.
  virtual std::unique_ptr<CompiledKernel> compile(const ir::Kernel& k, Program& prog) = 0;
  // The same, given the IR to keep: an engine that needs it after compile
  // returns (the tiered engine, for a later LLVM compile) takes it instead of
  // copying it (a copy of a large kernel cost a tenth of its compile).
  virtual std::unique_ptr<CompiledKernel> compile_owned(std::unique_ptr<ir::Kernel> k, Program& prog) {
    return compile(*k, prog);
  }
  // Waits for launches still running (a device engine may return from a
  // launch that reads nothing back before the device has run it); after it
  // the host sees everything launched so far. Program::materialize calls it,
  // so every host access to field memory goes after it.
  virtual void sync() {}
};

}  // namespace kiln

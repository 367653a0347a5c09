// Print records and failed checks after a launch (see launch_results.h).
#include "gpu/vulkan/launch_results.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <tuple>

#include "vm/bytecode/function.h"
#include "vm/interp/recursion_message.h"
#include "vm/runtime/ndarray_bounds.h"
#include "vm/runtime/program.h"
#include "vm/runtime/snode.h"
#include "vm/types/value.h"

namespace kiln::vk {

namespace {

// A value in the interpreter's register form, as codegen stored it.
ConstVal reg_value(uint64_t bits, Prim p) {
  ConstVal v;
  v.prim = p;
  if (p == Prim::f64) v.f = std::bit_cast<double>(bits);
  else if (prim_is_float(p)) v.f = (double)std::bit_cast<float>((uint32_t)bits);
  else v.u = bits;
  return v;
}

uint64_t u64_at(const uint32_t* w) { return (uint64_t)w[0] | (uint64_t)w[1] << 32; }

using Key = std::tuple<uint32_t, uint32_t, uint32_t>;  // task, iteration, sequence

struct Record {
  Key key;
  uint32_t at;  // word index
};

[[noreturn]] void raise_check(const CheckInfo& c, const uint32_t* err) {
  const uint32_t* vals = err + 4;
  switch (c.kind) {
    case CheckInfo::bounds: {
      int64_t index = (int64_t)u64_at(vals);
      int64_t user = index + ((size_t)c.axis < c.offset.size() ? c.offset[(size_t)c.axis] : 0);
      std::string field = c.field.empty() ? "field" : "field '" + c.field + "'";
      raise("IndexError", bounds_message(field, c.axis, user, c.shape, c.offset), c.loc);
    }
    case CheckInfo::shared_bounds: {
      std::string what = c.field.empty() ? "shared array" : "shared array '" + c.field + "'";
      raise("IndexError", bounds_message(what, c.axis, (int64_t)u64_at(vals), c.shape, {}), c.loc);
    }
    case CheckInfo::snode_bounds:
      raise("IndexError", bounds_message("SNode " + c.field, c.axis, (int64_t)u64_at(vals), c.shape, {}), c.loc);
    case CheckInfo::ndarray_bounds: {
      std::vector<int64_t> shape;
      for (int k = 0; k < c.ndim && k < 7; k++) shape.push_back((int64_t)(int32_t)u64_at(vals + 2 + 2 * k));
      raise("IndexError", ndarray_bounds_message(c.field, c.axis, (int64_t)u64_at(vals), shape), c.loc);
    }
    case CheckInfo::div_zero: raise("ZeroDivisionError", "integer division by zero", c.loc);
    case CheckInfo::pow_zero: raise("ZeroDivisionError", "0 cannot be raised to a negative power", c.loc);
    case CheckInfo::loop_limit:
      raise("RuntimeError",
            "vulkan: this device (llvmpipe) ends the loops of a shader invocation after 65535 iterations in all, and "
            "this loop reached that: the kernel's results would be wrong, so it stops here (a serial task resumes "
            "its top-level loops in another dispatch, but not a loop inside an if or a parallel loop's body; run it "
            "with arch=ti.cpu, or on a GPU's Vulkan driver)",
            c.loc);
    case CheckInfo::tape_overflow: raise("RuntimeError", bc::stack_overflow_message(c.capacity), c.loc);
    case CheckInfo::pool_full:
      raise("MemoryError", "out of memory: the device pool of sparse SNode " + c.field + " is full (" +
                               std::to_string(c.capacity) +
                               " blocks; a tree's pools share its device buffer of at most 2 GiB)", c.loc);
    case CheckInfo::recursion:
      raise("RecursionError", interp::recursion_message(c.text, c.capacity, "the call stack of each of this task's invocations"),
            c.loc);
    case CheckInfo::assertion: {
      std::vector<ConstVal> args;
      for (size_t k = 0; k < c.prims.size(); k++) args.push_back(reg_value(u64_at(vals + 2 * k), c.prims[k]));
      raise("AssertionError", assert_text(c.text, args), c.loc);
    }
  }
  raise("InternalError", "vulkan: unknown check kind");
}

}  // namespace

void finish_launch(const KernelShaders& ks, const uint32_t* err, const uint32_t* prints, LaunchContext& ctx) {
  bool failed = err[0] != 0;
  Key err_key{err[1], err[2], err[3]};
  std::string out;
  if (!ks.prints.empty()) {
    uint32_t end = prints[0];
    std::vector<Record> recs;
    for (uint32_t at = 2; at + kPrintHeader <= std::min(end, kPrintWords);) {
      uint32_t id = prints[at];
      if (id >= ks.prints.size()) break;
      uint32_t n = (uint32_t)(kPrintHeader + 2 * ks.prints[id].prims.size());
      if (at + n > kPrintWords) break;
      recs.push_back(Record{Key{prints[at + 1], prints[at + 2], prints[at + 3]}, at});
      at += n;
    }
    std::stable_sort(recs.begin(), recs.end(), [](const Record& a, const Record& b) { return a.key < b.key; });
    for (const Record& r : recs) {
      if (failed && !(r.key < err_key)) break;
      const PrintInfo& info = ks.prints[prints[r.at]];
      size_t k = 0;
      for (const ir::PrintPart& part : info.parts) {
        if (!part.is_value) {
          out += part.text;
          continue;
        }
        ConstVal v = reg_value(u64_at(prints + r.at + kPrintHeader + 2 * k), info.prims[k]);
        k++;
        out += kernel_print_scalar(v, part.text);
      }
    }
    if (end > kPrintWords)
      out += "[kiln] vulkan: kernel '" + ks.name + "' printed more than its print buffer holds (" +
             std::to_string(kPrintWords * 4 / 1024) + " KiB); the rest was dropped\n";
  }
  if (!out.empty()) {
    if (ctx.program && ctx.program->out) ctx.program->print(out);
    else ctx.print_buffer += out;
  }
  if (failed) {
    uint32_t id = err[0] - 1;
    if (id >= ks.checks.size()) raise("InternalError", "vulkan: a task recorded an unknown check");
    raise_check(ks.checks[id], err);
  }
}

}  // namespace kiln::vk

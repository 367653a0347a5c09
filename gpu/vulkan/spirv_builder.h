// A SPIR-V module builder: ids, types, constants, decorations and the
// sections of a module in the order the specification requires. Codegen
// (codegen.cpp) drives it; nothing here knows Kiln's IR.
//
// A module is assembled from separate word streams (capabilities, types and
// globals, function variables, function body, ...) because SPIR-V fixes the
// order of its sections while codegen discovers what it needs in any order:
// a type first needed deep inside a loop still lands before the function.
// Types and constants are interned, so asking twice gives the same id.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

namespace kiln::vk {

using Id = uint32_t;
using Words = std::vector<uint32_t>;

struct SpirvModule {
  Words capabilities, extensions, imports, memory_model, entry_points, exec_modes, debug, annotations, globals;
  Words fn_vars;  // OpVariable Function: must open the function's first block
  Words body;     // the function's instructions after its first label
  Words functions;  // finished functions other than main (ti.real_func tasks), after main
  // What a resumable task saves and restores (codegen_resume.cpp): the
  // scalar types (kind 'i', 'u', 'f' or 'b', and width), what pointer types
  // point to, the function's variables (variable, type) and the result type
  // of each instruction result.
  std::map<Id, std::pair<char, int>> scalars;
  std::map<Id, Id> pointee;
  std::vector<std::pair<Id, Id>> fn_var_list;
  std::map<Id, Id> result_type;
  Id next = 1;
  std::set<spv::Capability> caps;
  std::set<std::string> exts;
  std::map<std::vector<uint32_t>, Id> interned;  // (opcode, operands...) -> id, for types and constants
  std::vector<Id> interface_vars;                // SPIR-V 1.4+: every global the entry point uses
  Id glsl = 0;                                   // GLSL.std.450 import

  Id fresh() { return next++; }
  void capability(spv::Capability c);
  void extension(const std::string& name);
  Id glsl_std();

  // Appends one instruction: opcode, then operands (word count computed).
  static void emit(Words& w, spv::Op op, std::initializer_list<uint32_t> operands);
  static void emit(Words& w, spv::Op op, const std::vector<uint32_t>& operands);
  static std::vector<uint32_t> string_words(const std::string& s);

  // Types (interned).
  Id t_void();
  Id t_bool();
  Id t_int(int width, bool is_signed);
  Id t_float(int width);
  Id t_ptr(spv::StorageClass sc, Id pointee);
  Id t_fn(Id ret, const std::vector<Id>& params = {});
  Id t_vec(Id elem, int n);
  Id t_array(Id elem, uint32_t n);  // a fixed-size array (Function-storage tapes)
  // A runtime array of `elem` with ArrayStride `stride`, in a Block struct:
  // what a storage buffer variable holds. Each (elem, stride) pair once.
  Id t_buffer_block(Id elem, int stride);

  // Constants (interned). `bits` holds the value's bit pattern (ints in
  // their low `width` bits, floats as their IEEE bits).
  Id c_bits(Id type, int width, uint64_t bits, bool is_signed = false);
  Id c_bool(bool v);
  // A 32-bit constant whose id was taken (fresh()) before its value was
  // known: not interned.
  void define_constant(Id id, Id type, uint32_t value);

  // Function-body instructions: a result id of `type` from `op` on `args`.
  Id op(spv::Op o, Id type, std::initializer_list<uint32_t> args);
  Id op(spv::Op o, Id type, const std::vector<uint32_t>& args);
  void op_void(spv::Op o, std::initializer_list<uint32_t> args);
  Id ext(int glsl_inst, Id type, std::initializer_list<uint32_t> args);  // GLSL.std.450
  void label(Id l) { emit(body, spv::Op::OpLabel, {l}); }
  void name(Id id, const std::string& s);
  void decorate(Id id, spv::Decoration d, std::initializer_list<uint32_t> extra = {});
  void member_decorate(Id type, uint32_t member, spv::Decoration d, std::initializer_list<uint32_t> extra = {});
  // A global variable (StorageBuffer, Input, ...), listed in the entry
  // point's interface.
  Id global_var(Id ptr_type, spv::StorageClass sc);
  Id function_var(Id ptr_type);

  // A function other than main: begin_function hands back the streams of
  // the function being made (fn_vars, body) and starts empty ones; after the
  // new function's body (from its first block's code on, its first label
  // not emitted), end_function appends it to `functions` with its
  // parameters (type, id) and restores the caller's streams.
  struct Streams {
    Words fn_vars, body;
    std::vector<std::pair<Id, Id>> fn_var_list;
  };
  Streams begin_function();
  void end_function(Streams caller, Id fn, Id fn_type, const std::vector<std::pair<Id, Id>>& params, Id first_label);

  // The finished binary: header, sections, one function `main` whose body is
  // fn_vars + body (body must end with a terminator), entry point GLCompute
  // with LocalSize(local_x, 1, 1).
  Words finish(Id main_fn, Id first_label, int local_x);
};

}  // namespace kiln::vk

// The SPIR-V module builder (see spirv_builder.h).
#include "gpu/vulkan/spirv_builder.h"

#include <spirv/unified1/GLSL.std.450.h>

namespace kiln::vk {

using spv::Op;

void SpirvModule::emit(Words& w, Op op, std::initializer_list<uint32_t> operands) {
  w.push_back(((uint32_t)(operands.size() + 1) << 16) | (uint32_t)op);
  w.insert(w.end(), operands.begin(), operands.end());
}

void SpirvModule::emit(Words& w, Op op, const std::vector<uint32_t>& operands) {
  w.push_back(((uint32_t)(operands.size() + 1) << 16) | (uint32_t)op);
  w.insert(w.end(), operands.begin(), operands.end());
}

std::vector<uint32_t> SpirvModule::string_words(const std::string& s) {
  // A literal string: UTF-8 bytes, little-endian in words, NUL-terminated
  // and padded to a word boundary.
  std::vector<uint32_t> w((s.size() + 4) / 4, 0);
  for (size_t i = 0; i < s.size(); i++) w[i / 4] |= (uint32_t)(uint8_t)s[i] << (8 * (i % 4));
  return w;
}

void SpirvModule::capability(spv::Capability c) {
  if (caps.insert(c).second) emit(capabilities, Op::OpCapability, {(uint32_t)c});
}

void SpirvModule::extension(const std::string& name) {
  if (!exts.insert(name).second) return;
  emit(extensions, Op::OpExtension, string_words(name));
}

Id SpirvModule::glsl_std() {
  if (!glsl) {
    glsl = fresh();
    std::vector<uint32_t> ops{glsl};
    for (uint32_t w : string_words("GLSL.std.450")) ops.push_back(w);
    emit(imports, Op::OpExtInstImport, ops);
  }
  return glsl;
}

// Interning: the key is the opcode and operands without the result id.
static Id intern(SpirvModule& m, Op op, std::vector<uint32_t> operands, bool result_type_first = false) {
  std::vector<uint32_t> key{(uint32_t)op};
  key.insert(key.end(), operands.begin(), operands.end());
  auto it = m.interned.find(key);
  if (it != m.interned.end()) return it->second;
  Id id = m.fresh();
  // Types: result id first. Constants: result type, then result id.
  std::vector<uint32_t> ops;
  if (result_type_first) {
    ops.push_back(operands[0]);
    ops.push_back(id);
    ops.insert(ops.end(), operands.begin() + 1, operands.end());
  } else {
    ops.push_back(id);
    ops.insert(ops.end(), operands.begin(), operands.end());
  }
  SpirvModule::emit(m.globals, op, ops);
  m.interned[key] = id;
  return id;
}

Id SpirvModule::t_void() { return intern(*this, Op::OpTypeVoid, {}); }
Id SpirvModule::t_bool() {
  Id t = intern(*this, Op::OpTypeBool, {});
  scalars[t] = {'b', 1};
  return t;
}

Id SpirvModule::t_int(int width, bool is_signed) {
  if (width == 8) capability(spv::Capability::Int8);
  if (width == 16) capability(spv::Capability::Int16);
  if (width == 64) capability(spv::Capability::Int64);
  Id t = intern(*this, Op::OpTypeInt, {(uint32_t)width, is_signed ? 1u : 0u});
  scalars[t] = {is_signed ? 'i' : 'u', width};
  return t;
}

Id SpirvModule::t_float(int width) {
  if (width == 16) capability(spv::Capability::Float16);
  if (width == 64) capability(spv::Capability::Float64);
  Id t = intern(*this, Op::OpTypeFloat, {(uint32_t)width});
  scalars[t] = {'f', width};
  return t;
}

Id SpirvModule::t_ptr(spv::StorageClass sc, Id pointee) {
  Id t = intern(*this, Op::OpTypePointer, {(uint32_t)sc, pointee});
  this->pointee[t] = pointee;
  return t;
}

Id SpirvModule::t_fn(Id ret, const std::vector<Id>& params) {
  std::vector<uint32_t> ops{ret};
  ops.insert(ops.end(), params.begin(), params.end());
  return intern(*this, Op::OpTypeFunction, ops);
}
Id SpirvModule::t_vec(Id elem, int n) { return intern(*this, Op::OpTypeVector, {elem, (uint32_t)n}); }
Id SpirvModule::t_array(Id elem, uint32_t n) {
  return intern(*this, Op::OpTypeArray, {elem, c_bits(t_int(32, false), 32, n)});
}

Id SpirvModule::t_buffer_block(Id elem, int stride) {
  // Not interned through `intern`: two runtime arrays of one element type
  // with different strides are different types, and each needs decorations.
  std::vector<uint32_t> key{0xffffffffu, elem, (uint32_t)stride};
  auto it = interned.find(key);
  if (it != interned.end()) return it->second;
  Id arr = fresh(), st = fresh();
  emit(globals, Op::OpTypeRuntimeArray, {arr, elem});
  emit(globals, Op::OpTypeStruct, {st, arr});
  decorate(arr, spv::Decoration::ArrayStride, {(uint32_t)stride});
  decorate(st, spv::Decoration::Block);
  member_decorate(st, 0, spv::Decoration::Offset, {0});
  interned[key] = st;
  return st;
}

Id SpirvModule::c_bits(Id type, int width, uint64_t bits, bool is_signed) {
  if (width == 64) return intern(*this, Op::OpConstant, {type, (uint32_t)bits, (uint32_t)(bits >> 32)}, true);
  // A literal narrower than 32 bits fills its word: sign-extended for
  // signed types, zero-extended otherwise (the validator checks this).
  uint64_t mask = (1ULL << width) - 1;
  bits &= mask;
  if (is_signed && width < 32 && (bits >> (width - 1)) & 1) bits |= ~mask;
  return intern(*this, Op::OpConstant, {type, (uint32_t)bits}, true);
}

void SpirvModule::define_constant(Id id, Id type, uint32_t value) {
  emit(globals, spv::Op::OpConstant, {type, id, value});
}

Id SpirvModule::c_bool(bool v) {
  return intern(*this, v ? Op::OpConstantTrue : Op::OpConstantFalse, {t_bool()}, true);
}

// Float arithmetic is never fused (a*b+c into an fma, as drivers may): the
// CPU engines round each op, and kernels must print the same everywhere.
static void no_contraction(SpirvModule& m, Op o, Id r) {
  if (o == Op::OpFAdd || o == Op::OpFSub || o == Op::OpFMul || o == Op::OpFDiv) m.decorate(r, spv::Decoration::NoContraction);
}

Id SpirvModule::op(Op o, Id type, std::initializer_list<uint32_t> args) {
  return op(o, type, std::vector<uint32_t>(args));
}

Id SpirvModule::op(Op o, Id type, const std::vector<uint32_t>& args) {
  Id r = fresh();
  no_contraction(*this, o, r);
  result_type[r] = type;
  std::vector<uint32_t> ops{type, r};
  ops.insert(ops.end(), args.begin(), args.end());
  emit(body, o, ops);
  return r;
}

void SpirvModule::op_void(Op o, std::initializer_list<uint32_t> args) { emit(body, o, args); }

Id SpirvModule::ext(int inst, Id type, std::initializer_list<uint32_t> args) {
  Id r = fresh();
  result_type[r] = type;
  std::vector<uint32_t> ops{type, r, glsl_std(), (uint32_t)inst};
  ops.insert(ops.end(), args.begin(), args.end());
  emit(body, Op::OpExtInst, ops);
  return r;
}

void SpirvModule::name(Id id, const std::string& s) {
  std::vector<uint32_t> ops{id};
  for (uint32_t w : string_words(s)) ops.push_back(w);
  emit(debug, Op::OpName, ops);
}

void SpirvModule::decorate(Id id, spv::Decoration d, std::initializer_list<uint32_t> extra) {
  std::vector<uint32_t> ops{id, (uint32_t)d};
  ops.insert(ops.end(), extra.begin(), extra.end());
  emit(annotations, Op::OpDecorate, ops);
}

void SpirvModule::member_decorate(Id type, uint32_t member, spv::Decoration d, std::initializer_list<uint32_t> extra) {
  std::vector<uint32_t> ops{type, member, (uint32_t)d};
  ops.insert(ops.end(), extra.begin(), extra.end());
  emit(annotations, Op::OpMemberDecorate, ops);
}

Id SpirvModule::global_var(Id ptr_type, spv::StorageClass sc) {
  Id v = fresh();
  emit(globals, Op::OpVariable, {ptr_type, v, (uint32_t)sc});
  interface_vars.push_back(v);
  return v;
}

Id SpirvModule::function_var(Id ptr_type) {
  Id v = fresh();
  emit(fn_vars, Op::OpVariable, {ptr_type, v, (uint32_t)spv::StorageClass::Function});
  fn_var_list.emplace_back(v, pointee[ptr_type]);
  return v;
}

SpirvModule::Streams SpirvModule::begin_function() {
  Streams caller{std::move(fn_vars), std::move(body), std::move(fn_var_list)};
  fn_vars.clear();
  body.clear();
  fn_var_list.clear();
  return caller;
}

void SpirvModule::end_function(Streams caller, Id fn, Id fn_type, const std::vector<std::pair<Id, Id>>& params,
                               Id first_label) {
  emit(functions, Op::OpFunction, {t_void(), fn, (uint32_t)spv::FunctionControlMask::MaskNone, fn_type});
  for (auto [type, id] : params) emit(functions, Op::OpFunctionParameter, {type, id});
  emit(functions, Op::OpLabel, {first_label});
  functions.insert(functions.end(), fn_vars.begin(), fn_vars.end());
  functions.insert(functions.end(), body.begin(), body.end());
  emit(functions, Op::OpFunctionEnd, {});
  fn_vars = std::move(caller.fn_vars);
  body = std::move(caller.body);
  fn_var_list = std::move(caller.fn_var_list);
}

Words SpirvModule::finish(Id main_fn, Id first_label, int local_x) {
  capability(spv::Capability::Shader);
  Words mm;
  emit(mm, Op::OpMemoryModel, {(uint32_t)spv::AddressingModel::Logical, (uint32_t)spv::MemoryModel::GLSL450});
  Words ep;
  {
    std::vector<uint32_t> ops{(uint32_t)spv::ExecutionModel::GLCompute, main_fn};
    for (uint32_t w : string_words("main")) ops.push_back(w);
    ops.insert(ops.end(), interface_vars.begin(), interface_vars.end());
    emit(ep, Op::OpEntryPoint, ops);
  }
  Words em;
  emit(em, Op::OpExecutionMode, {main_fn, (uint32_t)spv::ExecutionMode::LocalSize, (uint32_t)local_x, 1, 1});
  Id fn_type = t_fn(t_void());  // before the globals are copied out
  Words out{0x07230203u, 0x00010500u /* SPIR-V 1.5 */, 0, next, 0};
  for (const Words* s : {&capabilities, &extensions, &imports, &mm, &ep, &em, &debug, &annotations, &globals})
    out.insert(out.end(), s->begin(), s->end());
  emit(out, Op::OpFunction, {t_void(), main_fn, (uint32_t)spv::FunctionControlMask::MaskNone, fn_type});
  emit(out, Op::OpLabel, {first_label});
  out.insert(out.end(), fn_vars.begin(), fn_vars.end());
  out.insert(out.end(), body.begin(), body.end());
  emit(out, Op::OpFunctionEnd, {});
  out.insert(out.end(), functions.begin(), functions.end());
  out[3] = next;
  return out;
}

}  // namespace kiln::vk

// Quantized types in the built-in evaluator: ti.types.quant.int/fixed/float,
// ti.BitpackedFields, and the quantized side of ti.field and SNode.place /
// quant_array. The types and the packing live below (vm/types/quant.h,
// vm/runtime/quant_place.cpp); this is the module language's binding.
#include "vm/host/evaluator.h"
#include "vm/host/ti_compound.h"
#include "vm/host/ti_objects.h"
#include "vm/host/ti_state.h"

namespace kiln::host {

namespace {

struct QuantTypeObj : HostObj {
  QuantType t;
  std::string type_name() const override { return "QuantType"; }
  std::string repr(Evaluator&) const override { return t.describe(); }
};

struct BitpackedObj : HostObj {
  int max_bits = 32;
  std::vector<Program::BitpackGroup> groups;
  bool placed = false;
  std::string type_name() const override { return "BitpackedFields"; }
  std::string repr(Evaluator&) const override { return "<ti.BitpackedFields>"; }
  bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) override {
    if (name != "place") return false;
    auto* me = this;
    (void)ev;
    (void)loc;
    out = make_builtin("place", [me, self](Evaluator& ev, CallArgs& a) {
      Value shared;
      a.take_kw("shared_exponent", shared);
      no_kwargs(a, "place");
      Program::BitpackGroup g;
      g.shared_exponent = !shared.is_none() && truthy_basic(shared);
      for (auto& v : a.pos)
        if (!field_components(v, a.loc, g.fields))
          raise("TypeError", "BitpackedFields.place() takes fields, not '" + ev.type_name(v) + "'", a.loc);
      if (g.shared_exponent && g.fields.size() < 2)
        raise("TaichiSyntaxError", "At least 2 fields need to be placed when shared_exponent=True", a.loc);
      me->groups.push_back(std::move(g));
      return Value();
    });
    return true;
  }
};

Value make_quant(Evaluator& ev, QuantKind kind, CallArgs& a) {
  const char* fname = kind == QuantKind::int_ ? "quant.int" : kind == QuantKind::fixed ? "quant.fixed" : "quant.float";
  QuantType t;
  t.kind = kind;
  Value bits, sg, compute, max_value, scale, exp, frac;
  a.take_kw("bits", bits);
  a.take_kw("signed", sg);
  a.take_kw("compute", compute);
  a.take_kw("max_value", max_value);
  a.take_kw("scale", scale);
  a.take_kw("exp", exp);
  a.take_kw("frac", frac);
  no_kwargs(a, fname);
  // positional order: int(bits, signed, compute); fixed(bits, signed, max_value,
  // compute, scale); float(exp, frac, signed, compute)
  std::vector<Value*> order = kind == QuantKind::int_   ? std::vector<Value*>{&bits, &sg, &compute}
                              : kind == QuantKind::fixed ? std::vector<Value*>{&bits, &sg, &max_value, &compute, &scale}
                                                         : std::vector<Value*>{&exp, &frac, &sg, &compute};
  if (a.pos.size() > order.size()) raise("TypeError", std::string(fname) + "() takes at most " + std::to_string(order.size()) + " arguments", a.loc);
  for (size_t k = 0; k < a.pos.size(); k++) *order[k] = a.pos[k];
  t.is_signed = sg.is_none() || truthy_basic(sg);
  const TypeConfig& types = ti_program(ev).config.types;
  if (kind == QuantKind::float_) {
    if (exp.is_none() || frac.is_none()) raise("TypeError", "quant.float() needs exp and frac", a.loc);
    t.exp_bits = (int)arg_int(ev, exp, fname, a.loc);
    t.bits = (int)arg_int(ev, frac, fname, a.loc);
  } else {
    if (bits.is_none()) raise("TypeError", std::string(fname) + "() needs bits", a.loc);
    t.bits = (int)arg_int(ev, bits, fname, a.loc);
  }
  if (!compute.is_none()) t.compute = dtype_prim(ev, compute, a.loc);
  else if (kind != QuantKind::int_) t.compute = types.default_fp;
  else t.compute = t.is_signed ? types.default_ip : (prim_bits(types.default_ip) == 64 ? Prim::u64 : Prim::u32);
  if (kind == QuantKind::fixed) {
    double mv = max_value.is_none() ? 1.0 : arg_float(ev, max_value, fname, a.loc);
    t.scale = !scale.is_none() ? arg_float(ev, scale, fname, a.loc)
                               : mv / (double)(1ull << (t.is_signed ? t.bits - 1 : t.bits));
  }
  try {
    check_quant_type(t);
  } catch (Error& e) {
    raise(e.kind, e.message, a.loc);
  }
  auto o = std::make_shared<QuantTypeObj>();
  o->t = t;
  return Value::of(o);
}

}  // namespace

const QuantType* quant_type_of(const Value& v) {
  if (v.kind != Kind::Host) return nullptr;
  auto* q = dynamic_cast<QuantTypeObj*>(v.as<HostObj>());
  return q ? &q->t : nullptr;
}

bool place_bitpacked(Evaluator&, Program& prog, SNode* parent, const Value& v, SourceLoc loc) {
  if (v.kind != Kind::Host) return false;
  auto* b = dynamic_cast<BitpackedObj*>(v.as<HostObj>());
  if (!b) return false;
  if (b->placed) raise("RuntimeError", "this ti.BitpackedFields is already placed", loc);
  prog.place_bitpacked(parent, b->max_bits, b->groups, loc);
  b->placed = true;
  return true;
}

void install_ti_quant(Evaluator&, ModuleObj& ti, ModuleObj& types) {
  auto quant = std::make_shared<ModuleObj>();
  quant->name = "taichi.types.quant";
  quant->attrs["int"] = make_builtin("ti.types.quant.int", [](Evaluator& ev, CallArgs& a) { return make_quant(ev, QuantKind::int_, a); });
  quant->attrs["fixed"] = make_builtin("ti.types.quant.fixed", [](Evaluator& ev, CallArgs& a) { return make_quant(ev, QuantKind::fixed, a); });
  quant->attrs["float"] = make_builtin("ti.types.quant.float", [](Evaluator& ev, CallArgs& a) { return make_quant(ev, QuantKind::float_, a); });
  types.attrs["quant"] = Value::of(quant);
  ti.attrs["BitpackedFields"] = make_builtin("ti.BitpackedFields", [](Evaluator& ev, CallArgs& a) {
    Value mb;
    if (a.take_kw("max_num_bits", mb)) a.pos.insert(a.pos.begin(), mb);
    no_kwargs(a, "BitpackedFields");
    expect_args(a, "BitpackedFields", 1, 1);
    auto b = std::make_shared<BitpackedObj>();
    b->max_bits = (int)arg_int(ev, a.pos[0], "BitpackedFields", a.loc);
    return Value::of(b);
  });
}

}  // namespace kiln::host

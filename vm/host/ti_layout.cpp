// ti.layout in the built-in evaluator: Layout objects and the ti.layout
// module over the shared algebra of vm/ti/layout.h (seed 002's layouts).
#include "vm/host/evaluator.h"
#include "vm/host/ti_objects.h"
#include "vm/host/ti_state.h"
#include "vm/ti/layout.h"

namespace kiln::host {

namespace {

struct LayoutObj : HostObj {
  ti::Layout l;

  explicit LayoutObj(ti::Layout layout) : l(std::move(layout)) {}
  std::string type_name() const override { return "Layout"; }
  std::string repr(Evaluator&) const override { return ti::layout_repr(l); }
  bool callable() const override { return true; }
  int64_t position(const std::vector<int64_t>& c, SourceLoc loc) const { return ti::position(l, c, loc); }

  Value call(Evaluator& ev, const Value&, CallArgs& a) override {
    std::vector<int64_t> c;
    for (auto& v : a.pos) c.push_back(arg_int(ev, v, "layout", a.loc));
    return Value::integer(position(c, a.loc));
  }

  bool get_item(Evaluator& ev, const Value& key, SourceLoc loc, Value& out) override {
    std::vector<int64_t> c;
    if (key.kind == Kind::Tuple || key.kind == Kind::List)
      for (auto& v : ev.to_vector(key, loc)) c.push_back(arg_int(ev, v, "layout", loc));
    else
      c.push_back(arg_int(ev, key, "layout", loc));
    out = Value::integer(position(c, loc));
    return true;
  }

  bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) override;
};

std::shared_ptr<LayoutObj> as_layout(const Value& v) {
  if (v.kind != Kind::Host) return nullptr;
  return std::dynamic_pointer_cast<LayoutObj>(std::static_pointer_cast<HostObj>(v.obj));
}

bool LayoutObj::get_attr(Evaluator&, const Value& self, const std::string& name, SourceLoc, Value& out) {
  auto me = as_layout(self);
  if (name == "shape") {
    std::vector<Value> items;
    for (auto n : me->l.shape) items.push_back(Value::integer(n));
    out = make_tuple(std::move(items));
    return true;
  }
  if (name == "__mul__") {
    out = make_builtin("__mul__", [me](Evaluator& ev, CallArgs& a) -> Value {
      expect_args(a, "__mul__", 1, 1);
      auto inner = as_layout(a.pos[0]);
      if (!inner) return make_builtin("NotImplemented", [](Evaluator&, CallArgs&) { return Value(); });
      return Value::of(std::make_shared<LayoutObj>(ti::compose(me->l, inner->l, a.loc)));
    });
    return true;
  }
  return false;
}

// The sizes of row_major(2, 3) or row_major((2, 3)); ti::row_major & co. check them.
std::vector<int64_t> sizes_of(Evaluator& ev, CallArgs& a, const char* what) {
  std::vector<int64_t> shape;
  std::vector<Value> items = a.pos;
  if (items.size() == 1 && (items[0].kind == Kind::Tuple || items[0].kind == Kind::List)) items = ev.to_vector(items[0], a.loc);
  for (auto& v : items) shape.push_back(arg_int(ev, v, what, a.loc));
  return shape;
}

Value layout_value(ti::Layout l) { return Value::of(std::make_shared<LayoutObj>(std::move(l))); }

}  // namespace

void install_ti_layout(Evaluator&, ModuleObj& ti) {
  auto m = std::make_shared<ModuleObj>();
  m->name = "layout";
  auto def = [&](const std::string& name, NativeFn fn) { m->attrs[name] = make_builtin("ti.layout." + name, std::move(fn)); };
  def("row_major", [](Evaluator& ev, CallArgs& a) {
    no_kwargs(a, "row_major");
    return layout_value(ti::row_major(sizes_of(ev, a, "row_major"), a.loc));
  });
  def("column_major", [](Evaluator& ev, CallArgs& a) {
    no_kwargs(a, "column_major");
    return layout_value(ti::column_major(sizes_of(ev, a, "column_major"), a.loc));
  });
  def("strided", [](Evaluator& ev, CallArgs& a) {
    Value shape_v, ranks_v;
    if (a.take_kw("shape", shape_v)) a.pos.insert(a.pos.begin(), shape_v);
    if (a.take_kw("ranks", ranks_v)) a.pos.push_back(ranks_v);
    no_kwargs(a, "strided");
    expect_args(a, "strided", 2, 2);
    CallArgs sa;
    sa.loc = a.loc;
    sa.pos = {a.pos[0]};
    std::vector<int64_t> ranks;
    for (auto& v : ev.to_vector(a.pos[1], a.loc)) ranks.push_back(arg_int(ev, v, "strided", a.loc));
    return layout_value(ti::strided(sizes_of(ev, sa, "strided"), ranks, a.loc));
  });
  ti.attrs["layout"] = Value::of(m);
}

// ti.field(dtype, shape, order="ji") / layout=L: the chain of dense levels,
// or null when neither was given.
std::vector<int> order_axes(const Value& order, size_t ndim, SourceLoc loc) {
  if (order.kind != Kind::Str) raise("TypeError", "order= takes a string such as \"ji\"", loc);
  const std::string& o = str_of(order);
  static const std::string names = "ijklmnopqrst";
  std::vector<bool> used(ndim, false);
  std::vector<int> axes;
  auto bad = [&] {
    raise("ValueError", "order \"" + o + "\" must name each of the field's " + std::to_string(ndim) + " axes once", loc);
  };
  if (o.size() != ndim) bad();
  for (char ch : o) {
    size_t d = names.find(ch);
    if (d == std::string::npos || d >= ndim || used[d]) bad();
    used[d] = true;
    axes.push_back((int)d);
  }
  return axes;
}

FieldInfo* create_ordered_field(Evaluator& ev, Prim p, const Value& shape, const Value& order, const Value& layout,
                                const std::string& name, SourceLoc loc) {
  std::vector<std::pair<int, int64_t>> levels;
  if (!layout.is_none()) {
    auto l = as_layout(layout);
    if (!l) raise("TypeError", "layout= takes a ti.layout (row_major, column_major, strided or a product of them)", loc);
    std::vector<int64_t> dims;
    if (!shape.is_none()) dims = arg_shape(ev, shape, "field", loc);
    if (!order.is_none()) raise("TypeError", "give a field either order= or layout=, not both", loc);
    levels = ti::field_levels(l->l, shape.is_none() ? nullptr : &dims, loc);
  } else if (!order.is_none()) {
    if (shape.is_none()) raise("ValueError", "order= needs a shape: ti.field(dtype, shape=(n, m), order='ji')", loc);
    std::vector<int64_t> dims = arg_shape(ev, shape, "field", loc);
    for (int d : order_axes(order, dims.size(), loc)) levels.push_back({d, dims[(size_t)d]});
  } else {
    return nullptr;
  }
  return ti_program(ev).create_layout_field(p, levels, name, loc);
}

}  // namespace kiln::host

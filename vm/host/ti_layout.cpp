// ti.layout: seed 002's tensor layouts as a way to choose a field's memory
// order. row_major(*shape), column_major(*shape) and strided(shape, ranks)
// compose with `*` (outer * inner: the outer layout picks the block, the inner
// one the element inside it). A layout lowers to a chain of dense SNode levels,
// one (axis, extent) per level, slowest first, so `ti.field(dt, layout=L)`
// is an ordinary nested-dense field. L[i, j] (or L(i, j)) gives the linear
// position of an element, as the seed's tables show.
#include "vm/host/evaluator.h"
#include "vm/host/ti_objects.h"
#include "vm/host/ti_state.h"

namespace kiln::host {

namespace {

struct LayoutObj : HostObj {
  std::vector<int64_t> shape;
  std::vector<std::pair<int, int64_t>> levels;  // (axis, extent), slowest first

  std::string type_name() const override { return "Layout"; }
  std::string repr(Evaluator&) const override {
    std::string s = "Layout(shape=[";
    for (size_t i = 0; i < shape.size(); i++) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "])";
  }
  bool callable() const override { return true; }

  // The linear position of element `c`: Horner over the levels, each level
  // seeing its axis' index divided by the extents of that axis below it.
  int64_t position(const std::vector<int64_t>& c, SourceLoc loc) const {
    if (c.size() != shape.size())
      raise("IndexError", "the layout has " + std::to_string(shape.size()) + " dimensions, got " +
                              std::to_string(c.size()) + " indices", loc);
    for (size_t d = 0; d < c.size(); d++)
      if (c[d] < 0 || c[d] >= shape[d])
        raise("IndexError", "index " + std::to_string(c[d]) + " is out of bounds for dimension " + std::to_string(d) +
                                " of a layout with shape " + format_shape(shape), loc);
    int64_t pos = 0;
    for (size_t l = 0; l < levels.size(); l++) {
      auto [axis, n] = levels[l];
      int64_t below = 1;
      for (size_t m = l + 1; m < levels.size(); m++)
        if (levels[m].first == axis) below *= levels[m].second;
      pos = pos * n + (c[(size_t)axis] / below) % n;
    }
    return pos;
  }

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
    for (auto n : shape) items.push_back(Value::integer(n));
    out = make_tuple(std::move(items));
    return true;
  }
  if (name == "__mul__") {
    out = make_builtin("__mul__", [me](Evaluator& ev, CallArgs& a) -> Value {
      expect_args(a, "__mul__", 1, 1);
      auto inner = as_layout(a.pos[0]);
      if (!inner) return make_builtin("NotImplemented", [](Evaluator&, CallArgs&) { return Value(); });
      if (inner->shape.size() != me->shape.size())
        raise("ValueError", "cannot compose a " + std::to_string(me->shape.size()) + "-D layout with a " +
                                std::to_string(inner->shape.size()) + "-D one", a.loc);
      auto h = std::make_shared<LayoutObj>();
      for (size_t d = 0; d < me->shape.size(); d++) h->shape.push_back(me->shape[d] * inner->shape[d]);
      h->levels = me->levels;
      h->levels.insert(h->levels.end(), inner->levels.begin(), inner->levels.end());
      return Value::of(h);
    });
    return true;
  }
  return false;
}

std::vector<int64_t> sizes_of(Evaluator& ev, CallArgs& a, const char* what) {
  std::vector<int64_t> shape;
  std::vector<Value> items = a.pos;
  if (items.size() == 1 && (items[0].kind == Kind::Tuple || items[0].kind == Kind::List)) items = ev.to_vector(items[0], a.loc);
  for (auto& v : items) {
    int64_t n = arg_int(ev, v, what, a.loc);
    if (n <= 0) raise("ValueError", std::string(what) + "() sizes must be positive, got " + std::to_string(n), a.loc);
    shape.push_back(n);
  }
  if (shape.empty() || shape.size() > (size_t)kMaxIndices)
    raise("TypeError", std::string(what) + "() takes 1 to 12 sizes", a.loc);
  return shape;
}

// A layout over `shape` whose dimensions go slowest to fastest in `order`.
Value make_layout(const std::vector<int64_t>& shape, const std::vector<int>& order) {
  auto l = std::make_shared<LayoutObj>();
  l->shape = shape;
  for (int d : order) l->levels.push_back({d, shape[(size_t)d]});
  return Value::of(l);
}

}  // namespace

void install_ti_layout(Evaluator&, ModuleObj& ti) {
  auto m = std::make_shared<ModuleObj>();
  m->name = "layout";
  auto def = [&](const std::string& name, NativeFn fn) { m->attrs[name] = make_builtin("ti.layout." + name, std::move(fn)); };
  def("row_major", [](Evaluator& ev, CallArgs& a) {
    no_kwargs(a, "row_major");
    auto shape = sizes_of(ev, a, "row_major");
    std::vector<int> order;
    for (size_t d = 0; d < shape.size(); d++) order.push_back((int)d);
    return make_layout(shape, order);
  });
  def("column_major", [](Evaluator& ev, CallArgs& a) {
    no_kwargs(a, "column_major");
    auto shape = sizes_of(ev, a, "column_major");
    std::vector<int> order;
    for (size_t d = shape.size(); d-- > 0;) order.push_back((int)d);
    return make_layout(shape, order);
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
    auto shape = sizes_of(ev, sa, "strided");
    std::vector<Value> ranks = ev.to_vector(a.pos[1], a.loc);
    if (ranks.size() != shape.size())
      raise("ValueError", "strided() needs one rank per dimension: " + std::to_string(shape.size()) + " dimensions, " +
                              std::to_string(ranks.size()) + " ranks", a.loc);
    // ranks[d] is dimension d's place from slowest (0) to fastest.
    std::vector<int> order(shape.size(), -1);
    for (size_t d = 0; d < ranks.size(); d++) {
      int64_t r = arg_int(ev, ranks[d], "strided", a.loc);
      if (r < 0 || r >= (int64_t)shape.size() || order[(size_t)r] != -1)
        raise("ValueError", "strided() ranks must be a permutation of 0.." + std::to_string(shape.size() - 1), a.loc);
      order[(size_t)r] = (int)d;
    }
    return make_layout(shape, order);
  });
  ti.attrs["layout"] = Value::of(m);
}

// ti.field(dtype, shape, order="ji") / layout=L: the chain of dense levels,
// or null when neither was given.
FieldInfo* create_ordered_field(Evaluator& ev, Prim p, const Value& shape, const Value& order, const Value& layout,
                                const std::string& name, SourceLoc loc) {
  std::vector<std::pair<int, int64_t>> levels;
  if (!layout.is_none()) {
    auto l = as_layout(layout);
    if (!l) raise("TypeError", "layout= takes a ti.layout (row_major, column_major, strided or a product of them)", loc);
    if (!shape.is_none()) {
      std::vector<int64_t> dims = arg_shape(ev, shape, "field", loc);
      if (dims != l->shape)
        raise("ValueError", "the field's shape " + format_shape(dims) + " differs from its layout's shape " +
                                format_shape(l->shape), loc);
    }
    if (!order.is_none()) raise("TypeError", "give a field either order= or layout=, not both", loc);
    levels = l->levels;
  } else if (!order.is_none()) {
    if (shape.is_none()) raise("TypeError", "order= needs a shape", loc);
    std::vector<int64_t> dims = arg_shape(ev, shape, "field", loc);
    if (order.kind != Kind::Str) raise("TypeError", "order= takes a string such as \"ji\"", loc);
    const std::string& o = str_of(order);
    static const std::string names = "ijklmnopqrst";
    std::vector<bool> used(dims.size(), false);
    if (o.size() != dims.size())
      raise("ValueError", "order \"" + o + "\" must name each of the field's " + std::to_string(dims.size()) + " axes once", loc);
    for (char ch : o) {
      size_t d = names.find(ch);
      if (d == std::string::npos || d >= dims.size() || used[d])
        raise("ValueError", "order \"" + o + "\" must name each of the field's " + std::to_string(dims.size()) + " axes once", loc);
      used[d] = true;
      levels.push_back({(int)d, dims[d]});
    }
  } else {
    return nullptr;
  }
  return ti_program(ev).create_layout_field(p, levels, name, loc);
}

}  // namespace kiln::host

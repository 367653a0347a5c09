// Attributes and methods of numpy arrays (.shape, .T, .astype(), .sum(axis=),
// ...) and the operator dunders the evaluator looks up on host objects.
#include <cmath>
#include <cstring>

#include "vm/host/evaluator.h"
#include "vm/host/np_array.h"

namespace kiln::host {

using ast::BinOpKind;

Value np_scalar_op(Evaluator& ev, BinOpKind op, const Value& x, const Value& y, Prim ct, SourceLoc loc);

namespace {

using ArrPtr = std::shared_ptr<NpArrayObj>;
using Method = std::function<Value(Evaluator&, const ArrPtr&, CallArgs&)>;

Value make_method(const ArrPtr& a, const std::string& name, Method m) {
  return make_builtin("ndarray." + name, [a, m](Evaluator& ev, CallArgs& args) { return m(ev, a, args); });
}

Value shape_tuple(const std::vector<int64_t>& s) {
  std::vector<Value> v;
  for (auto d : s) v.push_back(Value::integer(d));
  return make_tuple(std::move(v));
}

// A shape argument: an int, a tuple/list of ints, or several ints (reshape(2, 3)).
std::vector<int64_t> shape_args(Evaluator& ev, const std::vector<Value>& pos, const char* fname, SourceLoc loc) {
  std::vector<Value> parts;
  if (pos.size() == 1 && (pos[0].kind == Kind::Tuple || pos[0].kind == Kind::List)) parts = ev.to_vector(pos[0], loc);
  else parts = pos;
  std::vector<int64_t> s;
  for (auto& p : parts) s.push_back(arg_int(ev, p, fname, loc));
  return s;
}

Value transpose(const ArrPtr& a) {
  std::vector<int64_t> sh(a->shape.rbegin(), a->shape.rend()), st(a->strides.rbegin(), a->strides.rend());
  return Value::of(np_view(*a, sh, st, a->offset));
}

Value reshape(Evaluator& ev, const ArrPtr& a, std::vector<int64_t> shape, SourceLoc loc) {
  int64_t known = 1, unknown = -1;
  for (size_t k = 0; k < shape.size(); k++) {
    if (shape[k] == -1) {
      if (unknown >= 0) raise("ValueError", "can only specify one unknown dimension", loc);
      unknown = (int64_t)k;
    } else if (shape[k] < 0) {
      raise("ValueError", "negative dimensions not allowed", loc);
    } else {
      known *= shape[k];
    }
  }
  if (unknown >= 0 && known > 0 && a->size() % known == 0) shape[(size_t)unknown] = a->size() / known;
  int64_t n = 1;
  for (auto d : shape) n *= d;
  if (n != a->size() || (unknown >= 0 && known == 0)) {
    std::string s = "(";
    for (size_t k = 0; k < shape.size(); k++) s += (k ? "," : "") + std::to_string(shape[k]);
    s += shape.size() == 1 ? ",)" : ")";
    raise("ValueError", "cannot reshape array of size " + std::to_string(a->size()) + " into shape " + s, loc);
  }
  // a view when contiguous (numpy's common case), a copy otherwise
  ArrPtr src = a->contiguous() ? a : np_copy(ev, *a, a->dtype, loc);
  return Value::of(np_view(*src, shape, c_strides(shape, a->dtype), src->offset));
}

Value tolist_rec(const NpArrayObj& a, size_t axis, int64_t off) {
  if (axis == a.shape.size()) return NpArrayObj::load(a.dtype, a.data() + off);
  std::vector<Value> items;
  for (int64_t i = 0; i < a.shape[axis]; i++) items.push_back(tolist_rec(a, axis + 1, off + i * a.strides[axis]));
  return make_list(std::move(items));
}

// .sum(), .sum(axis=0), .sum(0)
Method reduction(const std::string& what) {
  return [what](Evaluator& ev, const ArrPtr& a, CallArgs& args) {
    Value axis;
    bool has_axis = args.take_kw("axis", axis);
    if (!args.kw.empty()) raise("TypeError", what + "() got an unexpected keyword argument '" + args.kw[0].first + "'", args.loc);
    if (!args.pos.empty()) {
      axis = args.pos[0];
      has_axis = true;
    }
    if (has_axis && axis.is_none()) has_axis = false;
    return np_reduce(ev, what, *a, has_axis, has_axis ? arg_int(ev, axis, what.c_str(), args.loc) : 0, args.loc);
  };
}

bool binop_name(const std::string& name, BinOpKind& op, bool& reflected) {
  static const std::pair<const char*, BinOpKind> ops[] = {
      {"add", BinOpKind::Add},          {"sub", BinOpKind::Sub},   {"mul", BinOpKind::Mult},
      {"truediv", BinOpKind::Div},      {"floordiv", BinOpKind::FloorDiv}, {"mod", BinOpKind::Mod},
      {"pow", BinOpKind::Pow},          {"lshift", BinOpKind::LShift},     {"rshift", BinOpKind::RShift},
      {"or", BinOpKind::BitOr},         {"xor", BinOpKind::BitXor},        {"and", BinOpKind::BitAnd},
      {"matmul", BinOpKind::MatMult}};
  if (name.size() < 5 || name.compare(0, 2, "__") != 0 || name.compare(name.size() - 2, 2, "__") != 0) return false;
  std::string core = name.substr(2, name.size() - 4);
  reflected = false;
  if (core.size() > 1 && core[0] == 'r' && core != "rshift") {
    reflected = true;
    core = core.substr(1);
  } else if (core == "rrshift") {
    reflected = true;
    core = "rshift";
  }
  for (auto& [n, o] : ops)
    if (core == n) {
      op = o;
      return true;
    }
  return false;
}

Value matmul(Evaluator& ev, const Value& x, const Value& y, SourceLoc loc);

}  // namespace

bool np_method(Evaluator& ev, const ArrPtr& a, const std::string& name, SourceLoc loc, Value& out) {
  if (name == "shape") { out = shape_tuple(a->shape); return true; }
  if (name == "ndim") { out = Value::integer(a->ndim()); return true; }
  if (name == "size") { out = Value::integer(a->size()); return true; }
  if (name == "dtype") { out = np_dtype_value(a->dtype, false); return true; }
  if (name == "itemsize") { out = Value::integer(a->itemsize()); return true; }
  if (name == "nbytes") { out = Value::integer(a->itemsize() * a->size()); return true; }
  if (name == "strides") { out = shape_tuple(a->strides); return true; }
  if (name == "T") { out = transpose(a); return true; }
  BinOpKind op;
  bool reflected;
  if (binop_name(name, op, reflected)) {
    out = make_method(a, name, [op, reflected](Evaluator& ev, const ArrPtr& a, CallArgs& args) {
      expect_args(args, "operator", 1, 1);
      Value self = Value::of(a);
      Value r;
      const Value& x = reflected ? args.pos[0] : self;
      const Value& y = reflected ? self : args.pos[0];
      if (op == BinOpKind::MatMult) return matmul(ev, x, y, args.loc);
      if (!np_binop(ev, op, x, y, args.loc, r)) return ev.builtins["NotImplemented"];
      return r;
    });
    return true;
  }
  Method m;
  if (name == "__neg__") m = [](Evaluator& ev, const ArrPtr& a, CallArgs& c) { return np_unop(ev, *a, '-', c.loc); };
  else if (name == "__pos__") m = [](Evaluator& ev, const ArrPtr& a, CallArgs& c) {
      auto r = np_copy(ev, *a, a->dtype, c.loc);
      r->scalar = a->scalar;
      return Value::of(r);
    };
  else if (name == "__invert__") m = [](Evaluator& ev, const ArrPtr& a, CallArgs& c) { return np_unop(ev, *a, '~', c.loc); };
  else if (name == "__abs__") m = [](Evaluator& ev, const ArrPtr& a, CallArgs& c) { return np_ufunc1(ev, "abs", Value::of(a), c.loc); };
  else if (name == "__len__") {
    m = [](Evaluator& ev, const ArrPtr& a, CallArgs& c) -> Value {
      if (a->ndim() == 0) raise("TypeError", a->scalar ? "object of type '" + a->type_name() + "' has no len()" : "len() of unsized object", c.loc);
      return Value::integer(a->shape[0]);
    };
  } else if (name == "__bool__") {
    m = [](Evaluator& ev, const ArrPtr& a, CallArgs& c) -> Value {
      if (a->size() != 1)
        raise("ValueError", "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()", c.loc);
      Value v = a->get_flat(0);
      return Value::boolean(v.kind == Kind::Float ? v.f != 0 : v.as_int() != 0);
    };
  } else if (name == "__float__" || name == "__int__" || name == "__index__") {
    bool to_float = name == "__float__";
    bool index = name == "__index__";
    m = [to_float, index](Evaluator& ev, const ArrPtr& a, CallArgs& c) -> Value {
      if (a->size() != 1) raise("TypeError", "only size-1 arrays can be converted to Python scalars", c.loc);
      Value v = a->get_flat(0);
      if (index && (prim_is_float(a->dtype) || a->dtype == Prim::none))
        raise("TypeError", "only integer scalar arrays can be converted to a scalar index", c.loc);
      if (to_float) return Value::floating(v.as_double());
      return v.kind == Kind::Float ? Value::integer(float_to_int(v.f, c.loc)) : Value::integer(v.as_int());
    };
  } else if (name == "__format__") {
    m = [](Evaluator& ev, const ArrPtr& a, CallArgs& c) -> Value {
      expect_args(c, "__format__", 1, 1);
      if (a->ndim() != 0) {
        if (c.pos[0].kind == Kind::Str && str_of(c.pos[0]).empty()) return Value::str(a->str(ev));
        raise("TypeError", "unsupported format string passed to numpy.ndarray.__format__", c.loc);
      }
      Value v = a->get_flat(0);
      if (prim_is_float(a->dtype)) {
        if (c.pos[0].kind == Kind::Str && str_of(c.pos[0]).empty()) return Value::str(a->str(ev));
        v = Value::floating(v.as_double());
      }
      return Value::str(ev.format(v, str_of(c.pos[0]), c.loc));
    };
  } else if (name == "copy") {
    m = [](Evaluator& ev, const ArrPtr& a, CallArgs& c) { auto r = np_copy(ev, *a, a->dtype, c.loc); r->scalar = a->scalar; return Value::of(r); };
  } else if (name == "astype") {
    m = [](Evaluator& ev, const ArrPtr& a, CallArgs& c) {
      expect_args(c, "astype", 1, 1);
      return Value::of(np_copy(ev, *a, np_dtype_arg(ev, c.pos[0], c.loc), c.loc));
    };
  } else if (name == "reshape") {
    m = [](Evaluator& ev, const ArrPtr& a, CallArgs& c) { return reshape(ev, a, shape_args(ev, c.pos, "reshape", c.loc), c.loc); };
  } else if (name == "flatten" || name == "ravel") {
    bool copy = name == "flatten";
    m = [copy](Evaluator& ev, const ArrPtr& a, CallArgs& c) {
      if (copy || !a->contiguous()) {
        auto r = np_copy(ev, *a, a->dtype, c.loc);
        return reshape(ev, r, {r->size()}, c.loc);
      }
      return reshape(ev, a, {a->size()}, c.loc);
    };
  } else if (name == "transpose") {
    m = [](Evaluator& ev, const ArrPtr& a, CallArgs& c) {
      expect_args(c, "transpose", 0, 0);
      return transpose(a);
    };
  } else if (name == "tolist" || name == "item") {
    bool item = name == "item";
    m = [item](Evaluator& ev, const ArrPtr& a, CallArgs& c) {
      if (item) {
        if (!c.pos.empty()) {
          int64_t k = arg_int(ev, c.pos[0], "item", c.loc), n = a->size();
          if (k < -n || k >= n) raise("IndexError", "index " + std::to_string(k) + " is out of bounds for size " + std::to_string(n), c.loc);
          return a->get_flat(k < 0 ? k + n : k);
        }
        if (a->size() != 1) raise("ValueError", "can only convert an array of size 1 to a Python scalar", c.loc);
        return a->get_flat(0);
      }
      return tolist_rec(*a, 0, 0);
    };
  } else if (name == "fill") {
    m = [](Evaluator& ev, const ArrPtr& a, CallArgs& c) {
      expect_args(c, "fill", 1, 1);
      auto src = np_new(a->dtype, {});
      NpArrayObj::store(ev, a->dtype, src->data(), c.pos[0], c.loc);
      np_assign(ev, *a, *src, c.loc);
      return Value();
    };
  } else if (name == "sum" || name == "min" || name == "max" || name == "mean" || name == "prod" || name == "any" ||
             name == "all" || name == "argmin" || name == "argmax") {
    m = reduction(name);
  } else if (name == "dot") {
    m = [](Evaluator& ev, const ArrPtr& a, CallArgs& c) {
      expect_args(c, "dot", 1, 1);
      return matmul(ev, Value::of(a), c.pos[0], c.loc);
    };
  } else {
    return false;
  }
  out = make_method(a, name, m);
  return true;
}

namespace {

// np.dot / @ for 1-D and 2-D operands.
Value matmul(Evaluator& ev, const Value& xv, const Value& yv, SourceLoc loc) {
  auto x = np_from_value(ev, xv, false, Prim::none, loc), y = np_from_value(ev, yv, false, Prim::none, loc);
  if (x->ndim() == 0 || y->ndim() == 0 || x->ndim() > 2 || y->ndim() > 2)
    raise("ValueError", "Kiln's numpy multiplies 1-D and 2-D arrays only (got shapes " + np_shape_str(x->shape) + " and " +
                            np_shape_str(y->shape) + ")", loc);
  bool xv1 = x->ndim() == 1, yv1 = y->ndim() == 1;
  int64_t n = xv1 ? 1 : x->shape[0], k = xv1 ? x->shape[0] : x->shape[1];
  int64_t k2 = y->shape[0], m = yv1 ? 1 : y->shape[1];
  if (k != k2)
    raise("ValueError", "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size " +
                            std::to_string(k2) + " is different from " + std::to_string(k) + ")", loc);
  Prim ct = np_promote(x->dtype, y->dtype);
  if (ct == Prim::none) ct = Prim::i64;
  std::vector<int64_t> shape;
  if (!xv1) shape.push_back(n);
  if (!yv1) shape.push_back(m);
  auto r = np_new(ct, shape);
  int64_t is = r->itemsize();
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < m; j++) {
      Value acc = prim_is_float(ct) ? Value::floating(0) : Value::integer(0);
      for (int64_t t = 0; t < k; t++) {
        Value a = NpArrayObj::load(x->dtype, x->data() + (xv1 ? t * x->strides[0] : i * x->strides[0] + t * x->strides[1]));
        Value b = NpArrayObj::load(y->dtype, y->data() + (yv1 ? t * y->strides[0] : t * y->strides[0] + j * y->strides[1]));
        acc = np_scalar_op(ev, BinOpKind::Add, acc, np_scalar_op(ev, BinOpKind::Mult, a, b, ct, loc), ct, loc);
      }
      NpArrayObj::store(ev, ct, r->data() + (i * m + j) * is, acc, loc);
    }
  if (shape.empty()) return np_scalar_value(ct, r->get_flat(0));
  return Value::of(r);
}

}  // namespace

}  // namespace kiln::host

// Methods of list, tuple and dict, and the dict views (keys/values/items).
#include <algorithm>
#include <unordered_map>

#include "vm/host/evaluator.h"

namespace kiln::host {

namespace {

using Table = std::unordered_map<std::string, NativeFn>;

std::vector<Value>& items_of(CallArgs& a) { return a.pos[0].as<ListObj>()->items; }

// dict.keys()/values()/items(): live views that print as dict_keys([...]).
struct DictView : HostObj {
  enum Which { Keys, Values, Items } which;
  std::shared_ptr<DictObj> dict;
  DictView(Which w, std::shared_ptr<DictObj> d) : which(w), dict(std::move(d)) {}
  std::string type_name() const override {
    return which == Keys ? "dict_keys" : which == Values ? "dict_values" : "dict_items";
  }
  Value snapshot() const {
    std::vector<Value> out;
    out.reserve(dict->size());
    dict->each([&](const Value& k, const Value& v) {
      out.push_back(which == Keys ? k : which == Values ? v : make_tuple({k, v}));
    });
    return make_list(std::move(out));
  }
  std::string repr(Evaluator& ev) const override { return type_name() + "(" + ev.repr(snapshot()) + ")"; }
  bool as_iterable(Evaluator&, SourceLoc, Value& out) override {
    out = snapshot();
    return true;
  }
  bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) override {
    auto me = self.ptr<DictView>();
    if (name == "__len__") {
      out = make_builtin("__len__", [me](Evaluator&, CallArgs&) { return Value::integer((int64_t)me->dict->size()); });
      return true;
    }
    if (name == "__contains__") {
      out = make_builtin("__contains__", [me](Evaluator& ev, CallArgs& a) {
        if (me->which == Keys) return Value::boolean(me->dict->find(a.pos[0], a.loc) != nullptr);
        return Value::boolean(ev.contains(me->snapshot(), a.pos[0], a.loc));
      });
      return true;
    }
    return false;
  }
};

Value index_of(Evaluator& ev, const std::vector<Value>& items, CallArgs& a, const char* what) {
  expect_args(a, "index", 2, 4);
  int64_t n = (int64_t)items.size();
  auto norm = [&](const Value& v) {
    int64_t x = arg_int(ev, v, "index", a.loc);
    if (x < 0) x = std::max<int64_t>(0, x + n);
    return std::min(x, n);
  };
  int64_t b = a.pos.size() > 2 ? norm(a.pos[2]) : 0;
  int64_t e = a.pos.size() > 3 ? norm(a.pos[3]) : n;
  for (int64_t k = b; k < e; k++)
    if (ev.eq(items[(size_t)k], a.pos[1], a.loc)) return Value::integer(k);
  if (std::string(what) == "list") raise("ValueError", ev.repr(a.pos[1]) + " is not in list", a.loc);
  raise("ValueError", "tuple.index(x): x not in tuple", a.loc);
}

Value count_of(Evaluator& ev, const std::vector<Value>& items, CallArgs& a) {
  expect_args(a, "count", 2, 2);
  int64_t n = 0;
  for (auto& x : items)
    if (ev.eq(x, a.pos[1], a.loc)) n++;
  return Value::integer(n);
}

const Table& list_table() {
  static const Table t = {
      {"append", [](Evaluator&, CallArgs& a) {
         expect_args(a, "list.append", 2, 2);
         items_of(a).push_back(a.pos[1]);
         return Value();
       }},
      {"extend", [](Evaluator& ev, CallArgs& a) {
         expect_args(a, "list.extend", 2, 2);
         auto more = ev.to_vector(a.pos[1], a.loc);
         auto& it = items_of(a);
         it.insert(it.end(), more.begin(), more.end());
         return Value();
       }},
      {"pop", [](Evaluator& ev, CallArgs& a) {
         expect_args(a, "pop", 1, 2);
         auto& it = items_of(a);
         if (it.empty()) raise("IndexError", "pop from empty list", a.loc);
         int64_t k = a.pos.size() == 2 ? arg_int(ev, a.pos[1], "pop", a.loc) : -1;
         if (k < 0) k += (int64_t)it.size();
         if (k < 0 || k >= (int64_t)it.size()) raise("IndexError", "pop index out of range", a.loc);
         Value v = it[(size_t)k];
         it.erase(it.begin() + k);
         return v;
       }},
      {"insert", [](Evaluator& ev, CallArgs& a) {
         expect_args(a, "insert", 3, 3);
         auto& it = items_of(a);
         int64_t n = (int64_t)it.size();
         int64_t k = arg_int(ev, a.pos[1], "insert", a.loc);
         if (k < 0) k = std::max<int64_t>(0, k + n);
         k = std::min(k, n);
         it.insert(it.begin() + k, a.pos[2]);
         return Value();
       }},
      {"remove", [](Evaluator& ev, CallArgs& a) {
         expect_args(a, "list.remove", 2, 2);
         auto& it = items_of(a);
         for (size_t k = 0; k < it.size(); k++)
           if (ev.eq(it[k], a.pos[1], a.loc)) {
             it.erase(it.begin() + (long)k);
             return Value();
           }
         raise("ValueError", "list.remove(x): x not in list", a.loc);
       }},
      {"index", [](Evaluator& ev, CallArgs& a) { return index_of(ev, items_of(a), a, "list"); }},
      {"count", [](Evaluator& ev, CallArgs& a) { return count_of(ev, items_of(a), a); }},
      {"sort", [](Evaluator& ev, CallArgs& a) {
         Value key, rev;
         a.take_kw("key", key);
         a.take_kw("reverse", rev);
         no_kwargs(a, "sort");
         if (a.pos.size() > 1) raise("TypeError", "sort() takes no positional arguments", a.loc);
         sort_values(ev, items_of(a), key, ev.truthy(rev), a.loc);
         return Value();
       }},
      {"reverse", [](Evaluator&, CallArgs& a) {
         std::reverse(items_of(a).begin(), items_of(a).end());
         return Value();
       }},
      {"clear", [](Evaluator&, CallArgs& a) {
         items_of(a).clear();
         return Value();
       }},
      {"copy", [](Evaluator&, CallArgs& a) { return make_list(items_of(a)); }},
      {"__len__", [](Evaluator&, CallArgs& a) { return Value::integer((int64_t)items_of(a).size()); }},
  };
  return t;
}

const Table& tuple_table() {
  static const Table t = {
      {"index", [](Evaluator& ev, CallArgs& a) { return index_of(ev, a.pos[0].as<TupleObj>()->items, a, "tuple"); }},
      {"count", [](Evaluator& ev, CallArgs& a) { return count_of(ev, a.pos[0].as<TupleObj>()->items, a); }},
      {"__len__", [](Evaluator&, CallArgs& a) { return Value::integer((int64_t)a.pos[0].as<TupleObj>()->items.size()); }},
  };
  return t;
}

DictObj* dict_of(CallArgs& a) { return a.pos[0].as<DictObj>(); }

void update_from(Evaluator& ev, DictObj* d, const Value& src, SourceLoc loc) {
  if (src.kind == Kind::Dict) {
    src.as<DictObj>()->each([&](const Value& k, const Value& v) { d->set(k, v); });
    return;
  }
  ev.iterate(src, loc, [&](const Value& pair) {
    auto kv = ev.to_vector(pair, loc);
    if (kv.size() != 2) raise("ValueError", "dictionary update sequence element has length " + std::to_string(kv.size()) + "; 2 is required", loc);
    d->set(kv[0], kv[1], loc);
    return true;
  });
}

const Table& dict_table() {
  static const Table t = {
      {"get", [](Evaluator&, CallArgs& a) {
         expect_args(a, "get", 2, 3);
         Value* v = dict_of(a)->find(a.pos[1], a.loc);
         return v ? *v : (a.pos.size() == 3 ? a.pos[2] : Value());
       }},
      {"keys", [](Evaluator&, CallArgs& a) { return Value::of(std::make_shared<DictView>(DictView::Keys, a.pos[0].ptr<DictObj>())); }},
      {"values", [](Evaluator&, CallArgs& a) { return Value::of(std::make_shared<DictView>(DictView::Values, a.pos[0].ptr<DictObj>())); }},
      {"items", [](Evaluator&, CallArgs& a) { return Value::of(std::make_shared<DictView>(DictView::Items, a.pos[0].ptr<DictObj>())); }},
      {"pop", [](Evaluator& ev, CallArgs& a) {
         expect_args(a, "pop", 2, 3);
         Value out;
         if (dict_of(a)->erase(a.pos[1], &out, a.loc)) return out;
         if (a.pos.size() == 3) return a.pos[2];
         ev.raise_value(ev.make_exception(ev.exception_class("KeyError"), {a.pos[1]}), a.loc);
       }},
      {"popitem", [](Evaluator& ev, CallArgs& a) {
         auto* d = dict_of(a);
         for (size_t k = d->entries.size(); k-- > 0;)
           if (d->entries[k].live) {
             Value key = d->entries[k].key, val = d->entries[k].value;
             d->erase(key);
             return make_tuple({key, val});
           }
         raise("KeyError", "'popitem(): dictionary is empty'", a.loc);
       }},
      {"update", [](Evaluator& ev, CallArgs& a) {
         expect_args(a, "update", 1, 2);
         if (a.pos.size() == 2) update_from(ev, dict_of(a), a.pos[1], a.loc);
         for (auto& [k, v] : a.kw) dict_of(a)->set(Value::str(k), v);
         return Value();
       }},
      {"setdefault", [](Evaluator&, CallArgs& a) {
         expect_args(a, "setdefault", 2, 3);
         if (Value* v = dict_of(a)->find(a.pos[1], a.loc)) return *v;
         Value def = a.pos.size() == 3 ? a.pos[2] : Value();
         dict_of(a)->set(a.pos[1], def, a.loc);
         return def;
       }},
      {"clear", [](Evaluator&, CallArgs& a) {
         dict_of(a)->clear();
         return Value();
       }},
      {"copy", [](Evaluator&, CallArgs& a) {
         auto d = std::make_shared<DictObj>();
         dict_of(a)->each([&](const Value& k, const Value& v) { d->set(k, v); });
         return Value::of(d);
       }},
      {"fromkeys", [](Evaluator& ev, CallArgs& a) {
         // dict.fromkeys(keys, value): called unbound, so pos[0] is the keys.
         expect_args(a, "fromkeys", 1, 2);
         auto d = std::make_shared<DictObj>();
         Value v = a.pos.size() == 2 ? a.pos[1] : Value();
         ev.iterate(a.pos[0], a.loc, [&](const Value& k) { d->set(k, v, a.loc); return true; });
         return Value::of(d);
       }},
      {"__len__", [](Evaluator&, CallArgs& a) { return Value::integer((int64_t)dict_of(a)->size()); }},
  };
  return t;
}

const NativeFn* find_in(const Table& t, const std::string& name) {
  auto it = t.find(name);
  return it == t.end() ? nullptr : &it->second;
}

}  // namespace

const NativeFn* list_method(const std::string& name) { return find_in(list_table(), name); }
const NativeFn* tuple_method(const std::string& name) { return find_in(tuple_table(), name); }
const NativeFn* dict_method(const std::string& name) { return find_in(dict_table(), name); }

}  // namespace kiln::host

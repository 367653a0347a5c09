// The cycle collector (see gc.h): registries, trial deletion, marking from
// the roots, and breaking the garbage's references.
#include "vm/host/gc.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "vm/host/objects.h"

namespace kiln::host {

namespace {

// Collections come after this many new containers at least, and otherwise
// after as many as survived the last one, so that the work per allocation
// stays constant however many objects a program keeps.
constexpr size_t kMinThreshold = 2000;

}  // namespace

thread_local size_t gc_allocations = 0;
thread_local size_t gc_threshold = kMinThreshold;

namespace {

// Weak references: a registry keeps no object alive; dead entries are pruned
// at each collection. The raw pointer names the object while it lives.
struct Registry {
  std::vector<std::pair<const Object*, std::weak_ptr<Object>>> objects;
  std::vector<std::pair<const Env*, std::weak_ptr<Env>>> envs;
  bool collecting = false;
};

Registry& registry() {
  thread_local Registry r;
  return r;
}

struct Node {
  long refs = 0;          // strong count minus the references tracked objects hold
  bool marked = false;    // reachable from a root
  const Object* obj = nullptr;
  const Env* env = nullptr;
};
using Nodes = std::unordered_map<const void*, Node>;

void traverse_object(const Object& o, GcVisitor& v) {
  switch (o.kind) {
    case Kind::Tuple:
      for (auto& x : static_cast<const TupleObj&>(o).items) v.visit(x);
      break;
    case Kind::List:
      for (auto& x : static_cast<const ListObj&>(o).items) v.visit(x);
      break;
    case Kind::Dict:
      static_cast<const DictObj&>(o).each([&](const Value& k, const Value& x) {
        v.visit(k);
        v.visit(x);
      });
      break;
    case Kind::Function: {
      auto& f = static_cast<const FunctionObj&>(o);
      for (auto& x : f.defaults) v.visit(x);
      for (auto& x : f.kw_defaults) v.visit(x);
      if (f.closure) v.visit(f.closure.get());
      for (auto& [k, x] : f.attrs) v.visit(x);
      break;  // owner_class is a weak reference
    }
    case Kind::Class: {
      auto& c = static_cast<const ClassObj&>(o);
      if (c.base) v.visit(static_cast<const Object*>(c.base.get()));
      for (auto& [k, x] : c.attrs) v.visit(x);
      break;
    }
    case Kind::Instance: {
      auto& i = static_cast<const InstanceObj&>(o);
      if (i.cls) v.visit(static_cast<const Object*>(i.cls.get()));
      for (auto& [k, x] : i.attrs) v.visit(x);
      break;
    }
    case Kind::BoundMethod: {
      auto& b = static_cast<const BoundMethodObj&>(o);
      v.visit(b.self);
      v.visit(b.func);
      break;
    }
    case Kind::Module: {
      auto& m = static_cast<const ModuleObj&>(o);
      for (auto& [k, x] : m.attrs) v.visit(x);
      if (m.env) v.visit(m.env.get());
      break;
    }
    case Kind::Host: static_cast<const HostObj&>(o).gc_traverse(v); break;
    default: break;
  }
}

void traverse_env(const Env& e, GcVisitor& v) {
  for (auto& [k, x] : e.vars) v.visit(x);
  if (e.parent) v.visit(e.parent.get());
}

// Drops every reference a garbage object holds; its cycle then frees itself.
void clear_object(Object& o) {
  switch (o.kind) {
    case Kind::Tuple: static_cast<TupleObj&>(o).items.clear(); break;
    case Kind::List: static_cast<ListObj&>(o).items.clear(); break;
    case Kind::Dict: static_cast<DictObj&>(o).clear(); break;
    case Kind::Function: {
      auto& f = static_cast<FunctionObj&>(o);
      f.defaults.clear();
      f.kw_defaults.clear();
      f.closure.reset();
      f.attrs.clear();
      break;
    }
    case Kind::Class: {
      auto& c = static_cast<ClassObj&>(o);
      c.base.reset();
      c.attrs.clear();
      c.ctor = nullptr;
      break;
    }
    case Kind::Instance: {
      auto& i = static_cast<InstanceObj&>(o);
      i.cls.reset();
      i.attrs.clear();
      break;
    }
    case Kind::BoundMethod: {
      auto& b = static_cast<BoundMethodObj&>(o);
      b.self = Value();
      b.func = Value();
      break;
    }
    case Kind::Module: {
      auto& m = static_cast<ModuleObj&>(o);
      m.attrs.clear();
      m.env.reset();
      m.getattr_hook = nullptr;
      break;
    }
    case Kind::Host: static_cast<HostObj&>(o).gc_clear(); break;
    default: break;
  }
}

// Subtracts each reference between tracked objects from its target's count.
struct Subtract : GcVisitor {
  Nodes& nodes;
  explicit Subtract(Nodes& n) : nodes(n) {}
  void hit(const void* p) {
    auto it = nodes.find(p);
    if (it != nodes.end()) --it->second.refs;
  }
  void visit(const Object* o) override { hit(o); }
  void visit(const Env* e) override { hit(e); }
  using GcVisitor::visit;
};

// Marks what a node references, queueing what it marks for the same.
struct Mark : GcVisitor {
  Nodes& nodes;
  std::vector<Node*>& work;
  Mark(Nodes& n, std::vector<Node*>& w) : nodes(n), work(w) {}
  void hit(const void* p) {
    auto it = nodes.find(p);
    if (it != nodes.end() && !it->second.marked) {
      it->second.marked = true;
      work.push_back(&it->second);
    }
  }
  void visit(const Object* o) override { hit(o); }
  void visit(const Env* e) override { hit(e); }
  using GcVisitor::visit;
};

void traverse(const Node& n, GcVisitor& v) {
  if (n.obj) traverse_object(*n.obj, v);
  else traverse_env(*n.env, v);
}

}  // namespace

void gc_track(const std::shared_ptr<Object>& o) {
  o->gc_tracked = true;
  registry().objects.emplace_back(o.get(), o);
  ++gc_allocations;
}

void Env::gc_track_env(const std::shared_ptr<Env>& e) {
  registry().envs.emplace_back(e.get(), e);
  ++gc_allocations;
}

size_t gc_tracked_count() {
  Registry& r = registry();
  size_t n = 0;
  for (auto& [p, w] : r.objects) n += !w.expired();
  for (auto& [p, w] : r.envs) n += !w.expired();
  return n;
}

size_t gc_collect() {
  Registry& r = registry();
  if (r.collecting) return 0;  // clearing garbage never starts another collection
  struct Busy {
    Registry& r;
    explicit Busy(Registry& x) : r(x) { r.collecting = true; }
    ~Busy() { r.collecting = false; }
  } busy(r);
  gc_allocations = 0;

  // 1. The live tracked objects with their strong counts (pruning the dead).
  Nodes nodes;
  nodes.reserve(r.objects.size() + r.envs.size());
  auto prune = [&](auto& list, auto set) {
    size_t k = 0;
    for (size_t i = 0; i < list.size(); ++i) {
      long n = list[i].second.use_count();
      if (n == 0) continue;
      Node& node = nodes[list[i].first];
      node.refs = n;
      set(node, list[i].first);
      if (k != i) list[k] = std::move(list[i]);  // (a self-move would empty a weak_ptr)
      ++k;
    }
    list.resize(k);
  };
  prune(r.objects, [](Node& n, const Object* p) { n.obj = p; });
  prune(r.envs, [](Node& n, const Env* p) { n.env = p; });

  // 2. Trial deletion: what tracked objects hold does not keep anything alive.
  Subtract sub(nodes);
  for (auto& [p, n] : nodes) traverse(n, sub);

  // 3. Roots (referenced from outside) and all they reach live.
  std::vector<Node*> work;
  for (auto& [p, n] : nodes)
    if (n.refs > 0) {
      n.marked = true;
      work.push_back(&n);
    }
  Mark mark(nodes, work);
  while (!work.empty()) {
    Node* n = work.back();
    work.pop_back();
    traverse(*n, mark);
  }

  // 4. The rest is garbage: hold it, break its references, let it go.
  std::vector<std::shared_ptr<Object>> dead_objects;
  std::vector<std::shared_ptr<Env>> dead_envs;
  for (auto& [p, w] : r.objects)
    if (!nodes[p].marked) dead_objects.push_back(w.lock());
  for (auto& [p, w] : r.envs)
    if (!nodes[p].marked) dead_envs.push_back(w.lock());
  size_t live = nodes.size() - dead_objects.size() - dead_envs.size();
  nodes.clear();
  for (auto& o : dead_objects) clear_object(*o);
  for (auto& e : dead_envs) {
    e->vars.clear();
    e->parent.reset();
  }
  size_t freed = dead_objects.size() + dead_envs.size();
  dead_objects.clear();
  dead_envs.clear();

  gc_threshold = std::max(kMinThreshold, live);
  gc_allocations = 0;
  return freed;
}

}  // namespace kiln::host

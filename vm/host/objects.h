// Heap objects of the host evaluator beyond plain containers: environments,
// functions, classes, instances, modules, native functions.
#pragma once
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "vm/host/value.h"
#include "vm/lang/ast.h"

namespace kiln::host {

class Evaluator;
struct ClassObj;

// Which names a function (or lambda, or comprehension) binds locally, decided
// once from its body as CPython's compiler does: any assignment makes a name
// local unless declared global/nonlocal.
struct ScopeInfo {
  std::unordered_set<std::string> locals;
  std::unordered_set<std::string> globals;
  std::unordered_set<std::string> nonlocals;
};

// A scope at run time. Module scope has no parent; function scopes chain to
// the scope they were defined in (closures); class bodies are scopes that
// functions defined inside them skip, as in Python.
struct Env : std::enable_shared_from_this<Env> {
  enum class Type : uint8_t { Module, Function, Class, Comprehension };
  Type type = Type::Module;
  std::unordered_map<std::string, Value> vars;
  std::shared_ptr<Env> parent;      // enclosing scope (null for modules)
  Env* module = nullptr;            // the module scope (itself for a module)
  const ScopeInfo* scope = nullptr; // Function/Comprehension: which names are local
  std::string module_name;          // Module: "__main__"
  std::string class_name;           // Class: the class being defined (for qualnames)

  // Module scopes pass module = null (they are their own module).
  static std::shared_ptr<Env> make(Type t, std::shared_ptr<Env> parent, Env* module) {
    auto e = std::make_shared<Env>();
    e->type = t;
    e->parent = std::move(parent);
    e->module = module ? module : e.get();
    gc_track_env(e);
    return e;
  }
  static void gc_track_env(const std::shared_ptr<Env>& e);  // gc.cpp
};

// Arguments of a call, evaluated.
struct CallArgs {
  std::vector<Value> pos;
  std::vector<std::pair<std::string, Value>> kw;
  SourceLoc loc;

  // Takes keyword `name` out of kw if present.
  bool take_kw(const std::string& name, Value& out);
};

using NativeFn = std::function<Value(Evaluator&, CallArgs&)>;

struct BuiltinObj : Object {
  std::string name;  // "print", "math.sqrt", "ti.sqrt", "list.append"
  NativeFn fn;
  BuiltinObj(std::string n, NativeFn f) : Object(Kind::Builtin), name(std::move(n)), fn(std::move(f)) {}
};

struct FunctionObj : Object {
  std::string name;                      // "f", "<lambda>"
  std::string qualname;                  // "Sim.step"
  const ast::Arguments* args = nullptr;
  const ast::Body* body = nullptr;       // def
  const ast::Expr* lambda_body = nullptr;  // lambda
  const ast::FunctionDef* def = nullptr;   // def (null for lambdas)
  std::vector<Value> defaults;           // for the last defaults.size() positional args
  std::vector<Value> kw_defaults;        // per kwonly arg; `has_kw_default` says which are set
  std::vector<bool> has_kw_default;
  std::shared_ptr<Env> closure;          // the scope it was defined in (class scopes skipped)
  const ScopeInfo* scope = nullptr;
  std::unordered_map<std::string, Value> attrs;  // user-set attributes
  std::weak_ptr<ClassObj> owner_class;   // the class whose body defined it (zero-arg super())
  bool in_class_body = false;            // a method (kernels: `self` is an implicit template)
  FunctionObj() : Object(Kind::Function) {}
};

struct ClassObj : Object {
  std::string name;
  std::shared_ptr<ClassObj> base;        // single inheritance
  std::unordered_map<std::string, Value> attrs;
  std::vector<std::string> attr_order;   // definition order (for dir-like walks)
  // Builtin types (int, float, str, list, ...): the Kind of their instances and
  // a native constructor. Kind::None with no ctor means a user class.
  bool builtin_type = false;
  Kind instance_kind = Kind::None;
  NativeFn ctor;
  bool is_exception = false;             // derives from BaseException
  bool native = false;                   // defined by the VM (repr: <class 'int'>, not '__main__.X')

  ClassObj() : Object(Kind::Class) {}
  // Looks `key` up along the base chain; null when absent.
  const Value* find(const std::string& key) const;
  bool is_subclass_of(const ClassObj* other) const;
};

struct InstanceObj : Object {
  std::shared_ptr<ClassObj> cls;
  std::unordered_map<std::string, Value> attrs;
  // Exceptions: the traceback collected while it propagated, and its cause.
  std::vector<TraceFrame> traceback;
  SourceLoc raise_loc;
  InstanceObj() : Object(Kind::Instance) {}
};

struct BoundMethodObj : Object {
  Value self;
  Value func;
  BoundMethodObj(Value s, Value f) : Object(Kind::BoundMethod), self(std::move(s)), func(std::move(f)) {}
};

struct ModuleObj : Object {
  std::string name;
  std::unordered_map<std::string, Value> attrs;
  std::shared_ptr<Env> env;              // user modules: their globals
  // Attributes computed on access (ti.root depends on the current Program).
  std::function<bool(Evaluator&, const std::string&, Value&)> getattr_hook;
  ModuleObj() : Object(Kind::Module) {}
};

// Kiln's own objects (fields, kernels, dtypes, ...; see ti_objects.h). The
// evaluator reaches them only through these hooks; each returns false (or
// callable() says no) for operations the object does not support.
struct HostObj : Object {
  HostObj() : Object(Kind::Host) {}
  // Host objects that hold Values (a kernel its def, a vector its elements)
  // take part in cycle collection: they set gc_container in their
  // constructor and report and drop those Values here.
  virtual void gc_traverse(GcVisitor&) const {}
  virtual void gc_clear() {}
  virtual std::string type_name() const = 0;
  virtual std::string repr(Evaluator& ev) const = 0;
  virtual std::string str(Evaluator& ev) { return repr(ev); }
  // Value semantics for objects that have them (x.dtype == ti.f32).
  virtual bool equals(const HostObj& other) const { return this == &other; }
  virtual uint64_t hash() const { return (uint64_t)(uintptr_t)this; }
  virtual bool callable() const { return false; }
  // Class attributes that bind `self` when read through an instance (kernels).
  virtual bool binds_as_method() const { return false; }
  virtual Value call(Evaluator& ev, const Value& self, CallArgs& a);
  virtual bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc loc, Value& out) {
    return false;
  }
  virtual bool set_attr(Evaluator& ev, const std::string& name, const Value& v, SourceLoc loc) { return false; }
  virtual bool get_item(Evaluator& ev, const Value& key, SourceLoc loc, Value& out) { return false; }
  virtual bool set_item(Evaluator& ev, const Value& key, const Value& v, SourceLoc loc) { return false; }
  // Iterable host objects (ti.ndrange used on the host) give an equivalent list or iterator.
  virtual bool as_iterable(Evaluator& ev, SourceLoc loc, Value& out) { return false; }
};

// A Python exception in flight. Errors raised by native code and by lower
// layers are plain kiln::Errors (kind + message); an except clause turns them
// into exception instances when it needs one. PyError carries an instance made
// by the user (`raise MyError(...)`) so that except clauses and `as e` see it.
struct PyError : Error {
  Value exc;  // an InstanceObj of an exception class
  PyError(std::string kind, std::string message, SourceLoc loc, Value e)
      : Error(std::move(kind), std::move(message), loc), exc(std::move(e)) {}
};

inline Value make_builtin(std::string name, NativeFn fn) {
  return Value::of(std::make_shared<BuiltinObj>(std::move(name), std::move(fn)));
}

}  // namespace kiln::host

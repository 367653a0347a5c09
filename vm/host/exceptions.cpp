// Python's builtin exception classes and the bridge between exception
// instances (what `except E as e` sees) and kiln::Error (what propagates
// through C++ and what users see printed).
#include "vm/host/evaluator.h"

namespace kiln::host {

namespace {

// (name, base) in an order where every base comes first.
const char* const kHierarchy[][2] = {
    {"BaseException", nullptr},
    {"SystemExit", "BaseException"},
    {"KeyboardInterrupt", "BaseException"},
    {"GeneratorExit", "BaseException"},
    {"Exception", "BaseException"},
    {"ArithmeticError", "Exception"},
    {"FloatingPointError", "ArithmeticError"},
    {"OverflowError", "ArithmeticError"},
    {"ZeroDivisionError", "ArithmeticError"},
    {"AssertionError", "Exception"},
    {"AttributeError", "Exception"},
    {"BufferError", "Exception"},
    {"EOFError", "Exception"},
    {"ImportError", "Exception"},
    {"ModuleNotFoundError", "ImportError"},
    {"LookupError", "Exception"},
    {"IndexError", "LookupError"},
    {"KeyError", "LookupError"},
    {"MemoryError", "Exception"},
    {"NameError", "Exception"},
    {"UnboundLocalError", "NameError"},
    {"OSError", "Exception"},
    {"FileNotFoundError", "OSError"},
    {"FileExistsError", "OSError"},
    {"PermissionError", "OSError"},
    {"RuntimeError", "Exception"},
    {"NotImplementedError", "RuntimeError"},
    {"RecursionError", "RuntimeError"},
    {"StopIteration", "Exception"},
    {"SyntaxError", "Exception"},
    {"IndentationError", "SyntaxError"},
    {"TabError", "IndentationError"},
    {"SystemError", "Exception"},
    {"TypeError", "Exception"},
    {"ValueError", "Exception"},
    {"UnicodeError", "ValueError"},
    {"Warning", "Exception"},
    {"UserWarning", "Warning"},
    {"DeprecationWarning", "Warning"},
    {"RuntimeWarning", "Warning"},
};

std::shared_ptr<ClassObj> new_exception_class(const std::string& name, std::shared_ptr<ClassObj> base) {
  auto c = std::make_shared<ClassObj>();
  c->name = name;
  c->base = std::move(base);
  c->is_exception = true;
  c->native = true;
  return c;
}

}  // namespace

void install_exceptions(Evaluator& ev) {
  for (auto& [name, base] : kHierarchy) {
    auto c = new_exception_class(name, base ? ev.exc_classes.at(base) : nullptr);
    ev.exc_classes[name] = c;
    ev.builtins[name] = Value::of(c);
  }
  // BaseException.__init__ stores its arguments; SystemExit also keeps `code`.
  ev.exc_classes["BaseException"]->attrs["__init__"] = make_builtin("BaseException.__init__", [](Evaluator& ev, CallArgs& a) {
    if (a.pos.empty() || a.pos[0].kind != Kind::Instance || !a.pos[0].as<InstanceObj>()->cls->is_exception)
      raise("TypeError", "descriptor '__init__' of 'BaseException' object needs an argument", a.loc);
    auto* self = a.pos[0].as<InstanceObj>();
    std::vector<Value> args(a.pos.begin() + 1, a.pos.end());
    self->attrs["args"] = make_tuple(args);
    if (self->cls->is_subclass_of(ev.exc_classes["SystemExit"].get()))
      self->attrs["code"] = args.empty() ? Value() : args.size() == 1 ? args[0] : make_tuple(args);
    return Value();
  });
  ev.builtins["EnvironmentError"] = ev.builtins["OSError"];
  ev.builtins["IOError"] = ev.builtins["OSError"];
}

std::shared_ptr<ClassObj> Evaluator::exception_class(const std::string& name) {
  auto it = exc_classes.find(name);
  if (it != exc_classes.end()) return it->second;
  auto c = new_exception_class(name, exc_classes.at("Exception"));
  exc_classes[name] = c;
  return c;
}

Value Evaluator::make_exception(const std::shared_ptr<ClassObj>& cls, std::vector<Value> args) {
  auto inst = std::make_shared<InstanceObj>();
  inst->cls = cls;
  if (cls->is_subclass_of(exc_classes["SystemExit"].get()))
    inst->attrs["code"] = args.empty() ? Value() : args.size() == 1 ? args[0] : make_tuple(args);
  inst->attrs["args"] = make_tuple(std::move(args));
  return Value::of(inst);
}

Value Evaluator::exception_value(const Error& e) {
  if (auto* pe = dynamic_cast<const PyError*>(&e)) return pe->exc;
  std::vector<Value> args;
  if (!e.message.empty()) args.push_back(Value::str(e.message));
  Value v = make_exception(exception_class(e.kind), std::move(args));
  v.as<InstanceObj>()->raise_loc = e.loc;
  return v;
}

void Evaluator::raise_value(const Value& exc, SourceLoc loc) {
  if (exc.kind != Kind::Instance || !exc.as<InstanceObj>()->cls->is_exception)
    raise("TypeError", "exceptions must derive from BaseException", loc);
  auto* inst = exc.as<InstanceObj>();
  throw PyError(inst->cls->name, str(exc), loc, exc);
}

}  // namespace kiln::host

// The evaluator's setup (builtins, types, modules) and module imports.
#include "vm/host/evaluator.h"

#include <cstdio>

#include "vm/host/ti_state.h"

namespace kiln::host {

Evaluator::Evaluator() {
  out = [](std::string_view s) { std::fwrite(s.data(), 1, s.size(), stdout); };
  err = [](std::string_view s) {
    std::fflush(stdout);  // keep stdout and stderr in program order on a terminal
    std::fwrite(s.data(), 1, s.size(), stderr);
  };
  install_types(*this);
  install_exceptions(*this);
  install_builtins(*this);
  install_module_math(*this);
  install_module_sys_time(*this);
  install_module_random(*this);
  install_module_ti(*this);
  install_module_numpy(*this);
  main_env = Env::make(Env::Type::Module, nullptr, nullptr);
  main_env->module_name = "__main__";
  main_env->vars["__name__"] = Value::str("__main__");
}

Evaluator::~Evaluator() = default;

Value Evaluator::import_module(const std::string& name, SourceLoc loc) {
  auto it = loaded_modules.find(name);
  if (it != loaded_modules.end()) return it->second;
  auto f = module_factories.find(name);
  if (f != module_factories.end()) {
    Value m = f->second(*this);
    loaded_modules[name] = m;
    return m;
  }
  // a.b.c: a submodule exposed as an attribute of its parent module.
  size_t dot = name.rfind('.');
  if (dot != std::string::npos) {
    Value parent = import_module(name.substr(0, dot), loc);
    Value sub;
    if (try_get_attr(parent, name.substr(dot + 1), loc, sub) && sub.kind == Kind::Module) {
      loaded_modules[name] = sub;
      return sub;
    }
  }
  raise_value(make_exception(exception_class("ModuleNotFoundError"), {Value::str("No module named '" + name + "'")}), loc);
}

}  // namespace kiln::host

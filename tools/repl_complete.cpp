// Tab completion for the REPL. Names come from the session's globals, the
// builtins and Python's keywords; `a.b.c` resolves `a.b` by looking names and
// attributes up (never by calling anything: completing must not run user
// code) and lists the attributes of the result.
#include <algorithm>
#include <cctype>
#include <set>

#include "tools/repl.h"
#include "vm/host/evaluator.h"
#include "vm/host/ti_objects.h"
#include "vm/host/ti_state.h"

namespace kiln::repl {

namespace {

using host::Kind;
using host::Value;

const char* const kKeywords[] = {"False", "None",   "True",    "and",    "as",       "assert", "break",
                                 "class", "continue", "def",   "del",    "elif",     "else",   "except",
                                 "finally", "for",  "from",    "global", "if",       "import", "in",
                                 "is",    "lambda", "nonlocal", "not",   "or",       "pass",   "raise",
                                 "return", "try",   "while",   "with",   "yield"};

// Methods of builtin types and attributes of Kiln objects, probed one by one
// (neither kind of object can list its attributes): a candidate survives when
// the object has it.
const char* const kProbes[] = {
    // str, list, tuple, dict, int, float
    "append", "capitalize", "center", "clear", "copy", "count", "endswith", "extend", "find", "format", "get",
    "index", "insert", "isalnum", "isalpha", "isdigit", "islower", "isspace", "isupper", "items", "join", "keys",
    "ljust", "lower", "lstrip", "partition", "pop", "popitem", "remove", "replace", "reverse", "rfind", "rindex",
    "rjust", "rsplit", "rstrip", "setdefault", "sort", "split", "splitlines", "startswith", "strip", "swapcase",
    "title", "update", "upper", "values", "zfill", "bit_length", "conjugate", "real", "imag", "is_integer",
    "as_integer_ratio", "hex", "fromhex", "denominator", "numerator",
    // fields, SNodes, kernels, dtypes, ndarrays
    "shape", "dtype", "name", "snode", "fill", "parent", "to_list", "to_numpy", "from_numpy", "copy_from",
    "to_torch", "from_torch", "dense", "pointer", "bitmasked", "dynamic", "place", "lazy_grad", "id", "n", "m",
    "grad", "deactivate_all", "get_shape", "ndim", "element_type", "field"};

// A name in the session: globals first, then builtins.
bool lookup(host::Evaluator& ev, const std::string& name, Value& out) {
  auto it = ev.main_env->vars.find(name);
  if (it != ev.main_env->vars.end()) {
    out = it->second;
    return true;
  }
  auto b = ev.builtins.find(name);
  if (b != ev.builtins.end()) {
    out = b->second;
    return true;
  }
  return false;
}

// An attribute without side effects worth worrying about: dictionaries of
// modules, classes and instances directly; Kiln objects through their own
// get_attr (which only builds views such as field.shape or ti.root).
bool attribute(host::Evaluator& ev, const Value& obj, const std::string& name, Value& out) {
  try {
    switch (obj.kind) {
      case Kind::Module: {
        auto* m = obj.as<host::ModuleObj>();
        if (m->env) {
          auto it = m->env->vars.find(name);
          if (it != m->env->vars.end()) return (out = it->second), true;
        }
        auto it = m->attrs.find(name);
        if (it != m->attrs.end()) return (out = it->second), true;
        return m->getattr_hook && m->getattr_hook(ev, name, out);
      }
      case Kind::Class:
        if (const Value* v = obj.as<host::ClassObj>()->find(name)) return (out = *v), true;
        return false;
      case Kind::Instance: {
        auto* inst = obj.as<host::InstanceObj>();
        auto it = inst->attrs.find(name);
        if (it != inst->attrs.end()) return (out = it->second), true;
        if (const Value* v = inst->cls->find(name)) return (out = *v), true;
        return false;
      }
      case Kind::Host: return obj.as<host::HostObj>()->get_attr(ev, obj, name, {}, out);
      default: return false;
    }
  } catch (const Error&) {
    return false;  // an attribute that cannot be computed now is not offered
  }
}

void class_names(const host::ClassObj* c, std::set<std::string>& out) {
  for (; c; c = c->base.get())
    for (auto& [k, v] : c->attrs) out.insert(k);
}

// Every attribute name of `obj` that completion can know.
std::set<std::string> attribute_names(host::Evaluator& ev, const Value& obj) {
  std::set<std::string> names;
  switch (obj.kind) {
    case Kind::Module: {
      auto* m = obj.as<host::ModuleObj>();
      for (auto& [k, v] : m->attrs) names.insert(k);
      if (m->env)
        for (auto& [k, v] : m->env->vars) names.insert(k);
      if (m->getattr_hook) names.insert("root");  // ti.root: the module's one computed attribute
      return names;
    }
    case Kind::Class: class_names(obj.as<host::ClassObj>(), names); return names;
    case Kind::Instance: {
      auto* inst = obj.as<host::InstanceObj>();
      for (auto& [k, v] : inst->attrs) names.insert(k);
      class_names(inst->cls.get(), names);
      return names;
    }
    case Kind::Function:
      for (auto& [k, v] : obj.as<host::FunctionObj>()->attrs) names.insert(k);
      return names;
    case Kind::Host: {
      Value ignored;
      for (const char* p : kProbes)
        if (attribute(ev, obj, p, ignored)) names.insert(p);
      return names;
    }
    default:
      for (const char* p : kProbes)
        if (host::builtin_method(obj.kind, p)) names.insert(p);
      return names;
  }
}

bool is_kernel(const Value& v) {
  if (v.kind != Kind::Host) return false;
  auto* k = dynamic_cast<host::KernelObj*>(v.as<host::HostObj>());
  return k && !k->is_func;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

}  // namespace

std::vector<std::string> complete(Host& h, std::string_view before, std::string_view word) {
  host::Evaluator& ev = *h.ev;
  std::set<std::string> out;
  size_t lead = before.find_first_not_of(" \t");
  std::string_view cmd = lead == std::string_view::npos ? std::string_view{} : before.substr(lead);

  // ---- commands: ":ti<TAB>", ":ir <TAB>"
  if (cmd.empty() && starts_with(word, ":")) {
    for (auto& c : commands())
      if (starts_with(c.name, word)) out.insert(c.name);
    return {out.begin(), out.end()};
  }
  if (starts_with(cmd, ":ir ") || starts_with(cmd, ":bc ")) {
    for (auto& k : compiled_kernels(h))
      if (starts_with(k.name, word)) out.insert(k.name);
    for (auto& [name, v] : ev.main_env->vars)
      if (is_kernel(v) && starts_with(name, word)) out.insert(name);
    return {out.begin(), out.end()};
  }
  if (starts_with(cmd, ":") && !starts_with(cmd, ":time ")) return {};  // :load completes file names (repl.cpp)

  // ---- attributes: "a.b.pre"
  size_t dot = word.rfind('.');
  if (dot != std::string_view::npos) {
    std::string path(word.substr(0, dot));
    std::string_view part = word.substr(dot + 1);
    Value obj;
    size_t start = 0;
    bool ok = true;
    for (bool first = true; ok; first = false) {
      size_t end = path.find('.', start);
      std::string name = path.substr(start, end == std::string::npos ? std::string::npos : end - start);
      if (name.empty() || !(std::isalpha((unsigned char)name[0]) || name[0] == '_')) return {};
      ok = first ? lookup(ev, name, obj) : attribute(ev, obj, name, obj);
      if (end == std::string::npos) break;
      start = end + 1;
    }
    if (!ok) return {};
    for (auto& n : attribute_names(ev, obj)) {
      if (!starts_with(n, part)) continue;
      if (n[0] == '_' && !starts_with(part, "_")) continue;
      out.insert(path + "." + n);
    }
    return {out.begin(), out.end()};
  }

  // ---- names
  auto offer = [&](const std::string& n) {
    if (!starts_with(n, word)) return;
    if (n[0] == '_' && !starts_with(word, "_")) return;
    out.insert(n);
  };
  for (auto& [n, v] : ev.main_env->vars) offer(n);
  for (auto& [n, v] : ev.builtins) offer(n);
  for (const char* k : kKeywords) offer(k);
  return {out.begin(), out.end()};
}

}  // namespace kiln::repl

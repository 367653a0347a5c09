// The host evaluator: a tree-walking interpreter for module top level and
// plain `def`s (LANGUAGE.md, "Two scopes"). Kernel bodies never run here;
// calling a kernel hands its AST to the frontend (ti_kernel.cpp).
//
// The evaluator's work is split by idea over several files:
//   eval_expr.cpp   expressions, names, comprehensions, f-strings
//   eval_stmt.cpp   statements, assignment targets, try/except, imports
//   operators.cpp   binary/unary operators and comparisons
//   call.cpp        calling functions, classes, methods; argument binding
//   attrs.cpp       attribute and item access
//   scope.cpp       which names a function binds locally
//   repr.cpp        repr()/str()/format()
//   builtins.cpp, methods_*.cpp, exceptions.cpp, module_*.cpp
#pragma once
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "vm/host/objects.h"
#include "vm/host/value.h"
#include "vm/lang/ast.h"

namespace kiln::host {

enum class Flow : uint8_t { Normal, Break, Continue, Return };

// One host call frame, for tracebacks and zero-argument super().
struct Frame {
  std::string name;                 // "<module>", "f", "Sim.step"
  SourceLoc cur;                    // the statement running in this frame
  Value ret;                        // the value of `return`
  const FunctionObj* fn = nullptr;
  Env* env = nullptr;
};

struct TiState;  // the `ti` module's state (module_ti.h)

class Evaluator {
 public:
  Evaluator();
  ~Evaluator();
  Evaluator(const Evaluator&) = delete;
  Evaluator& operator=(const Evaluator&) = delete;

  // ---- output: host print and kernel print share one ordered stream ----
  std::function<void(std::string_view)> out;
  std::function<void(std::string_view)> err;
  std::vector<std::string> argv;

  // ---- sessions -----------------------------------------------------------
  SourceSet sources;
  std::vector<std::unique_ptr<ast::Module>> asts;  // kept alive: kernels compile from them lazily
  std::shared_ptr<Env> main_env;
  // Runs a parsed module in `env`; uncaught exceptions propagate as kiln::Error
  // with the <module> frame added to their traceback.
  void run_module(const ast::Module& m, const std::shared_ptr<Env>& env);

  // ---- builtins, types, modules --------------------------------------------
  std::unordered_map<std::string, Value> builtins;
  std::unordered_map<std::string, Value> loaded_modules;
  std::unordered_map<std::string, std::function<Value(Evaluator&)>> module_factories;
  std::shared_ptr<ClassObj> type_classes[(int)Kind::Host + 1];  // int, float, str, ...
  std::unordered_map<std::string, std::shared_ptr<ClassObj>> exc_classes;
  std::unique_ptr<TiState> ti;

  // The builtin exception class called `name`; kinds reported by lower layers
  // that Python lacks ("InternalError", "TaichiSyntaxError") become new
  // subclasses of Exception on first use.
  std::shared_ptr<ClassObj> exception_class(const std::string& name);
  // The class object of a value (type(x)).
  Value type_of(const Value& v);
  std::string type_name(const Value& v);
  Value import_module(const std::string& name, SourceLoc loc);

  // ---- evaluation ----------------------------------------------------------
  Value eval(const ast::Expr* e, Env& env);
  Flow exec(const ast::Stmt* s, Env& env);
  Flow exec_block(const ast::Body& b, Env& env);
  void assign(const ast::Expr* target, const Value& v, Env& env);

  Value* lookup(Env& env, const std::string& name);       // null if undefined
  Value load_name(Env& env, const std::string& name, SourceLoc loc);
  void store_name(Env& env, const std::string& name, Value v);
  void delete_name(Env& env, const std::string& name, SourceLoc loc);
  const ScopeInfo* scope_of(const ast::Node* fn_or_lambda);

  // ---- object protocol -----------------------------------------------------
  Value call(const Value& fn, CallArgs& args);
  Value call(const Value& fn, std::vector<Value> args, SourceLoc loc);
  Value get_attr(const Value& obj, const std::string& name, SourceLoc loc);
  bool try_get_attr(const Value& obj, const std::string& name, SourceLoc loc, Value& out);
  void set_attr(const Value& obj, const std::string& name, Value v, SourceLoc loc);
  void del_attr(const Value& obj, const std::string& name, SourceLoc loc);
  Value get_item(const Value& obj, const Value& key, SourceLoc loc);
  void set_item(const Value& obj, const Value& key, Value v, SourceLoc loc);
  void del_item(const Value& obj, const Value& key, SourceLoc loc);

  Value binop(ast::BinOpKind op, const Value& a, const Value& b, SourceLoc loc);
  Value unop(ast::UnaryOpKind op, const Value& a, SourceLoc loc);
  bool compare(ast::CmpOpKind op, const Value& a, const Value& b, SourceLoc loc);
  bool eq(const Value& a, const Value& b, SourceLoc loc = {});
  bool less(const Value& a, const Value& b, SourceLoc loc);
  bool contains(const Value& container, const Value& item, SourceLoc loc);
  bool truthy(const Value& v, SourceLoc loc = {});
  int64_t len(const Value& v, SourceLoc loc);

  // Iterates any iterable; fn returns false to stop early.
  void iterate(const Value& v, SourceLoc loc, const std::function<bool(const Value&)>& fn);
  std::vector<Value> to_vector(const Value& v, SourceLoc loc);
  Value make_iterator(const Value& v, SourceLoc loc);

  std::string repr(const Value& v);
  std::string str(const Value& v);
  std::string format(const Value& v, std::string_view spec, SourceLoc loc);
  bool isinstance(const Value& v, const Value& cls, SourceLoc loc);

  // Exceptions: builds an exception instance of class `cls` with args.
  Value make_exception(const std::shared_ptr<ClassObj>& cls, std::vector<Value> args);
  // The exception instance for an error in flight (made from kind/message for
  // errors raised by native code).
  Value exception_value(const Error& e);
  // Throws `exc` (an exception instance or class) as a PyError.
  [[noreturn]] void raise_value(const Value& exc, SourceLoc loc);

  // ---- call frames -----------------------------------------------------------
  std::vector<Frame> frames;
  // The debugger's hook (vm/debug): called before each statement runs.
  std::function<void(const ast::Stmt*, Env&)> on_stmt;
  std::vector<std::exception_ptr> handling;  // exceptions being handled (bare `raise`)
  int max_depth = 1000;
  // The C++ stack is the real limit of a tree-walker: deep recursion raises
  // RecursionError before it can overflow (set by host.cpp when a run starts).
  const char* stack_base = nullptr;
  size_t stack_budget = 0;
  void check_stack(SourceLoc loc) {
    const char* here = (const char*)__builtin_frame_address(0);
    if (stack_base && stack_base > here && (size_t)(stack_base - here) > stack_budget)
      raise("RecursionError", "maximum recursion depth exceeded", loc);
  }
  // Ctrl-C: set by kiln::request_interrupt (from a SIGINT handler); host
  // for/while loops poll it each iteration and raise KeyboardInterrupt once.
  std::atomic<bool> interrupt_requested{false};
  void check_interrupt(SourceLoc loc) {
    if (interrupt_requested.load(std::memory_order_relaxed) && interrupt_requested.exchange(false))
      raise("KeyboardInterrupt", "interrupted (Ctrl-C)", loc);
  }
  std::vector<const Object*> repr_active;    // containers being repr'd (prints [...] on cycles)
  Frame& frame() { return frames.back(); }

  // Registration helpers for builtin modules.
  void def_builtin(const std::string& name, NativeFn fn);

 private:
  std::unordered_map<const ast::Node*, std::unique_ptr<ScopeInfo>> scopes_;
  friend struct EvalAccess;
};

// A function object for a def/lambda with `args`, defaults evaluated in `env`.
Value make_function(Evaluator& ev, const ast::Arguments& args, Env& env, std::string name);

// float -> int truncation with Python's errors (NaN: ValueError, inf: OverflowError).
int64_t float_to_int(double d, SourceLoc loc);
// float(str) parsing with Python's syntax and error message.
double parse_float(const std::string& text, SourceLoc loc);
// Sorts `items` with Python's semantics (stable; key; reverse keeps stability).
void sort_values(Evaluator& ev, std::vector<Value>& items, const Value& key, bool reverse, SourceLoc loc);

// printf-style `fmt % args` (str.__mod__).
std::string percent_format(Evaluator& ev, const std::string& fmt, const Value& args, SourceLoc loc);

// Argument helpers for native functions: arity and type checks with Python's messages.
void expect_args(const CallArgs& a, const char* fname, size_t min, size_t max);
void no_kwargs(const CallArgs& a, const char* fname);
int64_t arg_int(Evaluator& ev, const Value& v, const char* fname, SourceLoc loc);
double arg_float(Evaluator& ev, const Value& v, const char* fname, SourceLoc loc);
// A `shape=` argument: an int, or a tuple/list of ints (TypeError otherwise).
// The values are not checked here: the runtime's size rules do (vm/runtime/sizes.h).
std::vector<int64_t> arg_shape(Evaluator& ev, const Value& v, const char* what, SourceLoc loc);

// Installs the Python builtins (builtins.cpp), builtin types (types.cpp),
// exception classes (exceptions.cpp) and module factories (module_*.cpp).
void install_builtins(Evaluator& ev);
void install_types(Evaluator& ev);
void install_builtins_numeric(Evaluator& ev);
void install_exceptions(Evaluator& ev);
void install_module_math(Evaluator& ev);
void install_module_sys_time(Evaluator& ev);
void install_module_random(Evaluator& ev);
void install_module_ti(Evaluator& ev);
void install_module_numpy(Evaluator& ev);

// Methods of builtin types (methods_str.cpp, methods_list_dict.cpp): the
// native function for `obj.name`, or null.
const NativeFn* builtin_method(Kind k, const std::string& name);

}  // namespace kiln::host

// The `sys` and `time` modules.
#include <chrono>
#include <thread>

#include "vm/host/evaluator.h"

namespace kiln::host {

namespace {

// sys.stdout / sys.stderr: write() goes to the host's ordered output sinks.
struct TextStream : HostObj {
  bool is_err;
  explicit TextStream(bool e) : is_err(e) {}
  std::string type_name() const override { return "TextIOWrapper"; }
  std::string repr(Evaluator&) const override {
    return std::string("<_io.TextIOWrapper name='<") + (is_err ? "stderr" : "stdout") + ">' mode='w' encoding='utf-8'>";
  }
  bool get_attr(Evaluator& ev, const Value& self, const std::string& name, SourceLoc, Value& out) override {
    bool err = is_err;
    if (name == "write") {
      out = make_builtin("write", [err](Evaluator& ev, CallArgs& a) {
        expect_args(a, "write", 1, 1);
        if (a.pos[0].kind != Kind::Str)
          raise("TypeError", "write() argument must be str, not " + ev.type_name(a.pos[0]), a.loc);
        (err ? ev.err : ev.out)(str_of(a.pos[0]));
        return Value::integer((int64_t)str_of(a.pos[0]).size());
      });
      return true;
    }
    if (name == "flush") {
      out = make_builtin("flush", [](Evaluator&, CallArgs&) { return Value(); });
      return true;
    }
    return false;
  }
};

double seconds_since_epoch() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

static Value make_sys(Evaluator& ev) {
  auto m = std::make_shared<ModuleObj>();
  m->name = "sys";
  std::vector<Value> argv;
  for (auto& a : ev.argv) argv.push_back(Value::str(a));
  if (argv.empty()) argv.push_back(Value::str(""));
  m->attrs["argv"] = make_list(std::move(argv));
  m->attrs["stdout"] = Value::of(std::make_shared<TextStream>(false));
  m->attrs["stderr"] = Value::of(std::make_shared<TextStream>(true));
  m->attrs["platform"] = Value::str("linux");
  m->attrs["version"] = Value::str("3.11.7 (Kiln)");
  m->attrs["maxsize"] = Value::integer(INT64_MAX);
  m->attrs["path"] = make_list({});
  m->attrs["exit"] = make_builtin("sys.exit", [](Evaluator& ev, CallArgs& a) -> Value {
    expect_args(a, "exit", 0, 1);
    ev.raise_value(ev.make_exception(ev.exception_class("SystemExit"), a.pos), a.loc);
  });
  m->attrs["getrecursionlimit"] = make_builtin("sys.getrecursionlimit", [](Evaluator& ev, CallArgs&) {
    return Value::integer(ev.max_depth);
  });
  m->attrs["setrecursionlimit"] = make_builtin("sys.setrecursionlimit", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "setrecursionlimit", 1, 1);
    int64_t n = arg_int(ev, a.pos[0], "setrecursionlimit", a.loc);
    if (n < 1) raise("ValueError", "recursion limit must be greater or equal than 1", a.loc);
    // The evaluator recurses on the C++ stack; beyond a few thousand frames
    // it would overflow it, so the limit is capped.
    ev.max_depth = (int)std::min<int64_t>(n, 4000);
    return Value();
  });
  return Value::of(m);
}

static Value make_time(Evaluator& ev) {
  auto m = std::make_shared<ModuleObj>();
  m->name = "time";
  auto def = [&](const char* name, NativeFn fn) { m->attrs[name] = make_builtin(std::string("time.") + name, std::move(fn)); };
  auto perf = [](Evaluator&, CallArgs&) {
    using namespace std::chrono;
    return Value::floating(duration<double>(steady_clock::now().time_since_epoch()).count());
  };
  def("perf_counter", perf);
  def("monotonic", perf);
  def("process_time", [](Evaluator&, CallArgs&) { return Value::floating((double)clock() / CLOCKS_PER_SEC); });
  def("perf_counter_ns", [](Evaluator&, CallArgs&) {
    using namespace std::chrono;
    return Value::integer(duration_cast<nanoseconds>(steady_clock::now().time_since_epoch()).count());
  });
  def("time", [](Evaluator&, CallArgs&) { return Value::floating(seconds_since_epoch()); });
  def("time_ns", [](Evaluator&, CallArgs&) {
    using namespace std::chrono;
    return Value::integer(duration_cast<nanoseconds>(system_clock::now().time_since_epoch()).count());
  });
  def("sleep", [](Evaluator& ev, CallArgs& a) {
    expect_args(a, "sleep", 1, 1);
    double s = arg_float(ev, a.pos[0], "sleep", a.loc);
    if (s < 0) raise("ValueError", "sleep length must be non-negative", a.loc);
    std::this_thread::sleep_for(std::chrono::duration<double>(s));
    return Value();
  });
  return Value::of(m);
}

void install_module_sys_time(Evaluator& ev) {
  ev.module_factories["sys"] = make_sys;
  ev.module_factories["time"] = make_time;
}

}  // namespace kiln::host

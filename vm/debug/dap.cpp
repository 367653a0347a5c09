// `kiln dap`: the Debug Adapter Protocol over stdio, on the same Session as
// `kiln debug`. Messages are Content-Length framed JSON (nlohmann::json).
//
// A reader thread parses requests into a queue; the main thread runs the
// program. While the program runs, requests are served between places
// (Session::on_poll) and `pause` raises Session::pause_requested; at a stop
// (Session::on_stop) the main thread serves requests until one resumes it.
#include <condition_variable>
#include <deque>
#include <fstream>
#include <map>
#include <sstream>
#include <istream>
#include <mutex>
#include <ostream>
#include <thread>

#include <nlohmann/json.hpp>

#include "vm/debug/session.h"

namespace kiln::debug {

namespace {

using json = nlohmann::json;

// Reads one framed message; false at end of input or on a malformed header.
bool read_message(std::istream& in, std::string& body) {
  size_t length = 0;
  bool have = false;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) {
      if (!have) continue;
      body.assign(length, '\0');
      in.read(body.data(), (std::streamsize)length);
      return (size_t)in.gcount() == length;
    }
    if (line.rfind("Content-Length:", 0) == 0) {
      length = std::stoul(line.substr(15));
      have = true;
    }
  }
  return false;
}

struct Dap {
  Session s;
  std::ostream& out;
  std::mutex out_mu;
  int seq = 1;

  std::mutex q_mu;
  std::condition_variable q_cv;
  std::deque<json> queue;
  bool eof = false;

  bool launched = false, configured = false, done = false;
  std::string program;
  std::vector<std::string> args;
  bool stop_on_entry = false;

  // At a stop: frames and variable references, valid until the program resumes.
  const Place* stopped = nullptr;
  std::vector<FrameView> frames;
  std::vector<std::vector<VarView>> refs;  // variablesReference k -> refs[k - 1]

  explicit Dap(std::ostream& o) : out(o) {}

  void send(json m) {
    std::lock_guard<std::mutex> lock(out_mu);
    m["seq"] = seq++;
    std::string body = m.dump();
    out << "Content-Length: " << body.size() << "\r\n\r\n" << body;
    out.flush();
  }
  void event(const std::string& name, json body = json::object()) {
    send({{"type", "event"}, {"event", name}, {"body", std::move(body)}});
  }
  void respond(const json& req, json body = json::object(), bool ok = true, const std::string& message = "") {
    json r = {{"type", "response"}, {"request_seq", req.value("seq", 0)}, {"command", req.value("command", "")},
              {"success", ok}, {"body", std::move(body)}};
    if (!ok) r["message"] = message;
    send(std::move(r));
  }

  // Blocks for the next request; null json at end of input.
  json next() {
    std::unique_lock<std::mutex> lock(q_mu);
    q_cv.wait(lock, [&] { return !queue.empty() || eof; });
    if (queue.empty()) return json();
    json m = std::move(queue.front());
    queue.pop_front();
    s.pending = !queue.empty();
    return m;
  }

  void reader(std::istream& in) {
    std::string body;
    while (read_message(in, body)) {
      json m = json::parse(body, nullptr, false);
      if (m.is_discarded() || !m.is_object()) continue;
      if (m.value("command", "") == "pause") {
        s.pause_requested = true;
        s.changed();
      }
      std::lock_guard<std::mutex> lock(q_mu);
      queue.push_back(std::move(m));
      s.pending = true;
      q_cv.notify_one();
    }
    std::lock_guard<std::mutex> lock(q_mu);
    eof = true;
    s.pending = true;
    q_cv.notify_one();
  }

  int add_ref(std::vector<VarView> vars) {
    refs.push_back(std::move(vars));
    return (int)refs.size();
  }
  json var_json(const VarView& v) {
    json j = {{"name", v.name}, {"value", v.value}, {"variablesReference", 0}};
    if (!v.children.empty()) j["variablesReference"] = add_ref(v.children);
    return j;
  }

  void set_breakpoints(const json& req) {
    const json& a = req["arguments"];
    std::string path = a.value("source", json::object()).value("path", "");
    std::erase_if(s.breakpoints, [&](const Breakpoint& b) { return b.file == path; });
    json result = json::array();
    for (auto& bp : a.value("breakpoints", json::array())) {
      Breakpoint b;
      b.id = s.next_id++;
      b.file = path;
      b.line = bp.value("line", 0u);
      b.cond = bp.value("condition", "");
      s.breakpoints.push_back(b);
      result.push_back({{"id", b.id}, {"verified", true}, {"line", b.line}});
    }
    respond(req, {{"breakpoints", result}});
    s.changed();
  }

  // Requests that make sense whether the program runs or not. Returns false
  // for the ones it does not know.
  bool serve_common(const json& req) {
    std::string cmd = req.value("command", "");
    if (cmd == "threads") {
      respond(req, {{"threads", json::array({{{"id", 1}, {"name", "main"}}})}});
    } else if (cmd == "setBreakpoints") {
      set_breakpoints(req);
    } else if (cmd == "setExceptionBreakpoints") {
      respond(req, {{"breakpoints", json::array()}});  // faults always stop
    } else if (cmd == "disconnect" || cmd == "terminate") {
      respond(req);
      done = true;
      if (s.running) s.side->quit();
    } else if (cmd == "pause") {
      respond(req);  // pause_requested was set by the reader
    } else {
      return false;
    }
    return true;
  }

  // While the program runs: serve what can be served now.
  void poll() {
    for (;;) {
      json req;
      {
        std::lock_guard<std::mutex> lock(q_mu);
        if (queue.empty()) {
          s.pending = false;
          return;
        }
        req = std::move(queue.front());
        queue.pop_front();
      }
      if (!serve_common(req)) respond(req, json::object(), false, "the program is running");
    }
  }

  // At a stop: report it, then serve requests until one resumes the program.
  void on_stop(const Place& p, const std::string& why, const std::string& reason) {
    stopped = &p;
    frames = s.frames(p);
    refs.clear();
    json body = {{"reason", reason}, {"threadId", 1}, {"allThreadsStopped", true}};
    if (!why.empty()) body["description"] = why;
    if (reason == "exception") body["text"] = why;
    event("stopped", body);
    for (;;) {
      json req = next();
      if (req.is_null()) s.side->quit();
      std::string cmd = req.value("command", "");
      const json a = req.value("arguments", json::object());
      if (serve_common(req)) continue;
      if (cmd == "continue" || cmd == "next" || cmd == "stepIn" || cmd == "stepOut") {
        s.mode = cmd == "continue" ? Mode::run : cmd == "next" ? Mode::next : cmd == "stepIn" ? Mode::step : Mode::finish;
        s.mode_depth = p.depth;
        respond(req, cmd == "continue" ? json{{"allThreadsContinued", true}} : json::object());
        stopped = nullptr;
        return;
      }
      if (cmd == "stackTrace") {
        json list = json::array();
        for (size_t i = 0; i < frames.size(); i++) {
          const FrameView& f = frames[i];
          json fr = {{"id", (int)i + 1}, {"name", f.name}, {"line", f.loc.line}, {"column", f.loc.col ? f.loc.col : 1}};
          if (f.loc.file) fr["source"] = {{"name", f.loc.file->path}, {"path", f.loc.file->path}};
          list.push_back(fr);
        }
        respond(req, {{"stackFrames", list}, {"totalFrames", list.size()}});
      } else if (cmd == "scopes") {
        int id = a.value("frameId", 1);
        if (id < 1 || id > (int)frames.size()) {
          respond(req, json::object(), false, "no frame " + std::to_string(id));
          continue;
        }
        std::vector<VarView> locals, indices, kargs;
        for (auto& v : s.variables(frames[id - 1].view))
          (v.kind == 2 ? indices : v.kind == 1 ? kargs : locals).push_back(v);
        json scopes = json::array();
        auto scope = [&](const char* name, std::vector<VarView> vars, bool expensive = false) {
          scopes.push_back({{"name", name}, {"variablesReference", add_ref(std::move(vars))}, {"expensive", expensive}});
        };
        scope("Locals", std::move(locals));
        if (frames[id - 1].view.kernel) {
          scope("Loop indices", std::move(indices));
          scope("Args", std::move(kargs));
        }
        scope("Fields", s.side->fields(s), true);
        respond(req, {{"scopes", scopes}});
      } else if (cmd == "variables") {
        int ref = a.value("variablesReference", 0);
        if (ref < 1 || ref > (int)refs.size()) {
          respond(req, json::object(), false, "no variables reference " + std::to_string(ref));
          continue;
        }
        json vars = json::array();
        std::vector<VarView> list = refs[(size_t)ref - 1];  // add_ref below may grow refs
        for (auto& v : list) vars.push_back(var_json(v));
        respond(req, {{"variables", vars}});
      } else if (cmd == "evaluate") {
        int id = a.value("frameId", 1);
        const Place& view = id >= 1 && id <= (int)frames.size() ? frames[id - 1].view : p;
        try {
          respond(req, {{"result", s.value_text(view, a.value("expression", ""))}, {"variablesReference", 0}});
        } catch (const Error& e) {
          respond(req, json::object(), false, e.kind + ": " + e.message);
        }
      } else {
        respond(req, json::object(), false, "unsupported request '" + cmd + "'");
      }
    }
  }

  void run_program() {
    s.path = program;
    s.argv = args;
    s.argv.insert(s.argv.begin(), program);
    std::string text;
    {
      std::ifstream f(program, std::ios::binary);
      if (!f) {
        event("output", {{"category", "stderr"}, {"output", "kiln dap: cannot open '" + program + "'\n"}});
        event("exited", {{"exitCode", 2}});
        event("terminated");
        return;
      }
      std::stringstream ss;
      ss << f.rdbuf();
      text = ss.str();
    }
    s.text = text;
    if (stop_on_entry) s.mode = Mode::step;
    int status = s.start();
    event("exited", {{"exitCode", status}});
    event("terminated");
  }

  int run() {
    s.io.read = [](const std::string&, std::string&) { return false; };
    s.io.out = [this](std::string_view t) { event("output", {{"category", "stdout"}, {"output", std::string(t)}}); };
    s.io.err = [this](std::string_view t) { event("output", {{"category", "stderr"}, {"output", std::string(t)}}); };
    s.on_stop = [this](const Place& p, const std::string& why, const std::string& reason) { on_stop(p, why, reason); };
    s.on_poll = [this] { poll(); };
    try {
      while (!done) {
        json req = next();
        if (req.is_null()) break;
        std::string cmd = req.value("command", "");
        const json a = req.value("arguments", json::object());
        if (cmd == "initialize") {
          respond(req, {{"supportsConfigurationDoneRequest", true},
                        {"supportsConditionalBreakpoints", true},
                        {"supportsEvaluateForHovers", true},
                        {"supportsTerminateRequest", true}});
          event("initialized");
        } else if (cmd == "launch") {
          program = a.value("program", "");
          args = a.value("args", std::vector<std::string>{});
          stop_on_entry = a.value("stopOnEntry", false);
          launched = true;
          respond(req);
          if (configured) run_program();
        } else if (cmd == "configurationDone") {
          configured = true;
          respond(req);
          if (launched) run_program();
        } else if (!serve_common(req)) {
          respond(req, json::object(), false, cmd == "continue" || cmd == "next" ? "the program is not running"
                                                                                  : "unsupported request '" + cmd + "'");
        }
      }
    } catch (const Quit&) {
    }
    return 0;
  }
};

}  // namespace

int run_dap(std::istream& in, std::ostream& out, std::unique_ptr<HostSide> side) {
  // The reader may still be blocked on input when the session ends (the
  // client keeps the pipe open after `disconnect`): it is detached, and the
  // state it touches is left alive for the few moments before the process exits.
  auto* d = new Dap(out);
  d->s.side = std::move(side);
  d->s.side->route_output = true;
  std::thread([d, &in] { d->reader(in); }).detach();
  return d->run();
}

}  // namespace kiln::debug

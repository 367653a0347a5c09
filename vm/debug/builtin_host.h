// The debugger's host side on Kiln's built-in evaluator (see HostSide).
#pragma once
#include <map>
#include <memory>
#include <string>

#include "vm/debug/session.h"

namespace kiln::debug {

struct BuiltinHost : HostSide {
  HostOptions base;
  std::unique_ptr<Host> host;  // the program being debugged (null before `run`)
  std::map<std::string, const ast::Expr*> parsed;  // expressions and conditions, parsed once

  int run(Session& s) override;
  int depth() const override;
  std::string where(const Place& p) const override;
  void frames(const Place& p, std::vector<FrameView>& out) const override;
  std::vector<VarView> variables(const Place& p) override;
  std::string value_text(Session& s, const Place& p, const std::string& expr) override;
  bool truthy(Session& s, const Place& p, const std::string& expr) override;
  std::vector<VarView> fields(Session& s) override;

  const ast::Expr* parse(const std::string& expr);
  host::Value eval(const Session& s, const Place& p, const std::string& expr);
};

}  // namespace kiln::debug

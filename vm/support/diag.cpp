#include "vm/support/diag.h"

namespace kiln {

SourceFile::SourceFile(std::string p, std::string t) : path(std::move(p)), text(std::move(t)) {
  line_starts.push_back(0);
  for (uint32_t i = 0; i < text.size(); i++)
    if (text[i] == '\n') line_starts.push_back(i + 1);
}

std::string_view SourceFile::line(uint32_t n) const {
  if (n == 0 || n > line_starts.size()) return {};
  uint32_t b = line_starts[n - 1];
  uint32_t e = n < line_starts.size() ? line_starts[n] : (uint32_t)text.size();
  while (e > b && (text[e - 1] == '\n' || text[e - 1] == '\r')) e--;
  return std::string_view(text).substr(b, e - b);
}

const SourceFile* SourceSet::add(std::string path, std::string text) {
  files.push_back(std::make_unique<SourceFile>(std::move(path), std::move(text)));
  return files.back().get();
}

static std::string what_of(const std::string& kind, const std::string& message) {
  return message.empty() ? kind : kind + ": " + message;
}

Error::Error(std::string k, std::string m, SourceLoc l)
    : std::runtime_error(what_of(k, m)), kind(std::move(k)), message(std::move(m)), loc(l) {}

void raise(std::string kind, std::string message, SourceLoc loc) {
  throw Error(std::move(kind), std::move(message), loc);
}

std::string format_location(const SourceLoc& loc) {
  if (!loc.known()) return {};
  std::string out = "  --> " + loc.file->path + ":" + std::to_string(loc.line);
  if (loc.col) out += ":" + std::to_string(loc.col);
  out += "\n";
  std::string_view src = loc.file->line(loc.line);
  if (src.empty()) return out;
  out += "    ";
  out += src;
  out += "\n";
  if (loc.col) {
    std::string pad;
    // Keep tabs so the caret lines up under tab-indented source.
    for (uint32_t i = 0; i + 1 < loc.col && i < src.size(); i++) pad += src[i] == '\t' ? '\t' : ' ';
    out += "    " + pad + "^\n";
  }
  return out;
}

std::string format_error(const Error& e) {
  std::string out = what_of(e.kind, e.message) + "\n" + format_location(e.loc);
  for (auto& n : e.notes) out += "  note: " + n + "\n";
  // The innermost frame is the caret block above; list the callers that led there.
  size_t n = e.traceback.size();
  if (n && e.traceback.back().loc.file == e.loc.file && e.traceback.back().loc.line == e.loc.line) n--;
  if (n) {
    out += "Traceback (most recent call last):\n";
    for (size_t i = 0; i < n; i++) {
      const TraceFrame& f = e.traceback[i];
      out += "  File \"" + (f.loc.file ? f.loc.file->path : std::string("?")) + "\", line " +
             std::to_string(f.loc.line) + ", in " + f.function + "\n";
      if (f.loc.known()) {
        std::string_view s = f.loc.file->line(f.loc.line);
        size_t i = s.find_first_not_of(" \t");
        if (i != std::string_view::npos) out += "    " + std::string(s.substr(i)) + "\n";
      }
    }
  }
  return out;
}

std::string format_warning(const std::string& message, const SourceLoc& loc) {
  return "warning: " + message + "\n" + format_location(loc);
}

}  // namespace kiln

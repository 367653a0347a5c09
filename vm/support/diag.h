// Diagnostics: where a thing is in the source, and the errors users see.
//
// Every error the VM reports to a user is a kiln::Error carrying a kind
// (Python's exception name: "SyntaxError", "TypeError", "IndexError", ...),
// a message, and a location. format_error() renders it the one way users see
// it everywhere (kiln run, the REPL, the C API's diagnostic callback):
//
//   TypeError: cannot assign a 2-vector to the scalar variable 'x'
//     --> prog.py:5:9
//       x = ti.Vector([1, 1])
//           ^
//
// followed, when the error happened inside calls, by a traceback of the callers
// (outermost first, as Python prints them; the innermost frame is the caret block).
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kiln {

// One source text the VM has seen: a file, a REPL input, a string from the C API.
// Owned by a SourceSet; SourceLocs point into it, so it must outlive them.
struct SourceFile {
  std::string path;                 // as the user named it ("prog.py", "<stdin>")
  std::string text;
  std::vector<uint32_t> line_starts;  // byte offset of each line's start

  SourceFile(std::string path, std::string text);
  // 1-based line number; returns the line without its newline ("" if out of range).
  std::string_view line(uint32_t line) const;
};

// Owns every SourceFile of a VM instance (no global registry: several VMs per process).
struct SourceSet {
  std::vector<std::unique_ptr<SourceFile>> files;
  const SourceFile* add(std::string path, std::string text);
};

struct SourceLoc {
  const SourceFile* file = nullptr;
  uint32_t line = 0;  // 1-based; 0 = unknown
  uint32_t col = 0;   // 1-based, in bytes; 0 = unknown
  bool known() const { return file != nullptr && line != 0; }
};

// One traceback line: "  File "prog.py", line 12, in step".
struct TraceFrame {
  SourceLoc loc;
  std::string function;  // "<module>" at top level
};

struct Error : std::runtime_error {
  std::string kind;     // Python exception name, e.g. "TypeError"
  std::string message;  // without the kind
  SourceLoc loc;
  std::vector<TraceFrame> traceback;  // outermost first
  std::vector<std::string> notes;     // extra lines printed after the caret ("note: ...")

  Error(std::string kind, std::string message, SourceLoc loc = {});
};

[[noreturn]] void raise(std::string kind, std::string message, SourceLoc loc = {});

// The caret block for a location ("  --> file:l:c\n    <line>\n    ^\n"); empty if unknown.
std::string format_location(const SourceLoc& loc);
// The full text of an error as users see it (ends with a newline).
std::string format_error(const Error& e);
// A warning: "warning: msg" + location block. Warnings go to stderr.
std::string format_warning(const std::string& message, const SourceLoc& loc);

}  // namespace kiln

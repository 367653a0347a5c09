// When the lines typed at the REPL form one complete input. A small lexical
// scan (brackets, strings, comments, backslashes) rather than a trial parse:
// the parser reports "unexpected end of input" and a real syntax error alike,
// and asking it to tell them apart would tie the REPL to its messages.
#include <cctype>

#include "tools/repl.h"

namespace kiln::repl {

namespace {

bool blank(std::string_view line) {
  for (char c : line) {
    if (c == '#') return true;  // a comment-only line counts as blank
    if (!std::isspace((unsigned char)c)) return false;
  }
  return true;
}

}  // namespace

bool Chunker::add(std::string_view line) {
  if (text_.empty() && blank(line)) return false;  // nothing started: stay at ">>> "
  bool was_blank = blank(line);
  text_.append(line);
  text_ += '\n';

  bool cont = backslash_;
  backslash_ = false;
  if (!cont && depth_ == 0 && !triple_ && line_start_ && !was_blank) {
    first_ = 0;
    last_ = 0;
  }
  char quote = 0;  // inside a '...' or "..." string (they end at the line's end)
  for (size_t i = 0; i < line.size(); i++) {
    char c = line[i];
    if (triple_) {
      if (c == '\\') {
        i++;
      } else if (c == triple_ && line.substr(i, 3) == std::string(3, triple_)) {
        triple_ = 0;
        i += 2;
        last_ = c;
      }
      continue;
    }
    if (quote) {
      if (c == '\\') i++;
      else if (c == quote) {
        quote = 0;
        last_ = c;
      }
      continue;
    }
    if (c == '#') break;
    if (c == '\\' && i + 1 == line.size()) {
      backslash_ = true;
      break;
    }
    if (std::isspace((unsigned char)c)) continue;
    if (!first_) first_ = c;
    last_ = c;
    if (c == '"' || c == '\'') {
      if (line.substr(i, 3) == std::string(3, c)) {
        triple_ = c;
        i += 2;
      } else {
        quote = c;
      }
    } else if (c == '(' || c == '[' || c == '{') {
      depth_++;
    } else if (c == ')' || c == ']' || c == '}') {
      if (depth_ > 0) depth_--;  // unbalanced: the parser will say so
    }
  }

  bool open = depth_ > 0 || triple_ || backslash_;
  line_start_ = !open;
  if (open) return false;
  // A logical line just ended: a compound statement header or a decorator
  // opens a block, which only a blank line closes.
  if (!was_blank && (last_ == ':' || first_ == '@')) block_ = true;
  if (!block_) return true;
  return was_blank;
}

std::string Chunker::take() {
  std::string t = std::move(text_);
  clear();
  return t;
}

void Chunker::clear() {
  text_.clear();
  depth_ = 0;
  triple_ = 0;
  backslash_ = false;
  block_ = false;
  line_start_ = true;
  first_ = last_ = 0;
}

}  // namespace kiln::repl

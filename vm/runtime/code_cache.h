// Taichi's offline cache: compiled code kept on disk across runs, so that a
// second run of a program skips LLVM's optimizer and code generator (the LLVM
// tier's object files, the CUDA backend's PTX). An entry is keyed by the text
// that determines the code exactly (the task module's LLVM IR before
// optimization, the target, the compiler versions): the file name is a hash
// of that text and the file holds the text itself, so a hash collision, a
// stale entry (another Kiln or LLVM) or a damaged file (its checksum) is
// detected, and the code is rebuilt and the entry rewritten, never run.
// Entries are written to a temporary file and renamed: processes running at
// once see whole entries or none. ti.init(offline_cache=False) turns it off.
#pragma once
#include <optional>
#include <string>

namespace kiln {

struct Config;
struct Program;

// The cache directory for `cfg` ("" when the cache is off).
std::string code_cache_dir(const Config& cfg);

// The payload stored under `key` in `kind` (e.g. "llvm", "ptx"), if a whole
// entry for exactly this key is there. Counts offline_cache_hits/misses/
// rejected (a damaged or colliding entry) in prog's statistics.
std::optional<std::string> code_cache_load(Program& prog, const char* kind, const std::string& key);
// Stores `payload` under `key`; a directory that cannot be written is left
// alone (the cache is an optimization: the program runs on).
void code_cache_store(Program& prog, const char* kind, const std::string& key, const std::string& payload);

}  // namespace kiln

// The offline cache's files (code_cache.h): DIR/KIND-HASH.kc holding
//   "KILNCACHE1\n", u64 key length, key, u64 payload length, payload,
//   u64 FNV-1a of key and payload.
#include "vm/runtime/code_cache.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "vm/runtime/program.h"

namespace kiln {

namespace {

constexpr char kMagic[] = "KILNCACHE1\n";

uint64_t fnv(const std::string& s, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

std::string hex(uint64_t v) {
  char b[17];
  std::snprintf(b, sizeof b, "%016llx", (unsigned long long)v);
  return b;
}

void put_u64(std::string& out, uint64_t v) { out.append(reinterpret_cast<const char*>(&v), 8); }

bool get_u64(const std::string& in, size_t& at, uint64_t& v) {
  if (at + 8 > in.size()) return false;
  std::memcpy(&v, in.data() + at, 8);
  at += 8;
  return true;
}

std::string path_of(const std::string& dir, const char* kind, const std::string& key) {
  // Two hashes with different seeds: 128 bits of name.
  return dir + "/" + kind + "-" + hex(fnv(key)) + hex(fnv(key, 0x84222325cbf29ce4ull)) + ".kc";
}

bool make_dirs(const std::string& dir) {
  for (size_t i = 1; i <= dir.size(); i++)
    if (i == dir.size() || dir[i] == '/') {
      std::string part = dir.substr(0, i);
      if (mkdir(part.c_str(), 0777) != 0 && errno != EEXIST) return false;
    }
  struct stat st {};
  return stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

std::string code_cache_dir(const Config& cfg) {
  if (!cfg.offline_cache) return "";
  if (!cfg.offline_cache_dir.empty()) return cfg.offline_cache_dir;
  if (const char* d = std::getenv("KILN_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/kiln";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/kiln";
  return "";
}

std::optional<std::string> code_cache_load(Program& prog, const char* kind, const std::string& key) {
  std::string dir = code_cache_dir(prog.config);
  if (dir.empty()) return std::nullopt;
  std::ifstream f(path_of(dir, kind, key), std::ios::binary);
  if (!f) {
    prog.stat_add("offline_cache_misses", 1);
    return std::nullopt;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  std::string in = ss.str();
  size_t at = sizeof kMagic - 1;
  uint64_t klen = 0, plen = 0, sum = 0;
  bool ok = in.compare(0, at, kMagic) == 0 && get_u64(in, at, klen) && klen <= in.size() - at &&
            in.compare(at, klen, key) == 0;
  std::string payload;
  if (ok) {
    at += klen;
    ok = get_u64(in, at, plen) && plen <= in.size() - at;
  }
  if (ok) {
    payload = in.substr(at, plen);
    at += plen;
    ok = get_u64(in, at, sum) && at == in.size() && sum == fnv(payload, fnv(key));
  }
  if (!ok) {
    prog.stat_add("offline_cache_rejected", 1);
    return std::nullopt;
  }
  prog.stat_add("offline_cache_hits", 1);
  return payload;
}

void code_cache_store(Program& prog, const char* kind, const std::string& key, const std::string& payload) {
  std::string dir = code_cache_dir(prog.config);
  if (dir.empty() || !make_dirs(dir)) return;
  std::string out = kMagic;
  put_u64(out, key.size());
  out += key;
  put_u64(out, payload.size());
  out += payload;
  put_u64(out, fnv(payload, fnv(key)));
  std::string path = path_of(dir, kind, key);
  std::string tmp = path + ".tmp" + std::to_string(getpid());
  {
    std::ofstream f(tmp, std::ios::binary);
    f.write(out.data(), (std::streamsize)out.size());
    if (!f) {
      f.close();
      std::remove(tmp.c_str());
      return;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) std::remove(tmp.c_str());
  else prog.stat_add("offline_cache_stores", 1);
}

}  // namespace kiln

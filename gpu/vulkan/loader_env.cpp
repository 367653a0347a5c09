// What the Vulkan loader loads at vkCreateInstance (see device.h).
//
// The loader loads every installed driver and the implicit layers at
// vkCreateInstance, whether or not a device will answer: on a machine with
// Mesa's drivers and no GPU (CI, containers) that is the Intel, Radeon and
// Intel hasvk drivers and the device-select layer besides lavapipe, about
// half of instance creation (80 -> 45 ms of examples/hello.py's first launch
// on a loaded 2-core machine). A GPU driver needs the kernel's device nodes
// (/dev/dri/renderD*, /dev/nvidia*, /dev/dxg under WSL), so where there are
// none, and the user chose no drivers (VK_DRIVER_FILES / VK_ICD_FILENAMES),
// only the CPU drivers' manifests (lavapipe's, SwiftShader's) are given to
// the loader; and Mesa's device-select layer, which only reorders devices
// (Kiln ranks them itself), is skipped unless MESA_VK_DEVICE_SELECT asks for
// it. The variables are set for vkCreateInstance only.
#include <dirent.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gpu/vulkan/device.h"

namespace kiln::vk {

namespace {

bool has_gpu_nodes() {
  if (access("/dev/nvidiactl", F_OK) == 0 || access("/dev/nvidia0", F_OK) == 0 || access("/dev/dxg", F_OK) == 0)
    return true;
  DIR* d = opendir("/dev/dri");
  if (!d) return false;
  bool any = false;
  while (dirent* e = readdir(d)) any |= std::strncmp(e->d_name, "renderD", 7) == 0 || std::strncmp(e->d_name, "card", 4) == 0;
  closedir(d);
  return any;
}

// The loader's manifest folders, in its search order (its documented XDG paths).
std::vector<std::string> manifest_dirs() {
  std::vector<std::string> dirs;
  auto split = [&](const char* list, const char* fallback, const char* sub) {
    std::string s = list && *list ? list : fallback;
    for (size_t at = 0; at <= s.size();) {
      size_t end = s.find(':', at);
      if (end == std::string::npos) end = s.size();
      if (end > at) dirs.push_back(s.substr(at, end - at) + sub);
      at = end + 1;
    }
  };
  split(std::getenv("XDG_CONFIG_DIRS"), "/etc/xdg", "/vulkan/icd.d");
  dirs.push_back("/etc/vulkan/icd.d");
  if (const char* home = std::getenv("HOME")) dirs.push_back(std::string(home) + "/.local/share/vulkan/icd.d");
  split(std::getenv("XDG_DATA_DIRS"), "/usr/local/share:/usr/share", "/vulkan/icd.d");
  return dirs;
}

// The manifests of CPU drivers, joined with ':' (empty: none found).
std::string cpu_driver_files() {
  std::string files;
  for (const std::string& dir : manifest_dirs()) {
    DIR* d = opendir(dir.c_str());
    if (!d) continue;
    while (dirent* e = readdir(d)) {
      std::string name = e->d_name;
      bool cpu = name.find("lvp_icd") != std::string::npos || name.find("swiftshader") != std::string::npos;
      if (cpu && name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0)
        files += (files.empty() ? "" : ":") + dir + "/" + name;
    }
    closedir(d);
  }
  return files;
}

}  // namespace

LoaderEnv::LoaderEnv() {
  auto set = [&](const char* var, const std::string& value) {
    if (std::getenv(var)) return;
    setenv(var, value.c_str(), 1);
    set_vars.push_back(var);
  };
  if (!std::getenv("VK_DRIVER_FILES") && !std::getenv("VK_ICD_FILENAMES") && !has_gpu_nodes()) {
    std::string files = cpu_driver_files();
    if (!files.empty()) {
      set("VK_DRIVER_FILES", files);
      set("VK_ICD_FILENAMES", files);  // (loaders before 1.3.207)
    }
  }
  if (!std::getenv("MESA_VK_DEVICE_SELECT")) set("NODEVICE_SELECT", "1");
}

LoaderEnv::~LoaderEnv() {
  for (const char* var : set_vars) unsetenv(var);
}

}  // namespace kiln::vk

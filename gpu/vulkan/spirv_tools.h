// SPIRV-Tools in process: every module codegen makes is validated before
// the driver sees it, and `kiln dis --spirv` shows the disassembly.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace kiln::vk {

// Empty when `words` is a valid module for Vulkan 1.2 (SPIR-V 1.5); else the
// validator's messages.
std::string validate(const std::vector<uint32_t>& words);
std::string disassemble(const std::vector<uint32_t>& words);

}  // namespace kiln::vk

// SPIRV-Tools in process (see spirv_tools.h).
#include "gpu/vulkan/spirv_tools.h"

#include <spirv-tools/libspirv.hpp>

namespace kiln::vk {

std::string validate(const std::vector<uint32_t>& words) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  std::string msgs;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& pos, const char* m) {
    msgs += "word " + std::to_string(pos.index) + ": " + m + "\n";
  });
  if (tools.Validate(words)) return "";
  return msgs.empty() ? "invalid module\n" : msgs;
}

std::string disassemble(const std::vector<uint32_t>& words) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  std::string text;
  if (!tools.Disassemble(words, &text, SPV_BINARY_TO_TEXT_OPTION_INDENT | SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES))
    return "(disassembly failed)\n";
  return text;
}

}  // namespace kiln::vk

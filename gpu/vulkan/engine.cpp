// The Vulkan Engine: compiles a kernel's tasks to validated SPIR-V and
// pipelines, and launches them in one command buffer (a barrier between
// tasks), then reads back returns, temporaries, prints and failed checks.
#include <algorithm>
#include <bit>
#include <cstring>

#include "gpu/vulkan/device.h"
#include "gpu/vulkan/launch_results.h"
#include "gpu/vulkan/spirv_tools.h"
#include "gpu/vulkan/vulkan.h"
#include "vm/runtime/program.h"

namespace kiln::vk {
namespace {

struct Pipeline {
  VkShaderModule module = VK_NULL_HANDLE;
  VkPipeline pipe = VK_NULL_HANDLE;
};

struct VulkanKernel : CompiledKernel {
  Device& d;
  KernelShaders ks;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  std::vector<Pipeline> pipes;
  Buffer ctx_buf, print_buf;
  int num_bindings = 0;

  VulkanKernel(Device& dev, KernelShaders shaders) : d(dev), ks(std::move(shaders)) {
    num_bindings = 2 + ks.num_trees;
    std::vector<VkDescriptorSetLayoutBinding> binds;
    for (int b = 0; b < num_bindings; b++)
      binds.push_back({(uint32_t)b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
    VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dslci.bindingCount = (uint32_t)binds.size();
    dslci.pBindings = binds.data();
    vkCreateDescriptorSetLayout(d.dev, &dslci, nullptr, &set_layout);
    VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.setLayoutCount = 1;
    plci.pSetLayouts = &set_layout;
    vkCreatePipelineLayout(d.dev, &plci, nullptr, &layout);
    for (const TaskShader& t : ks.tasks) {
      Pipeline p;
      VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
      smci.codeSize = t.spirv.size() * 4;
      smci.pCode = t.spirv.data();
      if (vkCreateShaderModule(d.dev, &smci, nullptr, &p.module) != VK_SUCCESS)
        raise("RuntimeError", "vulkan: the driver rejected a shader module of kernel '" + ks.name + "'", t.loc);
      VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
      cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT,
                    p.module, "main", nullptr};
      cpci.layout = layout;
      if (vkCreateComputePipelines(d.dev, VK_NULL_HANDLE, 1, &cpci, nullptr, &p.pipe) != VK_SUCCESS)
        raise("RuntimeError", "vulkan: the driver could not compile a task of kernel '" + ks.name + "'", t.loc);
      pipes.push_back(p);
    }
    ctx_buf = d.create_buffer((size_t)ks.ctx_words() * 4);
    print_buf = d.create_buffer(ks.prints.empty() ? 16 : (size_t)kPrintWords * 4);
  }

  ~VulkanKernel() override {
    for (auto& p : pipes) {
      vkDestroyPipeline(d.dev, p.pipe, nullptr);
      vkDestroyShaderModule(d.dev, p.module, nullptr);
    }
    vkDestroyPipelineLayout(d.dev, layout, nullptr);
    vkDestroyDescriptorSetLayout(d.dev, set_layout, nullptr);
    d.destroy_buffer(ctx_buf);
    d.destroy_buffer(print_buf);
  }

  std::string disassemble() const override {
    std::string s;
    for (size_t i = 0; i < ks.tasks.size(); i++)
      s += "; task " + std::to_string(i) + " (" + ir::task_name(ks.tasks[i].kind) + ")\n" + vk::disassemble(ks.tasks[i].spirv);
    return s;
  }

  // Workgroups for a task: one invocation for serial work; enough for one
  // iteration each when the bounds are known, capped (the loop strides).
  uint32_t groups(const TaskShader& t) const {
    if (t.kind != ir::Task::range_for) return 1;
    if (t.serialize) return 1;
    if (!(t.begin_const && t.end_const)) return 1024;
    int64_t n = t.end - t.begin;
    if (n <= 0) return 0;
    return (uint32_t)std::min<int64_t>((n + kLocalSize - 1) / kLocalSize, 65535);
  }

  void launch(LaunchContext& ctx) override {
    std::lock_guard<std::mutex> lock(d.mu);
    // The context buffer: argument slots, zeroed returns/temps/error record.
    auto* words = static_cast<uint32_t*>(ctx_buf.ptr);
    std::memset(words, 0, (size_t)ks.ctx_words() * 4);
    std::memcpy(words, ctx.args.data(), std::min<size_t>(ctx.args.size(), (size_t)ks.num_args) * 8);
    std::memcpy(words + 2 * ks.temp_slot(), ctx.temps.data(),
                std::min<size_t>(ctx.temps.size(), (size_t)ks.num_temps) * 8);
    static_cast<uint32_t*>(print_buf.ptr)[0] = 2;

    VkDescriptorPoolSize ps{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, (uint32_t)num_bindings};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.maxSets = 1;
    dpci.poolSizeCount = 1;
    dpci.pPoolSizes = &ps;
    VkDescriptorPool pool;
    vkCreateDescriptorPool(d.dev, &dpci, nullptr, &pool);
    struct PoolGuard {
      Device& d;
      VkDescriptorPool p;
      ~PoolGuard() { vkDestroyDescriptorPool(d.dev, p, nullptr); }
    } guard{d, pool};
    VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dsai.descriptorPool = pool;
    dsai.descriptorSetCount = 1;
    dsai.pSetLayouts = &set_layout;
    VkDescriptorSet set;
    vkAllocateDescriptorSets(d.dev, &dsai, &set);
    std::vector<VkDescriptorBufferInfo> infos;
    infos.push_back({ctx_buf.buf, 0, VK_WHOLE_SIZE});
    infos.push_back({print_buf.buf, 0, VK_WHOLE_SIZE});
    for (int t = 0; t < ks.num_trees; t++) {
      const Buffer* b = (size_t)t < ctx.tree_bases.size() ? d.find(ctx.tree_bases[t]) : nullptr;
      if (!b)
        raise("RuntimeError", "vulkan: SNode tree " + std::to_string(t) + " of kernel '" + ks.name +
                                  "' is not in device memory (the program was not created for arch=vulkan)");
      infos.push_back({b->buf, 0, VK_WHOLE_SIZE});
    }
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = set;
    w.dstBinding = 0;
    w.descriptorCount = (uint32_t)infos.size();
    w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w.pBufferInfo = infos.data();
    vkUpdateDescriptorSets(d.dev, 1, &w, 0, nullptr);

    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbai.commandPool = d.cmd_pool;
    cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbai.commandBufferCount = 1;
    VkCommandBuffer cb;
    vkAllocateCommandBuffers(d.dev, &cbai, &cb);
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(cb, &bi);
    VkMemoryBarrier host_to_dev{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_HOST_WRITE_BIT,
                                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &host_to_dev, 0,
                         nullptr, 0, nullptr);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
    for (size_t i = 0; i < ks.tasks.size(); i++) {
      uint32_t n = groups(ks.tasks[i]);
      if (!n) continue;
      vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipes[i].pipe);
      vkCmdDispatch(cb, n, 1, 1);
      // Each task sees everything the previous ones wrote.
      VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT,
                         VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_HOST_READ_BIT};
      vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr, 0,
                           nullptr);
    }
    vkEndCommandBuffer(cb);
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb;
    vkResetFences(d.dev, 1, &d.fence);
    VkResult r = vkQueueSubmit(d.queue, 1, &si, d.fence);
    if (r == VK_SUCCESS) r = vkWaitForFences(d.dev, 1, &d.fence, VK_TRUE, UINT64_MAX);
    vkFreeCommandBuffers(d.dev, d.cmd_pool, 1, &cb);
    if (r != VK_SUCCESS)
      raise("RuntimeError", "vulkan: launching kernel '" + ks.name + "' failed (VkResult " + std::to_string((int)r) + ")");

    std::memcpy(ctx.rets.data(), words + 2 * ks.ret_slot(), std::min<size_t>(ctx.rets.size(), (size_t)ks.num_rets) * 8);
    std::memcpy(ctx.temps.data(), words + 2 * ks.temp_slot(), std::min<size_t>(ctx.temps.size(), (size_t)ks.num_temps) * 8);
    finish_launch(ks, words + ks.err_word(), static_cast<const uint32_t*>(print_buf.ptr), ctx);
  }
};

struct VulkanEngine : Engine {
  Device& d;
  explicit VulkanEngine(Device& dev) : d(dev) {}
  const char* name() const override { return "vulkan"; }
  bool supports(Prim p) const override {
    switch (p) {
      case Prim::i8: case Prim::u8: return d.caps.int8 && d.caps.storage8;
      case Prim::i16: case Prim::u16: return d.caps.int16 && d.caps.storage16;
      case Prim::f16: return d.caps.float16 && d.caps.storage16;
      case Prim::i64: case Prim::u64: return d.caps.int64;
      case Prim::f64: return d.caps.float64;
      case Prim::i32: case Prim::u32: case Prim::f32: return true;
      default: return false;  // bf16: a storage type the device does not compute in
    }
  }
  std::unique_ptr<CompiledKernel> compile(const ir::Kernel& k, Program& prog) override {
    KernelShaders ks = generate(k, d.caps);
    for (size_t i = 0; i < ks.tasks.size(); i++) {
      std::string err = validate(ks.tasks[i].spirv);
      if (!err.empty())
        raise("InternalError", "vulkan codegen made an invalid module for task " + std::to_string(i) + " of kernel '" +
                                   k.name + "':\n" + err + vk::disassemble(ks.tasks[i].spirv), ks.tasks[i].loc);
    }
    prog.stat_add("vulkan_tasks", (double)ks.tasks.size());
    return std::make_unique<VulkanKernel>(d, std::move(ks));
  }
};

void* tree_alloc(void*, size_t size, size_t) {
  Device& d = device();
  Buffer b = d.create_buffer(size);
  std::lock_guard<std::mutex> lock(d.mu);
  d.by_ptr[b.ptr] = b;
  return b.ptr;
}

void tree_free(void*, void* p, size_t) {
  Device& d = device();
  std::lock_guard<std::mutex> lock(d.mu);
  auto it = d.by_ptr.find(p);
  if (it == d.by_ptr.end()) return;
  d.destroy_buffer(it->second);
  d.by_ptr.erase(it);
}

}  // namespace
}  // namespace kiln::vk

namespace kiln {

std::unique_ptr<Engine> make_vulkan_engine() { return std::make_unique<vk::VulkanEngine>(vk::device()); }

AllocHooks vulkan_alloc_hooks() {
  AllocHooks h;
  h.alloc = vk::tree_alloc;
  h.dealloc = vk::tree_free;
  return h;
}

}  // namespace kiln

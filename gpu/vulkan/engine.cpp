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

// What one launch of a kernel uses on the device: its context buffer, a
// descriptor set over it and the trees, and a command buffer recorded once
// for that set (again only when a tree's buffer changes). A kernel that
// reads nothing back has a few, used in turn, so that its next launch can
// fill a context while the previous one is still queued.
struct Slot {
  Buffer ctx;
  std::vector<Buffer> nd;       // per ndarray argument, its data during the launch
  VkDescriptorSet set = VK_NULL_HANDLE;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  VkCommandBuffer resume_cb = VK_NULL_HANDLE;  // from a resumable task on (recorded when needed)
  std::vector<uint64_t> bound;  // the ndarray and tree buffers (serials) `set` and `cb` were made for
  bool recorded = false;
  uint64_t done_at = 0;         // the timeline value its last submit signals
};

struct VulkanKernel : CompiledKernel {
  Device& d;
  KernelShaders ks;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  std::vector<Pipeline> pipes;
  std::vector<Slot> slots;
  size_t next_slot = 0;
  Buffer print_buf;
  // The call stack of recursive ti.real_func calls (kStackBinding), as big as
  // the task that needs most; pages are committed as frames touch them.
  Buffer stack_buf;
  int num_bindings = 0;
  // Nothing comes back from the device (no returns, prints, checks that
  // can fail or ndarrays written): the launch returns once submitted, and
  // host access waits.
  bool deferred = false;
  // --stats: the task dispatches submitted ("launches on vulkan") and the
  // submits that resumed a task (vulkan_resumed_submits); Program::stats nodes.
  double* launches = nullptr;
  double* resubmits = nullptr;
  double dispatches = 0;  // per launch, in the slot's recorded commands

  VulkanKernel(Device& dev, KernelShaders shaders) : d(dev), ks(std::move(shaders)) {
    num_bindings = ks.tree_binding(ks.num_trees);
    deferred = ks.num_rets == 0 && ks.prints.empty() && ks.checks.empty() && !ks.counts && !ks.num_resumable;
    for (const NdarrayBinding& nb : ks.ndarrays) deferred &= !nb.written;
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
    print_buf = d.create_buffer(ks.prints.empty() ? 16 : (size_t)kPrintWords * 4);
    uint64_t stack = 0;
    for (const TaskShader& t : ks.tasks) stack = std::max(stack, t.stack_bytes);
    if (stack) stack_buf = d.host_import ? d.create_zeroed((size_t)stack) : d.create_buffer((size_t)stack);
    uint32_t n = deferred ? 4 : 1;
    VkDescriptorPoolSize ps{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, (uint32_t)num_bindings * n};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.maxSets = n;
    dpci.poolSizeCount = 1;
    dpci.pPoolSizes = &ps;
    check(vkCreateDescriptorPool(d.dev, &dpci, nullptr, &pool), "vkCreateDescriptorPool");
    slots.resize(n);
    for (Slot& s : slots) {
      s.ctx = d.create_buffer((size_t)ks.ctx_words() * 4);
      s.nd.resize(ks.ndarrays.size());
      VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
      dsai.descriptorPool = pool;
      dsai.descriptorSetCount = 1;
      dsai.pSetLayouts = &set_layout;
      check(vkAllocateDescriptorSets(d.dev, &dsai, &s.set), "vkAllocateDescriptorSets");
      VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
      cbai.commandPool = d.cmd_pool;
      cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      cbai.commandBufferCount = 1;
      check(vkAllocateCommandBuffers(d.dev, &cbai, &s.cb), "vkAllocateCommandBuffers");
      if (ks.num_resumable) check(vkAllocateCommandBuffers(d.dev, &cbai, &s.resume_cb), "vkAllocateCommandBuffers");
    }
  }

  ~VulkanKernel() override {
    std::lock_guard<std::mutex> lock(d.mu);
    try {
      for (Slot& s : slots) d.wait(s.done_at);
    } catch (Error&) {
      // The device failed: nothing of ours is running any more.
    }
    for (Slot& s : slots) {
      vkFreeCommandBuffers(d.dev, d.cmd_pool, 1, &s.cb);
      if (s.resume_cb) vkFreeCommandBuffers(d.dev, d.cmd_pool, 1, &s.resume_cb);
      d.destroy_buffer(s.ctx);
      for (Buffer& b : s.nd) d.destroy_buffer(b);
    }
    vkDestroyDescriptorPool(d.dev, pool, nullptr);
    for (auto& p : pipes) {
      vkDestroyPipeline(d.dev, p.pipe, nullptr);
      vkDestroyShaderModule(d.dev, p.module, nullptr);
    }
    vkDestroyPipelineLayout(d.dev, layout, nullptr);
    vkDestroyDescriptorSetLayout(d.dev, set_layout, nullptr);
    d.destroy_buffer(print_buf);
    if (stack_buf.ptr) d.destroy_buffer(stack_buf);
  }

  std::string disassemble() const override {
    std::string s;
    for (size_t i = 0; i < ks.tasks.size(); i++)
      s += "; task " + std::to_string(i) + " (" + ir::task_name(ks.tasks[i].kind) + ")\n" + vk::disassemble(ks.tasks[i].spirv);
    return s;
  }

  // Points the slot's descriptor set at `buffers` (ndarrays, then trees) and records its commands.
  void prepare(Slot& s, const std::vector<const Buffer*>& buffers) {
    std::vector<VkDescriptorBufferInfo> infos;
    infos.push_back({s.ctx.buf, 0, VK_WHOLE_SIZE});
    infos.push_back({print_buf.buf, 0, VK_WHOLE_SIZE});
    infos.push_back({stack_buf.ptr ? stack_buf.buf : print_buf.buf, 0, VK_WHOLE_SIZE});
    s.bound.clear();
    s.recorded = false;
    for (const Buffer* b : buffers) {
      infos.push_back({b->buf, 0, VK_WHOLE_SIZE});
      s.bound.push_back(b->serial);
    }
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = s.set;
    w.dstBinding = 0;
    w.descriptorCount = (uint32_t)infos.size();
    w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w.pBufferInfo = infos.data();
    vkUpdateDescriptorSets(d.dev, 1, &w, 0, nullptr);
    dispatches = record(s, s.cb, 0);
    s.recorded = true;
  }

  // Records into `cb` each task's dispatch from task `from` on, with a
  // barrier after it (each task sees everything the previous ones wrote, the
  // host all of it once the submit is done); a resumable task's
  // kResumeRepeat times (the runs after it finished return at once).
  int record(Slot& s, VkCommandBuffer cb, size_t from) {
    int dispatched = 0;
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    check(vkBeginCommandBuffer(cb, &bi), "vkBeginCommandBuffer");
    VkMemoryBarrier host_to_dev{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_HOST_WRITE_BIT,
                                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &host_to_dev, 0,
                         nullptr, 0, nullptr);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &s.set, 0, nullptr);
    for (size_t i = from; i < ks.tasks.size(); i++) {
      uint32_t n = ks.tasks[i].groups;
      if (!n) continue;
      vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipes[i].pipe);
      for (int r = 0; r < (ks.tasks[i].resume >= 0 ? kResumeRepeat : 1); r++) {
        vkCmdDispatch(cb, n, 1, 1);
        dispatched++;
        VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT,
                           VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_HOST_READ_BIT};
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr,
                             0, nullptr);
      }
    }
    check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
    return dispatched;
  }

  // Submits again from the first resumable task that has not finished, until
  // all have (or a check failed): each submit runs it kResumeRepeat times more.
  void resume(Slot& s, const uint32_t* words) {
    for (;;) {
      if (words[ks.err_word()] != 0) return;
      size_t from = ks.tasks.size();
      for (size_t i = 0; i < ks.tasks.size() && from == ks.tasks.size(); i++)
        if (ks.tasks[i].resume >= 0 && words[ks.resume_word(ks.tasks[i].resume)] != kResumeDone) from = i;
      if (from == ks.tasks.size()) return;
      int n = record(s, s.resume_cb, from);
      s.done_at = d.submit(s.resume_cb);
      d.wait(s.done_at);
      if (launches) *launches += n;
      if (resubmits) *resubmits += 1;
    }
  }

  // The bytes of ndarray argument `nb` in this launch (its shape arguments
  // times its element size), refused past what the device indexes.
  size_t ndarray_bytes(const NdarrayBinding& nb, const LaunchContext& ctx) const {
    uint64_t elems = 1;
    for (int k = 0; k < nb.ndim; k++) elems *= (uint64_t)(uint32_t)(int32_t)ctx.args.at((size_t)(nb.arg + 1 + k));
    uint64_t bytes = elems * (uint64_t)nb.elem_bytes;
    if (bytes > d.props.limits.maxStorageBufferRange)
      raise("RuntimeError", "vulkan: ndarray " + (nb.name.empty() ? std::string("argument") : "'" + nb.name + "'") +
                                " of kernel '" + ks.name + "' holds " + std::to_string(bytes) + " bytes; device '" +
                                d.name + "' binds at most " + std::to_string(d.props.limits.maxStorageBufferRange) +
                                " bytes to a kernel");
    return (size_t)bytes;
  }

  void launch(LaunchContext& ctx) override {
    std::lock_guard<std::mutex> lock(d.mu);
    Slot& s = slots[next_slot];
    next_slot = (next_slot + 1) % slots.size();
    d.wait(s.done_at);  // its previous launch is done with its buffers and commands
    // Ndarray arguments: host memory, copied into the slot's buffers (grown
    // to the launch's size) and back after the launch when written.
    std::vector<const Buffer*> buffers;
    std::vector<size_t> nd_bytes;
    for (size_t a = 0; a < ks.ndarrays.size(); a++) {
      size_t bytes = ndarray_bytes(ks.ndarrays[a], ctx);
      Buffer& b = s.nd[a];
      if (b.size < std::max<size_t>(bytes, 16)) {
        d.destroy_buffer(b);
        b = d.create_buffer(std::max<size_t>(bytes, 16));
      }
      if (bytes) std::memcpy(b.ptr, reinterpret_cast<const void*>(ctx.args[(size_t)ks.ndarrays[a].arg]), bytes);
      buffers.push_back(&b);
      nd_bytes.push_back(bytes);
    }
    for (int t = 0; t < ks.num_trees; t++) {
      const Buffer* b = (size_t)t < ctx.tree_bases.size() ? d.find(ctx.tree_bases[t]) : nullptr;
      if (!b)
        raise("RuntimeError", "vulkan: SNode tree " + std::to_string(t) + " of kernel '" + ks.name +
                                  "' is not in device memory (the program was not created for arch=vulkan)");
      buffers.push_back(b);
    }
    bool same = s.recorded && s.bound.size() == buffers.size();
    for (size_t i = 0; same && i < buffers.size(); i++) same = s.bound[i] == buffers[i]->serial;
    if (!same) prepare(s, buffers);
    // The context buffer: argument slots, zeroed returns/temps/error record.
    auto* words = static_cast<uint32_t*>(s.ctx.ptr);
    std::memset(words, 0, (size_t)ks.ctx_words() * 4);
    std::memcpy(words, ctx.args.data(), std::min<size_t>(ctx.args.size(), (size_t)ks.num_args) * 8);
    std::memcpy(words + 2 * ks.temp_slot(), ctx.temps.data(),
                std::min<size_t>(ctx.temps.size(), (size_t)ks.num_temps) * 8);
    std::memcpy(words + 2 * ks.rng_slot(), &ctx.rng_key, 8);
    if (!ks.prints.empty()) static_cast<uint32_t*>(print_buf.ptr)[0] = 2;
    if (ctx.program && ks.listgen_const) ctx.program->n_listgen_elements.fetch_add(ks.listgen_const, std::memory_order_relaxed);
    s.done_at = d.submit(s.cb);
    if (launches) *launches += dispatches;
    if (deferred) return;
    d.wait(s.done_at);
    if (ks.num_resumable) resume(s, words);
    for (size_t a = 0; a < ks.ndarrays.size(); a++)
      if (ks.ndarrays[a].written && nd_bytes[a])
        std::memcpy(reinterpret_cast<void*>(ctx.args[(size_t)ks.ndarrays[a].arg]), s.nd[a].ptr, nd_bytes[a]);
    std::memcpy(ctx.rets.data(), words + 2 * ks.ret_slot(), std::min<size_t>(ctx.rets.size(), (size_t)ks.num_rets) * 8);
    if (ctx.program && ks.counts) {
      const uint32_t* st = words + ks.stat_word();
      ctx.program->n_activations.fetch_add(st[kStatActivations], std::memory_order_relaxed);
      ctx.program->n_deactivations.fetch_add(st[kStatDeactivations], std::memory_order_relaxed);
      ctx.program->n_listgen_elements.fetch_add(st[kStatListgen], std::memory_order_relaxed);
    }
    finish_launch(ks, words + ks.err_word(), static_cast<const uint32_t*>(print_buf.ptr), ctx);
  }
};

struct VulkanEngine : Engine {
  Device& d;
  explicit VulkanEngine(Device& dev) : d(dev) {}
  ~VulkanEngine() override {
    try {
      sync();
    } catch (Error&) {
      // The device failed: nothing is running any more.
    }
  }
  const char* name() const override { return "vulkan"; }
  void sync() override {
    std::lock_guard<std::mutex> lock(d.mu);
    d.sync();
  }
  bool supports(Prim p) const override {
    switch (p) {
      case Prim::i8: case Prim::u8: return d.caps.int8 && d.caps.storage8;
      case Prim::i16: case Prim::u16: return d.caps.int16 && d.caps.storage16;
      case Prim::f16: return d.caps.float16 && d.caps.storage16;
      case Prim::i64: case Prim::u64: return d.caps.int64;
      case Prim::f64: return d.caps.float64;
      case Prim::i32: case Prim::u32: case Prim::f32: return true;
      case Prim::bf16: return d.caps.storage16;  // stored as u16 patterns, computed in f32
      default: return false;
    }
  }
  std::unique_ptr<CompiledKernel> compile(const ir::Kernel& k, Program& prog) override {
    KernelShaders ks = generate(k, d.caps, &prog);
    for (size_t i = 0; i < ks.tasks.size(); i++) {
      std::string err = validate(ks.tasks[i].spirv);
      if (!err.empty())
        raise("InternalError", "vulkan codegen made an invalid module for task " + std::to_string(i) + " of kernel '" +
                                   k.name + "':\n" + err + vk::disassemble(ks.tasks[i].spirv), ks.tasks[i].loc);
    }
    prog.stat_add("vulkan_tasks", (double)ks.tasks.size());
    bool resumes = ks.num_resumable > 0;
    auto vk = std::make_unique<VulkanKernel>(d, std::move(ks));
    vk->launches = &prog.stats["launches on vulkan"];
    if (resumes) vk->resubmits = &prog.stats["vulkan_resumed_submits"];
    return vk;
  }
};

void* tree_alloc(void*, size_t size, size_t) {
  Device& d = device();
  Buffer b = d.create_zeroed(size);
  std::lock_guard<std::mutex> lock(d.mu);
  d.by_ptr[b.ptr] = b;
  return b.ptr;
}

void tree_free(void*, void* p, size_t) {
  Device& d = device();
  std::lock_guard<std::mutex> lock(d.mu);
  auto it = d.by_ptr.find(p);
  if (it == d.by_ptr.end()) return;
  try {
    d.sync();  // no launch still uses it
  } catch (Error&) {
    // The device failed: nothing is running any more.
  }
  d.destroy_buffer(it->second);
  d.by_ptr.erase(it);
}

}  // namespace
}  // namespace kiln::vk

namespace kiln {

std::unique_ptr<Engine> make_vulkan_engine() { return std::make_unique<vk::VulkanEngine>(vk::device()); }

std::string vulkan_device_name() { return vk::device().name; }

std::string vulkan_gpu_missing(bool* cpu_only) { return vk::gpu_missing(cpu_only); }

AllocHooks vulkan_alloc_hooks() {
  AllocHooks h;
  h.alloc = vk::tree_alloc;
  h.dealloc = vk::tree_free;
  h.zeroed = true;
  return h;
}

}  // namespace kiln

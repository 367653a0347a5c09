// The NVPTX lowering's f32 atan2 (jit/llvm/atan2f.cpp) against glibc's
// atan2f, which the CPU engines call: the IR is compiled for this host
// through ORC (strict floating point, as the NVPTX target keeps it), as
// written and after LLVM's O3 pipeline (which the GPU's module runs), and
// must give glibc's bits for random, clustered and special arguments.
#include <doctest/doctest.h>

#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "jit/llvm/atan2f.h"

namespace {

using Fn = float (*)(float, float);

// kiln_atan2f behind an external wrapper, compiled for the host.
struct Compiled {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  Fn fn = nullptr;
  explicit Compiled(bool o3) {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    auto ctx = std::make_unique<llvm::LLVMContext>();
    auto m = std::make_unique<llvm::Module>("atan2f_test", *ctx);
    llvm::Function* f = kiln::llvmjit::atan2f_function(*m);
    llvm::Type* t = llvm::Type::getFloatTy(*ctx);
    auto* w = llvm::Function::Create(llvm::FunctionType::get(t, {t, t}, false), llvm::Function::ExternalLinkage,
                                     "atan2f_test", *m);
    llvm::IRBuilder<> B(llvm::BasicBlock::Create(*ctx, "entry", w));
    B.CreateRet(B.CreateCall(f, {w->getArg(0), w->getArg(1)}));
    if (o3) {
      llvm::PassBuilder pb;
      llvm::LoopAnalysisManager lam;
      llvm::FunctionAnalysisManager fam;
      llvm::CGSCCAnalysisManager cgam;
      llvm::ModuleAnalysisManager mam;
      pb.registerModuleAnalyses(mam);
      pb.registerCGSCCAnalyses(cgam);
      pb.registerFunctionAnalyses(fam);
      pb.registerLoopAnalyses(lam);
      pb.crossRegisterProxies(lam, fam, cgam, mam);
      pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(*m, mam);
    }
    auto jtmb = llvm::cantFail(llvm::orc::JITTargetMachineBuilder::detectHost());
    jtmb.getOptions().AllowFPOpFusion = llvm::FPOpFusion::Strict;
    jit = llvm::cantFail(llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(jtmb)).create());
    llvm::cantFail(jit->addIRModule(llvm::orc::ThreadSafeModule(std::move(m), std::move(ctx))));
    fn = llvm::cantFail(jit->lookup("atan2f_test")).toPtr<Fn>();
  }
};

// The number of (y, x) whose result's bits differ from glibc's (any NaN
// equals any NaN), with the IR as written and after O3; the first few are printed.
int mismatches(const std::vector<std::pair<float, float>>& args) {
  static Compiled plain(false), o3(true);
  int bad = 0;
  for (Fn fn : {plain.fn, o3.fn})
    for (auto [y, x] : args) {
      float want = std::atan2(y, x), got = fn(y, x);
      if (std::isnan(want) && std::isnan(got)) continue;
      if (std::bit_cast<uint32_t>(want) == std::bit_cast<uint32_t>(got)) continue;
      if (bad++ < 5) std::printf("atan2f(%a, %a): glibc %a, kiln_atan2f %a\n", y, x, want, got);
    }
  return bad;
}

}  // namespace

TEST_CASE("kiln_atan2f: zeros, infinities, NaN, subnormals and the reduction bounds give glibc's bits") {
  std::vector<float> v = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1.5f, 2.0f, 7e29f, -7e29f, 1e-12f, 1e-40f, -1e-40f,
                          0x1p-149f, -0x1p-149f, 0x1p-126f, 0x1.fffffep127f, -0x1.fffffep127f, INFINITY, -INFINITY,
                          NAN, -NAN, std::bit_cast<float>(0x7fc00001u), std::bit_cast<float>(0x7f800001u)};
  // atan's range bounds (7/16, 11/16, 19/16, 39/16), its tiny and huge limits
  // (2^-29, 2^25) and atan2's far one (2^60), each with its neighbours.
  for (float b : {0.4375f, 0.6875f, 1.1875f, 2.4375f, 0x1p-29f, 0x1p25f, 0x1p60f, 0x1p-60f})
    for (float s : {1.0f, -1.0f}) {
      v.push_back(s * b);
      v.push_back(s * std::nextafter(b, 0.0f));
      v.push_back(s * std::nextafter(b, INFINITY));
    }
  std::vector<std::pair<float, float>> args;
  for (float y : v)
    for (float x : v) args.push_back({y, x});
  CHECK(mismatches(args) == 0);
}

TEST_CASE("kiln_atan2f: random bit patterns and clustered arguments give glibc's bits") {
  std::mt19937 rng(2026);
  std::vector<std::pair<float, float>> args;
  const int n = 1 << 20;
  // Any bits: every exponent, subnormals, infinities and NaNs.
  for (int i = 0; i < n; i++) args.push_back({std::bit_cast<float>((uint32_t)rng()), std::bit_cast<float>((uint32_t)rng())});
  // Ordinary magnitudes in [-10, 10].
  std::uniform_real_distribution<float> mid(-10.0f, 10.0f);
  for (int i = 0; i < n; i++) args.push_back({mid(rng), mid(rng)});
  // |y / x| near 1 and near each of atan's range bounds, both signs, where
  // the reduction and the quadrant arithmetic lose most.
  std::uniform_int_distribution<int> ulps(-4096, 4096);
  for (float ratio : {1.0f, 0.4375f, 0.6875f, 1.1875f, 2.4375f})
    for (int i = 0; i < n / 4; i++) {
      float x = mid(rng);
      float y = std::bit_cast<float>(std::bit_cast<uint32_t>(std::fabs(x) * ratio) + ulps(rng));
      args.push_back({i & 1 ? -y : y, x});
    }
  // x == 1 (e_atan2f.c's atan(y), kiln_atan2f's general case) and x == -1,
  // y ordinary or any bits.
  for (int i = 0; i < n / 4; i++) {
    float y = i & 2 ? mid(rng) : std::bit_cast<float>((uint32_t)rng());
    args.push_back({y, i & 1 ? 1.0f : -1.0f});
  }
  CHECK(mismatches(args) == 0);
}

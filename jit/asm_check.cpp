// The assembler every trace is emitted through: asmjit's x86::Assembler with
// one check added. Registers 16-31 (xmm/ymm/zmm) exist only in EVEX encoding,
// and asmjit encodes an instruction that has no EVEX form, or whose EVEX form
// means something else, without a word when it is given one: vblendvps and
// vpblendd come out illegal (SIGILL), `vpcmpeqd ymm16, ...` becomes a compare
// into a k register, a VEX gather a garbled one, vroundpd an undefined
// vrndscale; kValidateAssembler does not catch it. The lane emitter keeps such instructions away from high registers
// by a list (vector_regs.cpp evex_op) that must follow what it emits; this is
// the net under that list: the trace is refused with a message (the loop runs
// on the interpreter) instead of running wrong code.
#include "jit/asm.h"

#include <string>

namespace kiln::jit {

using namespace asmjit;

namespace {

bool high_vec(const Operand_& op) {
  if (op.isReg()) return op.as<BaseReg>().isVec() && op.id() >= 16;
  if (op.isMem()) {
    const x86::Mem& m = op.as<x86::Mem>();
    return m.hasIndexReg() && m.indexType() >= RegType::kX86_Xmm && m.indexType() <= RegType::kX86_Zmm &&
           m.indexId() >= 16;
  }
  return false;
}

}  // namespace

const char* evex_refusal(InstId id, const Operand_* ops, int n) {
  bool high = false;
  for (int k = 0; k < n; k++) high |= high_vec(ops[k]);
  if (!high) return nullptr;
  const x86::InstDB::InstInfo& info = x86::InstDB::infoById(id);
  if (!info.isEvex()) {
    // asmjit turns a few VEX-only instructions into their EVEX twins
    // (vpand -> vpandd, vinsertf128 -> vinsertf32x4, vroundps -> vrndscaleps:
    // checked by disassembly), but vroundpd/vroundsd come out with EVEX.W0,
    // which is not vrndscalepd/sd.
    bool twin = info.isEvexTransformable() && id != x86::Inst::kIdVroundpd && id != x86::Inst::kIdVroundsd;
    if (!twin) return "a VEX-only instruction given a vector register 16-31";
  }
  // vpcmpeqd/vcmpps and kin write a k register in EVEX form, a vector in VEX
  // form; gathers take a k mask in EVEX form, a vector mask in VEX form.
  if (info.isEvexKRegOnly() && ops[0].isReg() && ops[0].as<BaseReg>().isVec())
    return "a compare into a vector register (VEX-only) given a vector register 16-31";
  if (info.isEvexTwoOpOnly() && n > 2 && ops[2].isReg())
    return "a gather with a vector mask (VEX-only) given a vector register 16-31";
  return nullptr;
}

Error CheckedAssembler::_emit(InstId id, const Operand_& o0, const Operand_& o1, const Operand_& o2,
                              const Operand_* ext) {
  // (the common case, no register 16-31, costs six tests and no copy)
  if (!(high_vec(o0) || high_vec(o1) || high_vec(o2) || high_vec(ext[0]) || high_vec(ext[1]) || high_vec(ext[2])))
    return x86::Assembler::_emit(id, o0, o1, o2, ext);
  const Operand_ ops[6] = {o0, o1, o2, ext[0], ext[1], ext[2]};
  if (const char* why = evex_refusal(id, ops, 6)) {
    String name;
    InstAPI::instIdToString(Arch::kX64, id, name);
    std::string msg = std::string(name.data()) + ": " + why;
    return reportError(DebugUtils::errored(kErrorInvalidInstruction), msg.c_str());
  }
  return x86::Assembler::_emit(id, o0, o1, o2, ext);
}

}  // namespace kiln::jit

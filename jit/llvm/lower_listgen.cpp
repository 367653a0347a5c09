// The struct-for's cell table as generated code (listgen.h): per level of
// the target's path, count / scan / write functions whose loops walk a
// container's active cells as vm/runtime/sparse_cells.h's
// for_each_active_cell does, with the layout's constants folded in. Pointer
// slots hold blocks' addresses and dynamic containers keep the runtime's
// layout in both tree layouts (device pools or not), so the same code reads
// either.
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include <functional>

#include "jit/llvm/listgen.h"

namespace kiln::llvmjit {

using llvm::BasicBlock;
using llvm::Value;

namespace {

struct ListGen {
  llvm::Module& M;
  llvm::LLVMContext& C;
  llvm::IRBuilder<> B;
  bool gpu;
  llvm::Function* F = nullptr;
  ListGen(llvm::Module& m, bool g) : M(m), C(m.getContext()), B(m.getContext()), gpu(g) {}

  llvm::Type* i64() { return B.getInt64Ty(); }
  Value* c64(int64_t v) { return B.getInt64((uint64_t)v); }
  Value* min(Value* a, Value* b) { return B.CreateSelect(B.CreateICmpSLT(a, b), a, b); }  // signed
  BasicBlock* block(const char* name) { return BasicBlock::Create(C, name, F); }
  Value* at(Value* p, Value* words) { return B.CreateInBoundsGEP(i64(), p, words); }
  Value* byte_at(Value* p, Value* off) { return B.CreateInBoundsGEP(B.getInt8Ty(), p, off); }
  // What other threads may have written (activity bits, slots, lengths):
  // acquire as the runtime reads them on the CPU, relaxed on the GPU.
  Value* load_shared(llvm::Type* t, Value* p) {
    llvm::LoadInst* l = B.CreateLoad(t, p);
    l->setAtomic(gpu ? llvm::AtomicOrdering::Monotonic : llvm::AtomicOrdering::Acquire);
    l->setAlignment(llvm::Align(8));
    return l;
  }

  // for (v = init; go(v); v = next(v)) body(v): a loop by phi.
  void phi_loop(Value* init, const std::function<Value*(Value*)>& go, const std::function<void(Value*)>& body,
                const std::function<Value*(Value*)>& next) {
    BasicBlock* pre = B.GetInsertBlock();
    BasicBlock* head = block("head");
    BasicBlock* in = block("body");
    BasicBlock* out = block("out");
    B.CreateBr(head);
    B.SetInsertPoint(head);
    llvm::PHINode* v = B.CreatePHI(i64(), 2);
    v->addIncoming(init, pre);
    B.CreateCondBr(go(v), in, out);
    B.SetInsertPoint(in);
    body(v);
    v->addIncoming(next(v), B.GetInsertBlock());
    B.CreateBr(head);
    B.SetInsertPoint(out);
  }
  // for (i = lo; i < hi; i += step) body(i).
  void loop(Value* lo, Value* hi, Value* step, const std::function<void(Value*)>& body) {
    phi_loop(lo, [&](Value* i) { return B.CreateICmpSLT(i, hi); }, body, [&](Value* i) { return B.CreateAdd(i, step); });
  }
  void when(Value* cond, const std::function<void()>& then) {
    BasicBlock* yes = block("then");
    BasicBlock* done = block("done");
    B.CreateCondBr(cond, yes, done);
    B.SetInsertPoint(yes);
    then();
    B.CreateBr(done);
    B.SetInsertPoint(done);
  }

  // The [b, e) loop of one function: this thread's share on the GPU (a
  // grid-stride loop), all of it on the CPU.
  void each(Value* b, Value* e, const std::function<void(Value*)>& body) {
    if (!gpu) return loop(b, e, c64(1), body);
    auto sreg = [&](llvm::Intrinsic::ID id) { return B.CreateZExt(B.CreateIntrinsic(id, {}, {}), i64()); };
    Value* tid = sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x);
    Value* ntid = sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x);
    Value* ctaid = sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x);
    Value* nctaid = sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x);
    loop(B.CreateAdd(b, B.CreateAdd(B.CreateMul(ctaid, ntid), tid)), e, B.CreateMul(ntid, nctaid), body);
  }

  // Activity word w of bitmasked container c, without the bits past its cells.
  Value* mask_bits(const SNode& s, Value* c, Value* w) {
    int64_t n = s.num_cells();
    Value* bits = load_shared(i64(), at(byte_at(c, c64(s.mask_offset)), w));
    if (n % 64 == 0) return bits;
    Value* last = B.CreateICmpEQ(w, c64((n - 1) / 64));
    return B.CreateSelect(last, B.CreateAnd(bits, c64((int64_t)~(~0ull << (n % 64)))), bits);
  }
  // fn(first, end, chunk) for every chunk of dynamic container c that has a
  // block: its cells [first, end) below the length, at `chunk`.
  void each_chunk(const SNode& s, Value* c, const std::function<void(Value*, Value*, Value*)>& fn) {
    int64_t chunk = s.chunk_size;
    Value* len = load_shared(i64(), c);
    len = min(len, c64(s.num_cells()));
    loop(c64(0), len, c64(chunk), [&](Value* first) {
      Value* slot = byte_at(c, B.CreateAdd(c64(8), B.CreateMul(B.CreateSDiv(first, c64(chunk)), c64(8))));
      Value* p = load_shared(B.getPtrTy(), slot);
      when(B.CreateIsNotNull(p), [&] {
        Value* end = B.CreateAdd(first, c64(chunk));
        fn(first, min(len, end), p);
      });
    });
  }
  // Part q's cells [first, end) of a pointer or dense container (listgen.h).
  std::pair<Value*, Value*> part_cells(const SNode& s, Value* q) {
    Value* first = B.CreateMul(q, c64(kListPartCells));
    Value* end = B.CreateAdd(first, c64(kListPartCells));
    return {first, min(end, c64(s.num_cells()))};
  }

  // fn(cell number, cell address) for every active cell of part q of
  // container `c` of `s` (listgen.h's items), in cell order (sparse_cells.h's
  // for_each_active_cell).
  void each_active(const SNode& s, Value* c, Value* q, const std::function<void(Value*, Value*)>& fn) {
    int64_t cs = s.cell_size;
    switch (s.kind) {
      case SNodeKind::pointer: {
        auto [first, end] = part_cells(s, q);
        loop(first, end, c64(1), [&](Value* i) {
          Value* p = load_shared(B.getPtrTy(), at(c, i));
          when(B.CreateIsNotNull(p), [&] { fn(i, p); });
        });
        return;
      }
      case SNodeKind::bitmasked:
        // mask word q: for (m = bits; m; m &= m - 1) cell q * 64 + ctz(m)
        phi_loop(
            mask_bits(s, c, q), [&](Value* m) { return B.CreateIsNotNull(m); },
            [&](Value* m) {
              Value* i = B.CreateAdd(B.CreateMul(q, c64(64)), B.CreateIntrinsic(llvm::Intrinsic::cttz, {i64()}, {m, B.getTrue()}));
              fn(i, byte_at(c, B.CreateMul(i, c64(cs))));
            },
            [&](Value* m) { return B.CreateAnd(m, B.CreateSub(m, c64(1))); });
        return;
      case SNodeKind::dynamic:  // one part
        each_chunk(s, c, [&](Value* first, Value* end, Value* p) {
          loop(first, end, c64(1), [&](Value* i) { fn(i, byte_at(p, B.CreateMul(B.CreateSub(i, first), c64(cs)))); });
        });
        return;
      default: {
        auto [first, end] = part_cells(s, q);
        loop(first, end, c64(1), [&](Value* i) { fn(i, byte_at(c, B.CreateMul(i, c64(cs)))); });
        return;
      }
    }
  }

  // How many cells of part q of container `c` of `s` are active.
  Value* count_active(const SNode& s, Value* c, Value* q) {
    if (s.kind == SNodeKind::bitmasked) return B.CreateIntrinsic(llvm::Intrinsic::ctpop, {i64()}, {mask_bits(s, c, q)});
    if (s.kind != SNodeKind::pointer && s.kind != SNodeKind::dynamic) {
      auto [first, end] = part_cells(s, q);
      return B.CreateSub(end, first);
    }
    llvm::AllocaInst* k = entry_alloca();
    B.CreateStore(c64(0), k);
    if (s.kind == SNodeKind::dynamic) {  // a chunk's cells at a time
      each_chunk(s, c, [&](Value* first, Value* end, Value*) {
        B.CreateStore(B.CreateAdd(B.CreateLoad(i64(), k), B.CreateSub(end, first)), k);
      });
    } else {
      each_active(s, c, q, [&](Value*, Value*) { B.CreateStore(B.CreateAdd(B.CreateLoad(i64(), k), c64(1)), k); });
    }
    return B.CreateLoad(i64(), k);
  }

  // Item w's container (its list entry in `in`) and part (listgen.h).
  std::pair<Value*, Value*> item(const SNode& s, Value* in, Value* w) {
    Value* parts = c64(list_parts(s));
    Value* entry = at(in, B.CreateMul(B.CreateUDiv(w, parts), c64(kListEntryWords)));
    return {entry, B.CreateURem(w, parts)};
  }

  llvm::AllocaInst* entry_alloca() {
    llvm::IRBuilder<> eb(&F->getEntryBlock(), F->getEntryBlock().begin());
    return eb.CreateAlloca(i64());
  }

  // The per-split-axis coordinates of cell number i (row-major).
  std::vector<Value*> digits(const SNode& s, Value* i) {
    std::vector<Value*> d(s.split_axes.size());
    for (size_t a = d.size(); a-- > 0;) {
      int64_t ext = s.extent[(size_t)s.split_axes[a]];
      d[a] = B.CreateURem(i, c64(ext));
      i = B.CreateUDiv(i, c64(ext));
    }
    return d;
  }

  // counts[lo, hi) -> exclusive prefix sums from `start`; returns the sum
  // past hi.
  Value* scan_range(Value* counts, Value* lo, Value* hi, Value* start) {
    llvm::AllocaInst* sum = entry_alloca();
    B.CreateStore(start, sum);
    loop(lo, hi, c64(1), [&](Value* k) {
      Value* slot = at(counts, k);
      Value* c = B.CreateLoad(i64(), slot);
      Value* before = B.CreateLoad(i64(), sum);
      B.CreateStore(before, slot);
      B.CreateStore(B.CreateAdd(before, c), sum);
    });
    return B.CreateLoad(i64(), sum);
  }
  // The CPU's scan: one loop.
  void serial_scan() {
    Value *counts = F->getArg(0), *n = F->getArg(1);
    B.CreateStore(scan_range(counts, c64(0), n, c64(0)), at(counts, n));
    B.CreateRetVoid();
  }
  // The device's scan, one block of kListScanThreads threads (the engine
  // launches it so): thread t sums its slice of the counts, the block scans
  // the slices' sums in shared memory (log2 T rounds, each read then written
  // between barriers), then each thread writes its slice's prefix sums from
  // the sum of the slices before it. One thread alone read a level's counts
  // one after another at the memory's latency.
  void block_scan(const std::string& prefix) {
    constexpr int T = kListScanThreads;
    Value *counts = F->getArg(0), *n = F->getArg(1);
    auto* arr = llvm::ArrayType::get(i64(), T);
    auto* sums = new llvm::GlobalVariable(M, arr, false, llvm::GlobalValue::InternalLinkage, llvm::UndefValue::get(arr),
                                          prefix + "scan_sums", nullptr, llvm::GlobalValue::NotThreadLocal, 3);
    auto slot = [&](Value* i) { return B.CreateInBoundsGEP(arr, sums, {c64(0), i}); };
    auto barrier = [&] { B.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {}); };
    Value* t = B.CreateZExt(B.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, {}, {}), i64());
    Value* per = B.CreateUDiv(B.CreateAdd(n, c64(T - 1)), c64(T));
    Value* lo = min(B.CreateMul(t, per), n);
    Value* hi = min(B.CreateAdd(lo, per), n);
    llvm::AllocaInst* sum = entry_alloca();
    B.CreateStore(c64(0), sum);
    loop(lo, hi, c64(1), [&](Value* k) { B.CreateStore(B.CreateAdd(B.CreateLoad(i64(), sum), B.CreateLoad(i64(), at(counts, k))), sum); });
    B.CreateStore(B.CreateLoad(i64(), sum), slot(t));
    barrier();
    for (int d = 1; d < T; d *= 2) {  // inclusive scan of the slices' sums
      Value* has = B.CreateICmpUGE(t, c64(d));
      Value* from = B.CreateLoad(i64(), slot(B.CreateSelect(has, B.CreateSub(t, c64(d)), t)));
      Value* add = B.CreateSelect(has, from, c64(0));
      barrier();
      B.CreateStore(B.CreateAdd(B.CreateLoad(i64(), slot(t)), add), slot(t));
      barrier();
    }
    Value* has_before = B.CreateICmpUGT(t, c64(0));
    Value* before = B.CreateSelect(has_before, B.CreateLoad(i64(), slot(B.CreateSelect(has_before, B.CreateSub(t, c64(1)), t))), c64(0));
    scan_range(counts, lo, hi, before);
    when(B.CreateICmpEQ(t, c64(T - 1)), [&] { B.CreateStore(B.CreateLoad(i64(), slot(t)), at(counts, n)); });
    B.CreateRetVoid();
  }

  llvm::Function* open(const std::string& name, llvm::FunctionType* t) {
    F = llvm::Function::Create(t, llvm::Function::ExternalLinkage, name, M);
    F->addFnAttr(llvm::Attribute::NoUnwind);
    B.SetInsertPoint(BasicBlock::Create(C, "entry", F));
    return F;
  }
};

}  // namespace

void build_listgen(llvm::Module& m, const SNode& t, int nidx, const std::string& prefix, bool gpu) {
  ListGen g(m, gpu);
  llvm::Type* ptr = g.B.getPtrTy();
  llvm::Type* i64 = g.B.getInt64Ty();
  size_t levels = t.path.size();
  for (size_t s = 0; s < levels; s++) {
    const SNode& node = *t.path[s];
    // count: counts[w] = the active cells of item w.
    g.open(prefix + "count" + std::to_string(s), llvm::FunctionType::get(g.B.getVoidTy(), {ptr, i64, i64, ptr}, false));
    {
      Value *in = g.F->getArg(0), *counts = g.F->getArg(3);
      g.each(g.F->getArg(1), g.F->getArg(2), [&](Value* w) {
        auto [entry, q] = g.item(node, in, w);
        g.B.CreateStore(g.count_active(node, g.B.CreateLoad(ptr, entry), q), g.at(counts, w));
      });
      g.B.CreateRetVoid();
    }
    // write: the active cells' entries (rows at the last level) at offsets[w].
    g.open(prefix + "write" + std::to_string(s), llvm::FunctionType::get(g.B.getVoidTy(), {ptr, i64, i64, ptr, ptr}, false));
    {
      Value *in = g.F->getArg(0), *offsets = g.F->getArg(3), *out = g.F->getArg(4);
      llvm::AllocaInst* o = g.entry_alloca();
      bool last = s + 1 == levels;
      int64_t width = last ? nidx + 1 : kListEntryWords;
      g.each(g.F->getArg(1), g.F->getArg(2), [&](Value* w) {
        auto [entry, q] = g.item(node, in, w);
        Value* c = g.B.CreateLoad(ptr, entry);
        std::vector<Value*> base(kMaxIndices);
        for (int p = 0; p < kMaxIndices; p++) base[(size_t)p] = g.B.CreateLoad(i64, g.at(entry, g.c64(1 + p)));
        g.B.CreateStore(g.B.CreateMul(g.B.CreateLoad(i64, g.at(offsets, w)), g.c64(width)), o);
        g.each_active(node, c, q, [&](Value* i, Value* addr) {
          std::vector<Value*> d = g.digits(node, i);
          Value* row = g.at(out, g.B.CreateLoad(i64, o));
          if (last) {
            // Program::active_cells: the SNode's own coordinates, the base
            // divided by what one cell spans, plus the cell's coordinates.
            const auto& below = t.path_below.back();
            const auto& pip = t.physical_index_position;
            for (int v = 0; v < nidx; v++) {
              int p = v < (int)pip.size() ? pip[(size_t)v] : v;
              Value* x = below[(size_t)p] == 1 ? base[(size_t)p] : g.B.CreateSDiv(base[(size_t)p], g.c64(below[(size_t)p]));
              for (size_t a = 0; a < node.split_axes.size(); a++)
                if (node.split_axes[a] == p) x = g.B.CreateAdd(x, d[a]);
              g.B.CreateStore(x, g.at(row, g.c64(v)));
            }
            g.B.CreateStore(g.B.CreatePtrToInt(addr, i64), g.at(row, g.c64(nidx)));
          } else {
            // Program::listgen: the child's container in this cell, its first index.
            const SNode& child = *t.path[s + 1];
            const auto& below = t.path_below[s];
            g.B.CreateStore(g.byte_at(addr, g.c64(child.offset_in_cell)), row);
            for (int p = 0; p < kMaxIndices; p++) {
              Value* x = base[(size_t)p];
              for (size_t a = 0; a < node.split_axes.size(); a++)
                if (node.split_axes[a] == p) x = g.B.CreateAdd(x, g.B.CreateMul(d[a], g.c64(below[(size_t)p])));
              g.B.CreateStore(x, g.at(row, g.c64(1 + p)));
            }
          }
          g.B.CreateStore(g.B.CreateAdd(g.B.CreateLoad(i64, o), g.c64(width)), o);
        });
      });
      g.B.CreateRetVoid();
    }
  }
  // scan: exclusive prefix sums in place, the total at counts[n].
  g.open(prefix + "scan", llvm::FunctionType::get(g.B.getVoidTy(), {ptr, i64}, false));
  if (gpu)
    g.block_scan(prefix);
  else
    g.serial_scan();
}

}  // namespace kiln::llvmjit

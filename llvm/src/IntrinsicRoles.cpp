//===- IntrinsicRoles.cpp - what vbd-add-sc does with each intrinsic ------===//

#include "IntrinsicRoles.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ModRef.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;

namespace vbd {

namespace {

bool isHint(Intrinsic::ID ID) {
  switch (ID) {
  // What IntrinsicInst::isAssumeLikeIntrinsic names: facts for the
  // optimiser, debug information, lifetime and invariance markers.
  case Intrinsic::assume:
  case Intrinsic::sideeffect:
  case Intrinsic::pseudoprobe:
  case Intrinsic::dbg_assign:
  case Intrinsic::dbg_declare:
  case Intrinsic::dbg_value:
  case Intrinsic::dbg_label:
  case Intrinsic::invariant_start:
  case Intrinsic::invariant_end:
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::experimental_noalias_scope_decl:
  case Intrinsic::objectsize:
  case Intrinsic::ptr_annotation:
  case Intrinsic::var_annotation:
  // A prefetch changes no value another thread can see.
  case Intrinsic::prefetch:
  // The stack pointer, which is this thread's own.
  case Intrinsic::stacksave:
  case Intrinsic::stackrestore:
    return true;
  default:
    return false;
  }
}

bool isCopy(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::memcpy:
  case Intrinsic::memcpy_inline:
  case Intrinsic::memmove:
  case Intrinsic::memset:
  case Intrinsic::memset_inline:
    return true;
  default:
    return false;
  }
}

// The target whose table declares an intrinsic: generic, x86, aarch64, or
// another.
StringRef targetOf(StringRef Name) {
  Name.consume_front("llvm.");
  StringRef Prefix = Name.split('.').first;
  if (Prefix == "x86" || Prefix == "aarch64")
    return Prefix;
  for (StringRef T : {"amdgcn", "r600", "arm", "bpf", "dx", "hexagon",
                      "loongarch", "mips", "nvvm", "ppc", "riscv", "s390",
                      "spv", "ve", "wasm", "xcore"})
    if (Prefix == T)
      return "other";
  return "generic";
}

} // namespace

IntrinsicRole intrinsicRole(Intrinsic::ID ID, LLVMContext &Ctx) {
  if (isCopy(ID))
    return IntrinsicRole::Copy;
  if (isHint(ID))
    return IntrinsicRole::Hint;
  MemoryEffects ME = Intrinsic::getAttributes(Ctx, ID).getMemoryEffects();
  if (ME.doesNotAccessMemory())
    return IntrinsicRole::NoMemory;
  if (ME.onlyAccessesInaccessibleMem())
    return IntrinsicRole::OwnMemory;
  return IntrinsicRole::Ordered;
}

StringRef roleName(IntrinsicRole R) {
  switch (R) {
  case IntrinsicRole::NoMemory:
    return "no-memory";
  case IntrinsicRole::OwnMemory:
    return "own-memory";
  case IntrinsicRole::Hint:
    return "hint";
  case IntrinsicRole::Copy:
    return "copy";
  case IntrinsicRole::Ordered:
    return "ordered";
  }
  llvm_unreachable("unknown role");
}

PreservedAnalyses IntrinsicTablePass::run(Module &M,
                                          ModuleAnalysisManager &) {
  raw_ostream &OS = outs();
  // Per role, the number of intrinsics of each target.
  std::map<std::string, std::map<std::string, unsigned>> Counts;
  unsigned All = 0;
  for (unsigned I = 1; I < Intrinsic::num_intrinsics; ++I) {
    auto ID = static_cast<Intrinsic::ID>(I);
    IntrinsicRole R = intrinsicRole(ID, M.getContext());
    StringRef Name = Intrinsic::getBaseName(ID);
    ++All;
    ++Counts[roleName(R).str()][targetOf(Name).str()];
    if (R != IntrinsicRole::NoMemory)
      OS << roleName(R) << ' ' << Name << '\n';
  }
  OS << "intrinsics " << All << '\n';
  for (auto &[Role, PerTarget] : Counts) {
    unsigned Sum = 0;
    for (auto &[Target, N] : PerTarget)
      Sum += N;
    OS << "count " << Role << ' ' << Sum;
    for (StringRef T : {"generic", "x86", "aarch64", "other"})
      OS << ' ' << T << ' ' << PerTarget[T.str()];
    OS << '\n';
  }
  return PreservedAnalyses::all();
}

} // namespace vbd

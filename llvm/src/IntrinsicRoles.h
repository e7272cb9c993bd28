//===- IntrinsicRoles.h - what vbd-add-sc does with each intrinsic -*- C++ -*-===//
//
// Decided from LLVM's intrinsic tables (Intrinsics.td and each target's), so
// that an intrinsic added to them is ordered unless it is shown harmless:
// none is passed over for being unknown.
//===----------------------------------------------------------------------===//

#ifndef VBD_INTRINSICROLES_H
#define VBD_INTRINSICROLES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class LLVMContext;
}

namespace vbd {

enum class IntrinsicRole {
  // The tables say it touches no memory.
  NoMemory,
  // Only memory the program cannot name (the floating-point environment, a
  // random number generator's state).
  OwnMemory,
  // Touches memory only in name: a hint to the optimiser or the hardware
  // (assume, lifetime markers, prefetch) or the stack pointer.
  Hint,
  // memcpy, memmove, memset: made SC element by element, or whole.
  Copy,
  // Anything else that may read or write memory: ordered whole between two
  // seq_cst fences.
  Ordered,
};

IntrinsicRole intrinsicRole(llvm::Intrinsic::ID ID, llvm::LLVMContext &Ctx);
llvm::StringRef roleName(IntrinsicRole R);

// opt -passes=vbd-intrinsic-table: every intrinsic that touches memory, with
// its role, then a count per role and target.
struct IntrinsicTablePass : llvm::PassInfoMixin<IntrinsicTablePass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace vbd

#endif

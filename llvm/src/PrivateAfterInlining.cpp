//===- PrivateAfterInlining.cpp - vbd-private: locals private once inlined ===//
//
// vbd-add-sc runs before inlining, so a local whose address is handed to a
// small function (a getter, an out-parameter, a struct passed by pointer)
// counts as escaped and its accesses are SC.  Once the callee is inlined the
// address may no longer escape at all; then no other thread can ever name
// the local, and its accesses need no order.  Only the atomicity vbd added is
// removed: a programmer's atomic, and `volatile`, stay.  SROA runs after it,
// since atomic accesses had kept it from putting such locals in registers.
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "Passes.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

#define DEBUG_TYPE "vbd-private"

// The LLVM packages are release builds, where STATISTIC counts nothing.
ALWAYS_ENABLED_STATISTIC(
    NumMadePlain,
    "seq_cst loads and stores made plain: local private once inlined");

namespace vbd {

namespace {

// A seq_cst access of vbd's to memory only this thread can name.
bool isPrivateSC(Instruction &I, PrivateMemory &Private) {
  if (isUserAtomic(&I))
    return false;
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return LI->getOrdering() == AtomicOrdering::SequentiallyConsistent &&
           Private.isPrivate(LI->getPointerOperand());
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return SI->getOrdering() == AtomicOrdering::SequentiallyConsistent &&
           Private.isPrivate(SI->getPointerOperand());
  return false;
}

} // namespace

PreservedAnalyses PrivateAfterInliningPass::run(Function &F,
                                                FunctionAnalysisManager &) {
  PrivateMemory Private;
  SmallVector<Instruction *, 16> Plain;
  for (Instruction &I : instructions(F))
    if (isPrivateSC(I, Private))
      Plain.push_back(&I);
  for (Instruction *I : Plain) {
    if (auto *LI = dyn_cast<LoadInst>(I))
      LI->setAtomic(AtomicOrdering::NotAtomic);
    else
      cast<StoreInst>(I)->setAtomic(AtomicOrdering::NotAtomic);
  }
  NumMadePlain += Plain.size();
  return Plain.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace vbd

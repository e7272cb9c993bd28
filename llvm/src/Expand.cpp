//===- Expand.cpp - vbd-expand: SC accesses as the target lowers them -----===//
//
// Runs last, just before code generation.  seq_cst accesses that the target
// cannot lower as single atomic instructions (too wide, under-aligned) are
// turned back into fenced volatile accesses, and with the mfence store style
// every SC access is lowered to the fenced volatile form (MOV+MFENCE instead
// of XCHG for stores on x86).  On x86 it then drops the barriers TSO does not
// need and, with XCHG stores, makes each remaining fence a locked operation
// on the stack.  Only seq_cst accesses without !vbd.user are touched.
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

#define DEBUG_TYPE "vbd-expand"

// The LLVM packages are release builds, where STATISTIC counts nothing.
ALWAYS_ENABLED_STATISTIC(NumLoadsFenced,
                         "seq_cst loads lowered as fenced volatile loads");
ALWAYS_ENABLED_STATISTIC(NumStoresFenced,
                         "seq_cst stores lowered as fenced volatile stores");
ALWAYS_ENABLED_STATISTIC(
    NumFencesNoStorePending,
    "Fences pruned (x86-TSO): no path reaches them with a store pending");
ALWAYS_ENABLED_STATISTIC(
    NumFencesBarrierFollows,
    "Fences pruned (x86-TSO): another barrier follows before any load");
ALWAYS_ENABLED_STATISTIC(
    NumStoresReleased,
    "SC stores made plain MOVs (x86-TSO): another barrier follows before any "
    "load");
ALWAYS_ENABLED_STATISTIC(NumFencesLocked,
                         "Fences made a locked OR on the stack");

namespace vbd {

namespace {

// An atomic the backend would have to turn into a libatomic call (wider than
// a pointer, or not naturally aligned).  Such calls would need -latomic at
// link time and would take a lock, so they are lowered as fenced volatiles.
bool lowersNatively(Type *Ty, Align A, const DataLayout &DL) {
  uint64_t Bytes = DL.getTypeStoreSize(Ty).getFixedValue();
  return Bytes <= DL.getPointerSize() && A.value() >= Bytes;
}

// vbd's seq_cst accesses of the module that need the fenced volatile form.
SmallVector<Instruction *, 64> accessesToFence(Module &M, StoreStyle S) {
  const DataLayout &DL = M.getDataLayout();
  SmallVector<Instruction *, 64> Fenced;
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      if (isUserAtomic(&I))
        continue;
      if (auto *LI = dyn_cast<LoadInst>(&I)) {
        if (LI->getOrdering() == AtomicOrdering::SequentiallyConsistent &&
            (S == StoreStyle::Mfence ||
             !lowersNatively(LI->getType(), LI->getAlign(), DL)))
          Fenced.push_back(LI);
      } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
        if (SI->getOrdering() == AtomicOrdering::SequentiallyConsistent &&
            (S == StoreStyle::Mfence ||
             !lowersNatively(SI->getValueOperand()->getType(),
                             SI->getAlign(), DL)))
          Fenced.push_back(SI);
      }
    }
  return Fenced;
}

void fenceAccess(Instruction *I) {
  if (auto *LI = dyn_cast<LoadInst>(I)) {
    fenceLoad(LI);
    ++NumLoadsFenced;
  } else {
    fenceStore(cast<StoreInst>(I));
    ++NumStoresFenced;
  }
}

// A store x86 may let a later store pass: non-temporal, or an intrinsic's,
// whose kind the pass does not tell apart.
bool isWeakStore(const Instruction &I) {
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return SI->hasMetadata(LLVMContext::MD_nontemporal);
  auto *II = dyn_cast<IntrinsicInst>(&I);
  return II && !isa<MemIntrinsic>(II) && !isAssumeLikeIntrinsic(II) &&
         II->mayWriteToMemory() && !II->onlyAccessesInaccessibleMemory();
}

enum class Behind { WeakStore, Barrier, BlockStart };

// What comes first walking back from I in its block: a weakly ordered
// store, a barrier (as IsBarrier tells), or the start of the block.
template <typename BarrierTest>
Behind firstBehind(const Instruction *I, BarrierTest IsBarrier) {
  for (const Instruction *P = I->getPrevNode(); P; P = P->getPrevNode()) {
    if (isWeakStore(*P))
      return Behind::WeakStore;
    if (IsBarrier(*P))
      return Behind::Barrier;
  }
  return Behind::BlockStart;
}

// Does a weakly ordered store come before I in its block with no fence
// between?
bool followsWeakStore(const Instruction *I) {
  return firstBehind(I, [](const Instruction &P) {
           return isa<FenceInst>(P) || isa<AtomicRMWInst>(P) ||
                  isa<AtomicCmpXchgInst>(P);
         }) == Behind::WeakStore;
}

// x86 keeps every order but one: a store followed by a load of another
// location (TSO).  A full barrier (MFENCE, a locked instruction, XCHG) is
// needed only between a store and a later load.  Code sc-cc compiles keeps
// this invariant: every store it leaves plain is followed, on every path,
// by a full barrier before any load and before any call or return.  So a
// function starts, and a call of a function sc-cc compiled returns, with no
// store pending (a call into the C library is followed by its own fence;
// relaxed code and other code not compiled by sc-cc are the exceptions,
// llvm/README.md), and:
//   * a fence that no path reaches with a store pending (since the last full
//     barrier or the function's entry) is dropped: a forward data flow over
//     the blocks, computed once, since dropping such a fence changes no
//     block's state;
//   * then, in program order on the code as the earlier steps left it, a
//     fence after which every path meets another full barrier before any
//     load is dropped, and an SC store (XCHG) with the same property becomes
//     a plain MOV (a release store).  A barrier that a later step removes was
//     itself removed only for a barrier further on, with no load between, so
//     every store and later load stay separated.
// The forward walks follow a block's single successor; a branch, a call that
// may read memory, a return or too long a walk ends them with the barrier
// kept.  Memory no other thread can name (a local whose address does not
// escape, a constant) counts as no access.  A dropped fence leaves a
// compiler-only fence (syncscope("singlethread")) in its place, so that code
// generation still keeps the accesses on either side in order.  All of this
// holds for ordinary stores only: x86 lets a later store pass a
// non-temporal one (MOVNT*, MASKMOVDQU), so a barrier after a weakly ordered
// store, or after an intrinsic that writes (which may be one), is kept
// whatever follows it.  Nothing of this holds for weaker hardware (AArch64,
// POWER), which keeps every barrier.
class TsoBarriers {
  static constexpr unsigned MaxSteps = 256;
  const DataLayout &DL;
  const TargetLibraryInfoImpl &KnownFunctions;
  PrivateMemory Private;

  bool isFullBarrier(const Instruction &I) const {
    if (auto *F = dyn_cast<FenceInst>(&I))
      return F->getOrdering() == AtomicOrdering::SequentiallyConsistent &&
             F->getSyncScopeID() == SyncScope::System;
    if (isa<AtomicCmpXchgInst>(I))
      return true;
    if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      // An RMW that changes nothing may be lowered to a plain load unless
      // it is seq_cst.
      if (RMW->getOrdering() == AtomicOrdering::SequentiallyConsistent)
        return true;
      auto *C = dyn_cast<ConstantInt>(RMW->getValOperand());
      return RMW->getOperation() == AtomicRMWInst::Xchg || !C ||
             !(C->isZero() || C->isMinusOne());
    }
    if (auto *SI = dyn_cast<StoreInst>(&I))
      return SI->getOrdering() == AtomicOrdering::SequentiallyConsistent &&
             lowersNatively(SI->getValueOperand()->getType(), SI->getAlign(),
                            DL);
    return false;
  }

  // Does I load (Write false) or store (Write true) memory another thread
  // can name?
  bool touchesShared(Instruction &I, bool Write) {
    if (isa<FenceInst>(I) || isAssumeLikeIntrinsic(&I))
      return false;
    if (auto *LI = dyn_cast<LoadInst>(&I))
      return !Write && !Private.isUnshared(LI->getPointerOperand());
    if (auto *SI = dyn_cast<StoreInst>(&I))
      return Write && !Private.isUnshared(SI->getPointerOperand());
    if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
      if (Write)
        return !Private.isUnshared(MI->getRawDest());
      auto *MT = dyn_cast<MemTransferInst>(MI);
      return MT && !Private.isUnshared(MT->getRawSource());
    }
    return Write ? I.mayWriteToMemory() : I.mayReadFromMemory();
  }

  // May a weakly ordered store be pending before I: one since the last full
  // barrier in its block, or, where the block has none before I, anywhere in
  // a function that has one.
  bool mayFollowWeakStore(Instruction *I, bool FunctionHasWeakStores) {
    return FunctionHasWeakStores &&
           firstBehind(I, [this](const Instruction &P) {
             return isFullBarrier(P);
           }) != Behind::Barrier;
  }

  bool reads(Instruction &I) { return touchesShared(I, /*Write=*/false); }
  bool writes(Instruction &I) { return touchesShared(I, /*Write=*/true); }

  // A direct call of a function sc-cc compiles: not the C library, not
  // relaxed, not assembly, not through a pointer (which may reach anything).
  bool callsCompiledCode(const Instruction &I) const {
    auto *CB = dyn_cast<CallBase>(&I);
    if (!CB || isa<IntrinsicInst>(CB) || CB->isInlineAsm())
      return false;
    const Function *Callee = CB->getCalledFunction();
    return Callee && !Callee->hasFnAttribute(RelaxedAttr) &&
           !(Callee->isDeclaration() && isCLibrary(*Callee, KnownFunctions));
  }

  // Is a store pending after I, given whether one was before it?
  bool pendingAfter(Instruction &I, bool Pending) {
    if (isFullBarrier(I) || callsCompiledCode(I))
      return false;
    return Pending || writes(I);
  }

  // Fences that no path reaches with a store pending.
  SmallVector<FenceInst *, 16> unneededFences(Function &F) {
    DenseMap<BasicBlock *, bool> PendingOut;
    auto PendingIn = [&](BasicBlock &BB) {
      if (&BB == &F.getEntryBlock())
        return false;
      for (BasicBlock *P : predecessors(&BB))
        if (PendingOut.lookup(P))
          return true;
      return false;
    };
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (BasicBlock &BB : F) {
        bool Pending = PendingIn(BB);
        for (Instruction &I : BB)
          Pending = pendingAfter(I, Pending);
        if (Pending && !PendingOut.lookup(&BB)) {
          PendingOut[&BB] = true;
          Changed = true;
        }
      }
    }
    SmallVector<FenceInst *, 16> Unneeded;
    for (BasicBlock &BB : F) {
      bool Pending = PendingIn(BB);
      for (Instruction &I : BB) {
        auto *FI = dyn_cast<FenceInst>(&I);
        if (FI && !Pending && !isUserAtomic(FI) && isFullBarrier(*FI))
          Unneeded.push_back(FI);
        Pending = pendingAfter(I, Pending);
      }
    }
    return Unneeded;
  }

  // Does every path from I (exclusive) meet a full barrier before a load,
  // a call that may load, or the function's end?
  bool loadFreeUntilBarrier(Instruction *I) {
    SmallPtrSet<BasicBlock *, 8> Seen{I->getParent()};
    Instruction *Cur = I;
    for (unsigned N = 0; N < MaxSteps; ++N) {
      if (Instruction *Next = Cur->getNextNode()) {
        Cur = Next;
      } else {
        BasicBlock *S = Cur->getParent()->getUniqueSuccessor();
        if (!S || !Seen.insert(S).second)
          return false;
        Cur = &S->front();
      }
      if (isFullBarrier(*Cur))
        return true;
      if (reads(*Cur) || isa<ReturnInst>(Cur) || isa<UnreachableInst>(Cur) ||
          isa<InvokeInst>(Cur))
        return false;
    }
    return false;
  }

  static void keepForCompilerOnly(FenceInst *FI) {
    IRBuilder<> B(FI);
    tag(B.CreateFence(AtomicOrdering::SequentiallyConsistent,
                      SyncScope::SingleThread));
    FI->eraseFromParent();
  }

public:
  TsoBarriers(const DataLayout &DL, const TargetLibraryInfoImpl &KnownFunctions)
      : DL(DL), KnownFunctions(KnownFunctions) {}

  // Returns whether any barrier was removed.
  bool run(Function &F) {
    SmallVector<FenceInst *, 16> Unneeded = unneededFences(F);
    for (FenceInst *FI : Unneeded)
      keepForCompilerOnly(FI);
    NumFencesNoStorePending += Unneeded.size();
    SmallVector<Instruction *, 32> Candidates;
    for (Instruction &I : instructions(F))
      if (!isUserAtomic(&I) && isFullBarrier(I) &&
          (isa<FenceInst>(I) || isa<StoreInst>(I)))
        Candidates.push_back(&I);
    bool Removed = !Unneeded.empty();
    bool HasWeakStores = any_of(instructions(F), isWeakStore);
    for (Instruction *I : Candidates) {
      if (mayFollowWeakStore(I, HasWeakStores) || !loadFreeUntilBarrier(I))
        continue;
      if (auto *SI = dyn_cast<StoreInst>(I)) {
        SI->setOrdering(AtomicOrdering::Release);
        ++NumStoresReleased;
      } else {
        keepForCompilerOnly(cast<FenceInst>(I));
        ++NumFencesBarrierFollows;
      }
      Removed = true;
    }
    return Removed;
  }
};

// A full barrier that costs what an XCHG does: x86 lowers an unused seq_cst
// `atomicrmw or 0` to `lock orl $0, -64(%rsp)`, a locked operation on a
// stack line no other core holds, where `fence seq_cst` becomes MFENCE, which
// also waits for the loads in flight and costs several times as much on
// current cores.  A fence right after a weakly ordered store stays MFENCE,
// which the architecture manuals of both vendors name as ordering
// non-temporal stores.  The slot the RMW names is never touched: the
// backend picks its own.  Flags are clobbered by the locked OR, which the
// backend knows, unlike an inline `asm("lock orl ...")` without a "cc"
// clobber.
// Returns whether any fence was replaced.
bool lockFences(Function &F) {
  SmallVector<FenceInst *, 16> Fences;
  for (Instruction &I : instructions(F))
    if (auto *FI = dyn_cast<FenceInst>(&I);
        FI && !isUserAtomic(FI) &&
        FI->getOrdering() == AtomicOrdering::SequentiallyConsistent &&
        FI->getSyncScopeID() == SyncScope::System && !followsWeakStore(FI))
      Fences.push_back(FI);
  if (Fences.empty())
    return false;
  IRBuilder<> E(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Slot = E.CreateAlloca(E.getInt32Ty(), nullptr, "vbd.fence.slot");
  for (FenceInst *FI : Fences) {
    IRBuilder<> B(FI);
    tag(B.CreateAtomicRMW(AtomicRMWInst::Or, Slot, B.getInt32(0), Align(4),
                          AtomicOrdering::SequentiallyConsistent));
    FI->eraseFromParent();
  }
  NumFencesLocked += Fences.size();
  return true;
}

} // namespace

PreservedAnalyses ExpandPass::run(Module &M, ModuleAnalysisManager &) {
  std::optional<StoreStyle> Style = S->storeStyle(M.getContext());
  std::optional<Optimisations> Opts = S->optimisations(M.getContext());
  if (!Style || !Opts)
    return PreservedAnalyses::all();
  SmallVector<Instruction *, 64> Fenced = accessesToFence(M, *Style);
  for (Instruction *I : Fenced)
    fenceAccess(I);
  bool Changed = !Fenced.empty();
  Triple T(M.getTargetTriple());
  if (T.isX86()) {
    TargetLibraryInfoImpl KnownFunctions(T);
    const DataLayout &DL = M.getDataLayout();
    for (Function &F : M) {
      if (F.isDeclaration())
        continue;
      if (Opts->TsoBarriers && TsoBarriers(DL, KnownFunctions).run(F))
        Changed = true;
      if (Opts->LockedFences && *Style == StoreStyle::Xchg && lockFences(F))
        Changed = true;
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace vbd

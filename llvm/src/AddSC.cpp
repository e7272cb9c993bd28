//===- AddSC.cpp - vbd-add-sc: every shared access sequentially consistent ===//
//
// Runs at the start of the optimisation pipeline.  Every load and store that
// may touch shared memory becomes a seq_cst atomic, so every later pass has
// to respect SC.  Accesses whose type LLVM cannot make atomic become volatile
// and are fenced at once.  memcpy/memmove/memset, and calls of the C library
// routines that read or write the caller's memory (fortified __*_chk variants
// included), intrinsics that touch memory (masked, gathered, scattered and
// non-temporal accesses among them) and calls that copy shared memory into a
// by-value argument stay whole between two seq_cst fences.  A bit-field
// assignment (load the unit, keep the other fields' bits, store it) becomes
// one compare-exchange loop, so that assignments to neighbouring fields never
// lose each other.  Atomics the programmer wrote are tagged !vbd.user and
// left as they are.
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "IntrinsicRoles.h"
#include "MemOps.h"
#include "Passes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/MemoryBuiltins.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BuildLibCalls.h"

using namespace llvm;

#define DEBUG_TYPE "vbd-add-sc"

// The LLVM packages are release builds, where STATISTIC counts nothing.
ALWAYS_ENABLED_STATISTIC(NumMadeAtomic,
                         "Loads and stores made seq_cst atomics");
ALWAYS_ENABLED_STATISTIC(
    NumMadeFenced,
    "Loads and stores made fenced volatiles (their type has no atomic form)");
ALWAYS_ENABLED_STATISTIC(NumLeftPrivate,
                         "Loads and stores left plain: private memory");
ALWAYS_ENABLED_STATISTIC(NumLeftConstant,
                         "Loads left plain: memory nobody writes");
ALWAYS_ENABLED_STATISTIC(NumLeftRelaxed,
                         "Loads and stores left plain: relaxed code");
ALWAYS_ENABLED_STATISTIC(NumUserAtomics,
                         "Atomics of the program, left as written");
ALWAYS_ENABLED_STATISTIC(
    NumFencedWhole,
    "Copies and C library calls ordered whole between two fences");
ALWAYS_ENABLED_STATISTIC(
    NumIntrinsicsFenced,
    "Intrinsics that touch memory ordered whole between two fences");
ALWAYS_ENABLED_STATISTIC(
    NumByValCallsFenced,
    "Calls copying shared memory into a by-value argument, fenced whole");
ALWAYS_ENABLED_STATISTIC(
    NumBitFieldAssignments,
    "Bit-field assignments made one seq_cst compare-exchange loop");
ALWAYS_ENABLED_STATISTIC(NumCopiesExpanded,
                         "Copies made loops of unordered elements");
ALWAYS_ENABLED_STATISTIC(NumCopiesLeftPrivate,
                         "Copies left plain: private memory");

namespace vbd {

namespace {

constexpr const char *RelaxedAnnotation = "vbd_relaxed";
constexpr const char *BeginMarker = "__vbd_relaxed_begin";
constexpr const char *EndMarker = "__vbd_relaxed_end";

bool isLoadOrStore(const Instruction &I) {
  return isa<LoadInst>(I) || isa<StoreInst>(I);
}

void tagUserAtomics(Function &F) {
  for (Instruction &I : instructions(F)) {
    bool Atomic = isa<FenceInst>(I);
    if (auto *LI = dyn_cast<LoadInst>(&I))
      Atomic = LI->isAtomic();
    else if (auto *SI = dyn_cast<StoreInst>(&I))
      Atomic = SI->isAtomic();
    if (Atomic)
      tagUserAtomic(&I);
  }
}

// Mirrors the Verifier's rules for atomic loads and stores: anything else
// cannot carry an atomic ordering at all and needs the volatile+fence form.
bool canBeAtomic(Type *Ty, const DataLayout &DL) {
  if (!(Ty->isIntegerTy() || Ty->isPointerTy() || Ty->isFloatingPointTy()))
    return false;
  TypeSize Bits = DL.getTypeSizeInBits(Ty);
  if (Bits.isScalable())
    return false;
  uint64_t B = Bits.getFixedValue();
  return B >= 8 && isPowerOf2_64(B);
}

// The paper's semantics for a copy, kept whole: a seq_cst fence on either
// side orders the operation against the rest of the thread, and nothing
// orders its bytes among themselves.  The backend lowers a small constant
// copy to a few wide moves and a large one to the C library's own routine,
// which the byte loops of the paper's form cannot match.
void fenceAround(CallBase *CB) {
  IRBuilder<> B(CB);
  tag(B.CreateFence(AtomicOrdering::SequentiallyConsistent));
  // Nothing may come between a musttail call and its return, so such a
  // call's stores are not fenced after it (a hole, llvm/README.md).
  if (auto *CI = dyn_cast<CallInst>(CB); CI && CI->isMustTailCall())
    return;
  if (auto *II = dyn_cast<InvokeInst>(CB))
    B.SetInsertPoint(II->getNormalDest()->getFirstInsertionPt());
  else
    B.SetInsertPoint(CB->getNextNode());
  tag(B.CreateFence(AtomicOrdering::SequentiallyConsistent));
}

//===----------------------------------------------------------------------===//
// Relaxed scopes
//===----------------------------------------------------------------------===//

// Functions annotated with __attribute__((annotate("vbd_relaxed"))) appear in
// llvm.global.annotations; turn that into a function attribute so that the
// decision survives into per-function code and is visible in IR tests.
void markAnnotatedRelaxed(Module &M) {
  GlobalVariable *GA = M.getGlobalVariable("llvm.global.annotations");
  if (!GA || !GA->hasInitializer())
    return;
  auto *Arr = dyn_cast<ConstantArray>(GA->getInitializer());
  if (!Arr)
    return;
  for (Value *Op : Arr->operands()) {
    auto *Entry = dyn_cast<ConstantStruct>(Op);
    if (!Entry || Entry->getNumOperands() < 2)
      continue;
    auto *F = dyn_cast<Function>(Entry->getOperand(0)->stripPointerCasts());
    auto *StrGV =
        dyn_cast<GlobalVariable>(Entry->getOperand(1)->stripPointerCasts());
    if (!F || !StrGV || !StrGV->hasInitializer())
      continue;
    auto *Str = dyn_cast<ConstantDataSequential>(StrGV->getInitializer());
    if (Str && Str->isCString() && Str->getAsCString() == RelaxedAnnotation)
      F->addFnAttr(RelaxedAttr);
  }
}

bool isMarkerCall(const Instruction &I, StringRef Name) {
  auto *CI = dyn_cast<CallBase>(&I);
  if (!CI)
    return false;
  Function *Callee = CI->getCalledFunction();
  return Callee && Callee->getName().contains(Name);
}

// Everything reachable from a begin marker without passing an end marker is
// relaxed.  This is the dynamic extent of the scope, so a loop between the
// markers is covered whole, and an early return leaves the scope.
SmallPtrSet<Instruction *, 32>
collectRelaxedRegion(Function &F, SmallVectorImpl<Instruction *> &Markers) {
  SmallPtrSet<Instruction *, 32> Relaxed;
  SmallVector<Instruction *, 4> Begins;
  for (Instruction &I : instructions(F)) {
    if (isMarkerCall(I, BeginMarker)) {
      Begins.push_back(&I);
      Markers.push_back(&I);
    } else if (isMarkerCall(I, EndMarker)) {
      Markers.push_back(&I);
    }
  }
  SmallPtrSet<BasicBlock *, 16> Visited;
  SmallVector<BasicBlock *, 16> Work;
  auto ScanFrom = [&](BasicBlock::iterator It, BasicBlock *BB) {
    for (; It != BB->end(); ++It) {
      if (isMarkerCall(*It, EndMarker))
        return;
      Relaxed.insert(&*It);
    }
    for (BasicBlock *S : successors(BB))
      if (Visited.insert(S).second)
        Work.push_back(S);
  };
  for (Instruction *B : Begins)
    ScanFrom(std::next(B->getIterator()), B->getParent());
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    ScanFrom(BB->begin(), BB);
  }
  return Relaxed;
}

void eraseUnusedMarkers(Module &M) {
  for (Function &F : make_early_inc_range(M))
    if ((F.getName().contains(BeginMarker) ||
         F.getName().contains(EndMarker)) &&
        F.use_empty() && (F.isDeclaration() || F.hasLocalLinkage() ||
                          F.hasLinkOnceLinkage()))
      F.eraseFromParent();
}

//===----------------------------------------------------------------------===//
// Bit-field assignments
//===----------------------------------------------------------------------===//

bool dependsOn(Value *V, const Instruction *On, unsigned Depth = 0) {
  if (V == On)
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 8 || I->getParent() != On->getParent())
    return false;
  return any_of(I->operands(),
                [&](Value *Op) { return dependsOn(Op, On, Depth + 1); });
}

// The load of a store that writes back what it loaded with some bits kept
// and others set: clang's form of a bit-field assignment, `unit & C` or
// `(unit & C) | bits` with the new bits computed apart from the unit.
LoadInst *maskedSource(StoreInst *SI) {
  using namespace PatternMatch;
  Value *V = SI->getValueOperand();
  Value *Kept, *Bits = nullptr;
  if (!match(V, m_c_Or(m_Value(Kept), m_Value(Bits))))
    Kept = V;
  Value *Unit;
  if (!match(Kept, m_And(m_Value(Unit), m_ConstantInt())))
    return nullptr;
  auto *LI = dyn_cast<LoadInst>(Unit);
  if (!LI || (Bits && dependsOn(Bits, LI)))
    return nullptr;
  return LI;
}

// The load and the store of one naturally aligned unit that one instruction
// can exchange (a packed record's unit, or one of three bytes, cannot: a
// hole), in one block with nothing between them that touches memory or has
// an effect, so that the code between can run again.
bool isOneAssignment(LoadInst *LI, StoreInst *SI, const DataLayout &DL) {
  if (LI->getParent() != SI->getParent() ||
      LI->getPointerOperand() != SI->getPointerOperand() ||
      !LI->getType()->isIntegerTy() || !canBeAtomic(LI->getType(), DL) ||
      LI->getAlign().value() < DL.getTypeStoreSize(LI->getType()) ||
      SI->getAlign().value() < DL.getTypeStoreSize(LI->getType()))
    return false;
  for (Instruction *I = LI->getNextNode(); I != SI; I = I->getNextNode())
    if (!I || I->mayReadOrWriteMemory() || I->mayHaveSideEffects())
      return false;
  return true;
}

// load; compute; store  becomes
//   loop: old = load seq_cst; compute; cmpxchg seq_cst old -> new; retry
// A failed attempt changed nothing and only read, so the execution is the
// interleaving in which the successful attempt ran alone.
void makeCompareExchange(LoadInst *LI, StoreInst *SI) {
  BasicBlock *Loop = LI->getParent()->splitBasicBlock(LI, "vbd.bitfield");
  BasicBlock *Done =
      Loop->splitBasicBlock(SI->getNextNode(), "vbd.bitfield.done");
  LI->setAtomic(AtomicOrdering::SequentiallyConsistent);
  tag(LI);
  IRBuilder<> B(SI);
  AtomicCmpXchgInst *CX = B.CreateAtomicCmpXchg(
      SI->getPointerOperand(), LI, SI->getValueOperand(), SI->getAlign(),
      AtomicOrdering::SequentiallyConsistent,
      AtomicOrdering::SequentiallyConsistent);
  CX->setVolatile(LI->isVolatile() || SI->isVolatile());
  tag(CX);
  Value *Stored = B.CreateExtractValue(CX, 1);
  Loop->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Loop);
  B.CreateCondBr(Stored, Done, Loop);
  SI->eraseFromParent();
}

//===----------------------------------------------------------------------===//
// One function
//===----------------------------------------------------------------------===//

class AddSC {
  const DataLayout &DL;
  AAResults &AA;
  const TargetLibraryInfo &TLI;
  const TargetLibraryInfoImpl &KnownFunctions;
  Optimisations Opts;
  PrivateMemory Private;

  // What a function's accesses become, collected before any is changed.
  SmallVector<Instruction *, 64> Accesses;
  SmallVector<MemOp, 8> MemOps;
  SmallVector<CallBase *, 8> Whole;
  SmallVector<std::pair<LoadInst *, StoreInst *>, 4> Assignments;

  // Memory that nobody writes cannot race, so reading it is already SC.
  bool isConstantMemory(LoadInst *LI, const Value *Obj) {
    if (auto *GV = dyn_cast<GlobalVariable>(Obj))
      if (GV->isConstant())
        return true;
    if (LI->hasMetadata(LLVMContext::MD_invariant_load))
      return true;
    return AA.pointsToConstantMemory(MemoryLocation::get(LI));
  }

  bool needsSC(Instruction *I) {
    if (auto *LI = dyn_cast<LoadInst>(I)) {
      if (LI->isAtomic()) {
        ++NumUserAtomics;
        return false;
      }
      const Value *Obj = getUnderlyingObject(LI->getPointerOperand(), 0);
      if (Private.isPrivateObject(Obj)) {
        ++NumLeftPrivate;
        return false;
      }
      if (isConstantMemory(LI, Obj)) {
        ++NumLeftConstant;
        return false;
      }
      return true;
    }
    auto *SI = cast<StoreInst>(I);
    if (SI->isAtomic()) {
      ++NumUserAtomics;
      return false;
    }
    if (Private.isPrivate(SI->getPointerOperand())) {
      ++NumLeftPrivate;
      return false;
    }
    return true;
  }

  // A call into the C library that reads or writes memory the caller can
  // name: the fortified routines (__memcpy_chk, __strcpy_chk, __read_chk and
  // the rest of glibc's __*_chk family), the string and wide-string
  // routines, formatted output into a buffer, input into one.  sc-cc does not
  // compile the library, so such a call is ordered as a whole, like a copy.
  // The allocator's calls order their own memory.  Functions LLVM does not
  // know as the C library's are compiled code like any other, or a hole
  // (llvm/README.md).
  bool isLibraryAccess(CallBase &CB) {
    Function *Callee = CB.getCalledFunction();
    if (!Callee || !Callee->isDeclaration() || Callee->isIntrinsic() ||
        !isCLibrary(*Callee, KnownFunctions))
      return false;
    if (CB.doesNotAccessMemory() || getFreedOperand(&CB, &TLI))
      return false;
    for (Value *Arg : CB.args())
      if (Arg->getType()->isPointerTy() && !Private.isUnshared(Arg))
        return true;
    return false;
  }

  // An intrinsic that reads or writes memory another thread can name: its
  // role from LLVM's tables (IntrinsicRoles.h) is to be ordered, and it may
  // reach more than its pointer arguments or one of them is shared.
  bool isIntrinsicAccess(CallBase &CB) {
    auto *II = dyn_cast<IntrinsicInst>(&CB);
    if (!II ||
        intrinsicRole(II->getIntrinsicID(), II->getContext()) !=
            IntrinsicRole::Ordered ||
        !II->mayReadOrWriteMemory() || II->onlyAccessesInaccessibleMemory())
      return false;
    // Memory it may reach beyond its pointer arguments: anything.
    if (!II->onlyAccessesArgMemory())
      return true;
    return any_of(II->args(), [&](Value *Arg) {
      return Arg->getType()->isPtrOrPtrVectorTy() && !Private.isUnshared(Arg);
    });
  }

  // The caller copies a by-value argument from the memory it passes, as a
  // copy of its own the backend emits: shared memory, ordered as a copy is.
  bool copiesSharedByValue(CallBase &CB) {
    for (unsigned I = 0, E = CB.arg_size(); I < E; ++I)
      if (CB.isByValArgument(I) && !Private.isUnshared(CB.getArgOperand(I)))
        return true;
    return false;
  }

  // Pairs each bit-field store with its load; what is paired leaves the
  // accesses made SC one by one.
  void collectAssignments() {
    SmallPtrSet<Instruction *, 32> Shared(Accesses.begin(), Accesses.end());
    SmallPtrSet<Instruction *, 8> Paired;
    for (Instruction *I : Accesses) {
      auto *SI = dyn_cast<StoreInst>(I);
      if (!SI)
        continue;
      LoadInst *LI = maskedSource(SI);
      if (LI && Shared.count(LI) && !Paired.count(LI) &&
          isOneAssignment(LI, SI, DL)) {
        Assignments.push_back({LI, SI});
        Paired.insert(LI);
        Paired.insert(SI);
      }
    }
    if (!Paired.empty())
      erase_if(Accesses, [&](Instruction *I) { return Paired.count(I); });
  }

  bool memOpNeedsSC(const MemOp &Op) {
    if (!Private.isPrivate(Op.Dst))
      return true;
    if (!Op.Src || Private.isUnshared(Op.Src))
      return false;
    return !AA.pointsToConstantMemory(getUnderlyingObject(Op.Src, 0));
  }

  void collect(Function &F, const SmallPtrSetImpl<Instruction *> &Relaxed) {
    for (Instruction &I : instructions(F)) {
      if (Relaxed.count(&I)) {
        NumLeftRelaxed += isLoadOrStore(I);
        continue;
      }
      if (isLoadOrStore(I)) {
        if (needsSC(&I))
          Accesses.push_back(&I);
      } else if (auto Op = asMemOp(I)) {
        if (!memOpNeedsSC(*Op)) {
          ++NumCopiesLeftPrivate;
          continue;
        }
        if (Opts.WholeCopies) {
          Whole.push_back(cast<CallBase>(&I));
          ++NumFencedWhole;
        } else
          MemOps.push_back(*Op);
      } else if (auto *CB = dyn_cast<CallBase>(&I)) {
        if (isLibraryAccess(*CB)) {
          Whole.push_back(CB);
          ++NumFencedWhole;
        } else if (isIntrinsicAccess(*CB)) {
          Whole.push_back(CB);
          ++NumIntrinsicsFenced;
        } else if (copiesSharedByValue(*CB)) {
          Whole.push_back(CB);
          ++NumByValCallsFenced;
        }
      }
    }
    collectAssignments();
  }

  void makeSC(Instruction *I) {
    // x86 keeps no store behind a non-temporal one, and no barrier the TSO
    // reasoning drops would order it: an SC access is an ordinary one.
    I->setMetadata(LLVMContext::MD_nontemporal, nullptr);
    Type *Ty = isa<LoadInst>(I)
                   ? I->getType()
                   : cast<StoreInst>(I)->getValueOperand()->getType();
    if (!canBeAtomic(Ty, DL)) {
      if (auto *LI = dyn_cast<LoadInst>(I))
        fenceLoad(LI);
      else
        fenceStore(cast<StoreInst>(I));
      ++NumMadeFenced;
      return;
    }
    if (auto *LI = dyn_cast<LoadInst>(I))
      LI->setAtomic(AtomicOrdering::SequentiallyConsistent);
    else
      cast<StoreInst>(I)->setAtomic(AtomicOrdering::SequentiallyConsistent);
    tag(I);
    ++NumMadeAtomic;
  }

  void instrument() {
    for (Instruction *I : Accesses)
      makeSC(I);
    for (auto [LI, SI] : Assignments)
      makeCompareExchange(LI, SI);
    NumBitFieldAssignments += Assignments.size();
    for (const MemOp &Op : MemOps)
      expandMemOp(Op, DL);
    for (CallBase *CB : Whole)
      fenceAround(CB);
    NumCopiesExpanded += MemOps.size();
  }

public:
  AddSC(const DataLayout &DL, AAResults &AA, const TargetLibraryInfo &TLI,
        const TargetLibraryInfoImpl &KnownFunctions, Optimisations Opts)
      : DL(DL), AA(AA), TLI(TLI), KnownFunctions(KnownFunctions), Opts(Opts) {}

  bool run(Function &F) {
    SmallVector<Instruction *, 4> Markers;
    SmallPtrSet<Instruction *, 32> Relaxed = collectRelaxedRegion(F, Markers);
    bool Changed = !Markers.empty();
    for (Instruction *M : Markers)
      M->eraseFromParent();
    if (F.hasFnAttribute(RelaxedAttr)) {
      NumLeftRelaxed += count_if(instructions(F), isLoadOrStore);
      return Changed;
    }
    collect(F, Relaxed);
    instrument();
    return Changed || !Accesses.empty() || !MemOps.empty() || !Whole.empty() ||
           !Assignments.empty();
  }
};

} // namespace

PreservedAnalyses AddSCPass::run(Module &M, ModuleAnalysisManager &MAM) {
  std::optional<Optimisations> Opts = S->optimisations(M.getContext());
  if (!Opts)
    return PreservedAnalyses::all();
  markAnnotatedRelaxed(M);
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  // By name and prototype only: a call the program made with -fno-builtin
  // still reaches the C library's routine.
  TargetLibraryInfoImpl KnownFunctions{Triple(M.getTargetTriple())};
  // What InferFunctionAttrs would add later (nocapture, readonly), so that
  // a private buffer handed to strcpy or snprintf stays private.
  for (Function &F : M)
    if (F.isDeclaration())
      inferNonMandatoryLibFuncAttrs(F, FAM.getResult<TargetLibraryAnalysis>(F));
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    tagUserAtomics(F);
    AddSC Pass(M.getDataLayout(), FAM.getResult<AAManager>(F),
               FAM.getResult<TargetLibraryAnalysis>(F), KnownFunctions, *Opts);
    if (Pass.run(F)) {
      Changed = true;
      FAM.invalidate(F, PreservedAnalyses::none());
    }
  }
  eraseUnusedMarkers(M);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace vbd

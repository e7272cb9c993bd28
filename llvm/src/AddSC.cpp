//===- AddSC.cpp - vbd-add-sc: every shared access sequentially consistent ===//
//
// Runs at the start of the optimisation pipeline.  Every load and store that
// may touch shared memory becomes a seq_cst atomic, so every later pass has
// to respect SC.  Accesses whose type LLVM cannot make atomic become volatile
// and are fenced at once.  memcpy/memmove/memset, and calls of the C library
// routines that read or write the caller's memory (fortified __*_chk variants
// included), stay whole between two seq_cst fences.  Atomics the programmer
// wrote are tagged !vbd.user and left as they are.
//===----------------------------------------------------------------------===//

#include "Common.h"
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
#include "llvm/IR/Module.h"
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
        if (Opts.WholeCopies)
          Whole.push_back(cast<CallBase>(&I));
        else
          MemOps.push_back(*Op);
      } else if (auto *CB = dyn_cast<CallBase>(&I)) {
        if (isLibraryAccess(*CB))
          Whole.push_back(CB);
      }
    }
  }

  void makeSC(Instruction *I) {
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
    for (const MemOp &Op : MemOps)
      expandMemOp(Op, DL);
    for (CallBase *CB : Whole)
      fenceAround(CB);
    NumCopiesExpanded += MemOps.size();
    NumFencedWhole += Whole.size();
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
    return Changed || !Accesses.empty() || !MemOps.empty() || !Whole.empty();
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

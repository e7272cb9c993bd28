//===- VolatileByDefault.cpp - sequential consistency by default for C/C++ -===//
//
// Two module passes, loaded into clang with -fpass-plugin (see bin/sc-cc):
//
//   vbd-add-sc   runs at the start of the optimisation pipeline.  Every load
//                and store that may touch shared memory becomes a seq_cst
//                atomic, so every later pass has to respect SC.  Accesses
//                whose type LLVM cannot make atomic become volatile and are
//                fenced at once.  memcpy/memmove/memset become fenced loops of
//                unordered atomics.
//
//   vbd-expand   runs last, just before code generation.  seq_cst accesses
//                that the target cannot lower as single atomic instructions
//                (too wide, under-aligned) are turned back into fenced
//                volatile accesses, and with the mfence store style every
//                SC access is lowered to the fenced volatile form (MOV+MFENCE
//                instead of XCHG for stores on x86).
//
// Atomics written by the programmer are never changed.  vbd-add-sc tags them
// !vbd.user, and vbd-expand only touches seq_cst accesses without that tag.
// The accesses the passes create carry !vbd.sc, but that tag cannot be relied
// on at the end: passes that merge instructions (SimplifyCFG hoisting and
// sinking common code, for one) drop metadata kinds they do not know.
// Losing !vbd.user the same way makes a programmer's seq_cst access look
// like one of ours, which only changes how it is lowered, never its order.
//
// The instruction walk follows the structure of LLVM's ThreadSanitizer
// instrumentation: collect every candidate access of a function first, decide
// which can be skipped, and only then rewrite.
//===----------------------------------------------------------------------===//

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <functional>
#include <optional>

using namespace llvm;

namespace {

constexpr const char *SCTag = "vbd.sc";
constexpr const char *UserTag = "vbd.user";
constexpr const char *RelaxedAttr = "vbd-relaxed";
constexpr const char *RelaxedAnnotation = "vbd_relaxed";
constexpr const char *BeginMarker = "__vbd_relaxed_begin";
constexpr const char *EndMarker = "__vbd_relaxed_end";

enum class StoreStyle { Xchg, Mfence };

std::optional<StoreStyle> parseStoreStyle(StringRef S) {
  if (S == "xchg")
    return StoreStyle::Xchg;
  if (S == "mfence")
    return StoreStyle::Mfence;
  return std::nullopt;
}

// A bad setting is a usage error, not a compiler crash: no stack dump.
[[noreturn]] void die(const Twine &Msg) {
  errs() << "vbd: error: " << Msg << "\n";
  std::exit(1);
}

// clang loads pass plugins after it has parsed -mllvm options, so a cl::opt
// declared here could not be set from the clang command line; the wrapper
// exports SC_STORE instead.
StoreStyle storeStyleFromEnv() {
  const char *E = std::getenv("SC_STORE");
  if (!E || !*E)
    return StoreStyle::Xchg;
  if (auto S = parseStoreStyle(E))
    return *S;
  die(Twine("unknown SC_STORE value '") + E +
      "' (expected 'xchg' or 'mfence')");
}

void tag(Instruction *I) {
  I->setMetadata(SCTag, MDNode::get(I->getContext(), {}));
}

bool isUserAtomic(const Instruction *I) { return I->getMetadata(UserTag); }

void tagUserAtomics(Function &F) {
  for (Instruction &I : instructions(F)) {
    bool Atomic = false;
    if (auto *LI = dyn_cast<LoadInst>(&I))
      Atomic = LI->isAtomic();
    else if (auto *SI = dyn_cast<StoreInst>(&I))
      Atomic = SI->isAtomic();
    if (Atomic)
      I.setMetadata(UserTag, MDNode::get(I.getContext(), {}));
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

// An atomic the backend would have to turn into a libatomic call (wider than
// a pointer, or not naturally aligned).  Such calls would need -latomic at
// link time and would take a lock, so they are lowered as fenced volatiles.
bool lowersNatively(Type *Ty, Align A, const DataLayout &DL) {
  uint64_t Bytes = DL.getTypeStoreSize(Ty).getFixedValue();
  return Bytes <= DL.getPointerSize() && A.value() >= Bytes;
}

// The paper's fencing for accesses that cannot be SC atomics: an acquire
// fence after a load, a release fence before a store and a seq_cst fence
// after it.  On x86 only the last one emits an instruction (MFENCE).
void fenceLoad(LoadInst *LI) {
  LI->setAtomic(AtomicOrdering::NotAtomic);
  LI->setVolatile(true);
  tag(LI);
  IRBuilder<> B(LI->getNextNode());
  tag(B.CreateFence(AtomicOrdering::Acquire));
}

void fenceStore(StoreInst *SI) {
  SI->setAtomic(AtomicOrdering::NotAtomic);
  SI->setVolatile(true);
  tag(SI);
  IRBuilder<> B(SI);
  tag(B.CreateFence(AtomicOrdering::Release));
  B.SetInsertPoint(SI->getNextNode());
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

//===----------------------------------------------------------------------===//
// memcpy / memmove / memset
//===----------------------------------------------------------------------===//

struct MemOp {
  Instruction *I;
  Value *Dst;
  Value *Src; // null for memset
  Value *Val; // i8 fill value, memset only
  Value *Len;
  Align DstAlign;
  Align SrcAlign;
  bool IsMove;
  bool IsVolatile;
  bool IsLibCall; // returns dst, which must be replaced
};

std::optional<MemOp> asMemOp(Instruction &I) {
  if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
    MemOp Op{&I,
             MI->getRawDest(),
             nullptr,
             nullptr,
             MI->getLength(),
             MI->getDestAlign().valueOrOne(),
             Align(1),
             false,
             MI->isVolatile(),
             false};
    if (auto *MT = dyn_cast<MemTransferInst>(MI)) {
      Op.Src = MT->getRawSource();
      Op.SrcAlign = MT->getSourceAlign().valueOrOne();
      Op.IsMove = isa<MemMoveInst>(MT);
    } else if (auto *MS = dyn_cast<MemSetInst>(MI)) {
      Op.Val = MS->getValue();
    } else {
      return std::nullopt;
    }
    return Op;
  }
  // Calls that reach the libc functions directly, e.g. under -fno-builtin.
  auto *CI = dyn_cast<CallInst>(&I);
  if (!CI || CI->arg_size() != 3)
    return std::nullopt;
  Function *Callee = CI->getCalledFunction();
  if (!Callee || !Callee->isDeclaration())
    return std::nullopt;
  StringRef N = Callee->getName();
  if (N != "memcpy" && N != "memmove" && N != "memset")
    return std::nullopt;
  Value *A0 = CI->getArgOperand(0), *A1 = CI->getArgOperand(1),
        *A2 = CI->getArgOperand(2);
  if (!A0->getType()->isPointerTy() || !A2->getType()->isIntegerTy())
    return std::nullopt;
  MemOp Op{&I,      A0,       nullptr, nullptr, A2, Align(1),
           Align(1), N == "memmove", false, true};
  if (N == "memset") {
    if (!A1->getType()->isIntegerTy())
      return std::nullopt;
    Op.Val = A1;
  } else {
    if (!A1->getType()->isPointerTy())
      return std::nullopt;
    Op.Src = A1;
  }
  return Op;
}

// for (k = 0; k < N; ++k) Body(k).  Leaves B at the loop exit.
void emitCountedLoop(IRBuilder<> &B, Value *N, BasicBlock *Before,
                     function_ref<void(IRBuilder<> &, Value *)> Body) {
  LLVMContext &C = B.getContext();
  Function *F = B.GetInsertBlock()->getParent();
  Type *Ty = N->getType();
  BasicBlock *Entry = B.GetInsertBlock();
  BasicBlock *Loop = BasicBlock::Create(C, "vbd.mem.loop", F, Before);
  BasicBlock *Exit = BasicBlock::Create(C, "vbd.mem.next", F, Before);
  B.CreateCondBr(B.CreateICmpEQ(N, ConstantInt::get(Ty, 0)), Exit, Loop);
  B.SetInsertPoint(Loop);
  PHINode *K = B.CreatePHI(Ty, 2, "vbd.k");
  K->addIncoming(ConstantInt::get(Ty, 0), Entry);
  Body(B, K);
  Value *Next = B.CreateAdd(K, ConstantInt::get(Ty, 1));
  K->addIncoming(Next, B.GetInsertBlock());
  B.CreateCondBr(B.CreateICmpULT(Next, N), Loop, Exit);
  B.SetInsertPoint(Exit);
}

// The paper's semantics for the memory functions: no order among the bytes
// (unordered atomics, which still respect fences), but a seq_cst fence on
// either side so the whole call is ordered against the rest of the thread.
// Elements are as wide as the common alignment allows, up to 8 bytes, with a
// byte loop for the tail.  The element accesses are volatile as well: loop
// idiom recognition would otherwise fold an unordered-atomic copy loop into
// llvm.memcpy.element.unordered.atomic, whose runtime function no C library
// provides.
void expandMemOp(const MemOp &Op, const DataLayout &DL) {
  Instruction *I = Op.I;
  LLVMContext &C = I->getContext();
  BasicBlock *Pre = I->getParent();
  BasicBlock *Post = Pre->splitBasicBlock(I, "vbd.mem.end");
  Pre->getTerminator()->eraseFromParent();

  IRBuilder<> B(Pre);
  B.SetCurrentDebugLocation(I->getDebugLoc());
  Type *IdxTy = DL.getIntPtrType(C);
  Value *Len = B.CreateZExtOrTrunc(Op.Len, IdxTy);
  Align A = Op.DstAlign;
  if (Op.Src)
    A = std::min(A, Op.SrcAlign);
  uint64_t E = std::min<uint64_t>(A.value(), 8);
  unsigned Log2E = Log2_64(E);
  Type *ElemTy = Type::getIntNTy(C, E * 8);
  Type *ByteTy = B.getInt8Ty();

  Value *Fill = nullptr, *FillByte = nullptr;
  if (!Op.Src) {
    FillByte = B.CreateZExtOrTrunc(Op.Val, ByteTy);
    Fill = FillByte;
    if (E > 1) {
      APInt Ones = APInt::getSplat(E * 8, APInt(8, 1));
      Fill = B.CreateMul(B.CreateZExt(FillByte, ElemTy),
                         ConstantInt::get(ElemTy, Ones));
    }
  }

  B.CreateFence(AtomicOrdering::SequentiallyConsistent);
  Value *NElem = Log2E ? B.CreateLShr(Len, Log2E) : Len;
  Value *TailStart = Log2E ? B.CreateShl(NElem, Log2E) : Len;
  Value *NTail = B.CreateSub(Len, TailStart);

  auto Access = [&](IRBuilder<> &LB, Value *ByteOff, Type *Ty, Align Al) {
    Value *D = LB.CreateGEP(ByteTy, Op.Dst, ByteOff);
    Value *V;
    if (Op.Src) {
      Value *S = LB.CreateGEP(ByteTy, Op.Src, ByteOff);
      LoadInst *L = LB.CreateAlignedLoad(Ty, S, Al, /*isVolatile=*/true);
      L->setAtomic(AtomicOrdering::Unordered);
      tag(L);
      V = L;
    } else {
      V = Ty == ElemTy ? Fill : FillByte;
    }
    StoreInst *St = LB.CreateAlignedStore(V, D, Al, /*isVolatile=*/true);
    St->setAtomic(AtomicOrdering::Unordered);
    tag(St);
  };
  auto ElemLoop = [&](IRBuilder<> &LB, bool Backward) {
    emitCountedLoop(LB, NElem, Post, [&](IRBuilder<> &BB, Value *K) {
      Value *Idx = Backward ? BB.CreateSub(BB.CreateSub(NElem, K),
                                           ConstantInt::get(IdxTy, 1))
                            : K;
      Value *Off = Log2E ? BB.CreateShl(Idx, Log2E) : Idx;
      Access(BB, Off, ElemTy, Align(E));
    });
  };
  auto TailLoop = [&](IRBuilder<> &LB, bool Backward) {
    if (!Log2E)
      return;
    emitCountedLoop(LB, NTail, Post, [&](IRBuilder<> &BB, Value *K) {
      Value *Off = Backward ? BB.CreateSub(BB.CreateSub(Len, K),
                                           ConstantInt::get(IdxTy, 1))
                            : BB.CreateAdd(TailStart, K);
      Access(BB, Off, ByteTy, Align(1));
    });
  };

  if (Op.IsMove) {
    // Copy away from the overlap: forwards when the destination is below the
    // source, backwards otherwise.
    // Blocks are placed as they are filled so the layout reads in order.
    Function *F = Pre->getParent();
    BasicBlock *Fwd = BasicBlock::Create(C, "vbd.mem.fwd", F, Post);
    BasicBlock *Bwd = BasicBlock::Create(C, "vbd.mem.bwd");
    BasicBlock *Join = BasicBlock::Create(C, "vbd.mem.join");
    Value *DI = B.CreatePtrToInt(Op.Dst, IdxTy);
    Value *SI = B.CreatePtrToInt(Op.Src, IdxTy);
    B.CreateCondBr(B.CreateICmpULE(DI, SI), Fwd, Bwd);
    B.SetInsertPoint(Fwd);
    ElemLoop(B, false);
    TailLoop(B, false);
    B.CreateBr(Join);
    Bwd->insertInto(F, Post);
    B.SetInsertPoint(Bwd);
    TailLoop(B, true);
    ElemLoop(B, true);
    B.CreateBr(Join);
    Join->insertInto(F, Post);
    B.SetInsertPoint(Join);
  } else {
    ElemLoop(B, false);
    TailLoop(B, false);
  }
  B.CreateFence(AtomicOrdering::SequentiallyConsistent);
  B.CreateBr(Post);

  if (Op.IsLibCall && !I->use_empty())
    I->replaceAllUsesWith(Op.Dst);
  I->eraseFromParent();
}

//===----------------------------------------------------------------------===//
// vbd-add-sc
//===----------------------------------------------------------------------===//

class AddSC {
  const DataLayout &DL;
  AAResults &AA;
  DenseMap<const Value *, bool> LocalCache;

  // Stack memory (or a byval copy) whose address never escapes can only be
  // reached by this thread, so no other thread can observe the order of its
  // accesses.
  bool isPrivateMemory(const Value *Obj) {
    if (auto *Arg = dyn_cast<Argument>(Obj)) {
      if (!Arg->hasByValAttr())
        return false;
    } else if (!isa<AllocaInst>(Obj)) {
      return false;
    }
    auto [It, New] = LocalCache.try_emplace(Obj, false);
    if (New)
      It->second = !PointerMayBeCaptured(Obj, /*ReturnCaptures=*/true,
                                         /*StoreCaptures=*/true);
    return It->second;
  }

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
      if (LI->isAtomic())
        return false;
      const Value *Obj = getUnderlyingObject(LI->getPointerOperand(), 0);
      return !isPrivateMemory(Obj) && !isConstantMemory(LI, Obj);
    }
    auto *SI = cast<StoreInst>(I);
    if (SI->isAtomic())
      return false;
    return !isPrivateMemory(
        getUnderlyingObject(SI->getPointerOperand(), 0));
  }

  bool memOpNeedsSC(const MemOp &Op) {
    if (!isPrivateMemory(getUnderlyingObject(Op.Dst, 0)))
      return true;
    if (!Op.Src)
      return false;
    const Value *S = getUnderlyingObject(Op.Src, 0);
    if (isPrivateMemory(S))
      return false;
    if (auto *GV = dyn_cast<GlobalVariable>(S))
      if (GV->isConstant())
        return false;
    return !AA.pointsToConstantMemory(S);
  }

public:
  AddSC(const DataLayout &DL, AAResults &AA) : DL(DL), AA(AA) {}

  bool run(Function &F) {
    SmallVector<Instruction *, 4> Markers;
    SmallPtrSet<Instruction *, 32> Relaxed = collectRelaxedRegion(F, Markers);
    bool Changed = !Markers.empty();
    for (Instruction *M : Markers)
      M->eraseFromParent();
    if (F.hasFnAttribute(RelaxedAttr))
      return Changed;

    SmallVector<Instruction *, 64> Accesses;
    SmallVector<MemOp, 8> MemOps;
    for (Instruction &I : instructions(F)) {
      if (Relaxed.count(&I))
        continue;
      if (isa<LoadInst>(I) || isa<StoreInst>(I)) {
        if (needsSC(&I))
          Accesses.push_back(&I);
      } else if (auto Op = asMemOp(I)) {
        if (memOpNeedsSC(*Op))
          MemOps.push_back(*Op);
      }
    }

    for (Instruction *I : Accesses) {
      if (auto *LI = dyn_cast<LoadInst>(I)) {
        if (canBeAtomic(LI->getType(), DL)) {
          LI->setAtomic(AtomicOrdering::SequentiallyConsistent);
          tag(LI);
        } else {
          fenceLoad(LI);
        }
      } else {
        auto *SI = cast<StoreInst>(I);
        if (canBeAtomic(SI->getValueOperand()->getType(), DL)) {
          SI->setAtomic(AtomicOrdering::SequentiallyConsistent);
          tag(SI);
        } else {
          fenceStore(SI);
        }
      }
    }
    for (const MemOp &Op : MemOps)
      expandMemOp(Op, DL);
    return Changed || !Accesses.empty() || !MemOps.empty();
  }
};

void eraseUnusedMarkers(Module &M) {
  for (Function &F : make_early_inc_range(M))
    if ((F.getName().contains(BeginMarker) ||
         F.getName().contains(EndMarker)) &&
        F.use_empty() && (F.isDeclaration() || F.hasLocalLinkage() ||
                          F.hasLinkOnceLinkage()))
      F.eraseFromParent();
}

struct AddSCPass : PassInfoMixin<AddSCPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    markAnnotatedRelaxed(M);
    auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
    bool Changed = false;
    for (Function &F : M) {
      if (F.isDeclaration())
        continue;
      tagUserAtomics(F);
      AddSC Pass(M.getDataLayout(), FAM.getResult<AAManager>(F));
      if (Pass.run(F)) {
        Changed = true;
        FAM.invalidate(F, PreservedAnalyses::none());
      }
    }
    eraseUnusedMarkers(M);
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

//===----------------------------------------------------------------------===//
// vbd-expand
//===----------------------------------------------------------------------===//

struct ExpandPass : PassInfoMixin<ExpandPass> {
  std::optional<StoreStyle> Style;
  explicit ExpandPass(std::optional<StoreStyle> S = std::nullopt) : Style(S) {}

  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    StoreStyle S = Style ? *Style : storeStyleFromEnv();
    const DataLayout &DL = M.getDataLayout();
    SmallVector<Instruction *, 64> Work;
    for (Function &F : M)
      for (Instruction &I : instructions(F))
        if ((isa<LoadInst>(I) || isa<StoreInst>(I)) && !isUserAtomic(&I))
          Work.push_back(&I);
    bool Changed = false;
    for (Instruction *I : Work) {
      if (auto *LI = dyn_cast<LoadInst>(I)) {
        if (LI->getOrdering() != AtomicOrdering::SequentiallyConsistent)
          continue;
        if (S == StoreStyle::Mfence ||
            !lowersNatively(LI->getType(), LI->getAlign(), DL)) {
          fenceLoad(LI);
          Changed = true;
        }
      } else {
        auto *SI = cast<StoreInst>(I);
        if (SI->getOrdering() != AtomicOrdering::SequentiallyConsistent)
          continue;
        if (S == StoreStyle::Mfence ||
            !lowersNatively(SI->getValueOperand()->getType(), SI->getAlign(),
                            DL)) {
          fenceStore(SI);
          Changed = true;
        }
      }
    }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "VolatileByDefault", "0.1",
          [](PassBuilder &PB) {
            // Both callbacks are also invoked by the -O0 pipeline.
            PB.registerPipelineStartEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) {
                  MPM.addPass(AddSCPass());
                });
            PB.registerOptimizerLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) {
                  MPM.addPass(ExpandPass());
                });
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name == "vbd-add-sc") {
                    MPM.addPass(AddSCPass());
                    return true;
                  }
                  if (Name == "vbd-expand") {
                    MPM.addPass(ExpandPass());
                    return true;
                  }
                  if (Name.consume_front("vbd-expand<") &&
                      Name.consume_back(">")) {
                    auto S = parseStoreStyle(Name);
                    if (!S)
                      die(Twine("unknown store style '") + Name +
                          "' in vbd-expand<...> (expected 'xchg' or "
                          "'mfence')");
                    MPM.addPass(ExpandPass(S));
                    return true;
                  }
                  return false;
                });
          }};
}

//===- VolatileByDefault.cpp - sequential consistency by default for C/C++ -===//
//
// Two module passes, loaded into clang with -fpass-plugin (see bin/sc-cc):
//
//   vbd-add-sc   runs at the start of the optimisation pipeline.  Every load
//                and store that may touch shared memory becomes a seq_cst
//                atomic, so every later pass has to respect SC.  Accesses
//                whose type LLVM cannot make atomic become volatile and are
//                fenced at once.  memcpy/memmove/memset, and calls of the C
//                library routines that read or write the caller's memory
//                (fortified __*_chk variants included), stay whole between
//                two seq_cst fences.
//
//   vbd-expand   runs last, just before code generation.  seq_cst accesses
//                that the target cannot lower as single atomic instructions
//                (too wide, under-aligned) are turned back into fenced
//                volatile accesses, and with the mfence store style every
//                SC access is lowered to the fenced volatile form (MOV+MFENCE
//                instead of XCHG for stores on x86).  On x86 it then drops
//                the barriers TSO does not need and, with XCHG stores, makes
//                each remaining fence a locked operation on the stack.
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
#include "llvm/Analysis/MemoryBuiltins.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
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
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/BuildLibCalls.h"

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
// exports SC_STORE and SC_OPTIMISE instead.
StoreStyle storeStyleFromEnv() {
  const char *E = std::getenv("SC_STORE");
  if (!E || !*E)
    return StoreStyle::Xchg;
  if (auto S = parseStoreStyle(E))
    return *S;
  die(Twine("unknown SC_STORE value '") + E +
      "' (expected 'xchg' or 'mfence')");
}

// The optimisations each can be left out, so that what each one buys can be
// measured and a suspected miscompilation narrowed down.  None of them
// changes what is ordered, only how.
struct Optimisations {
  // memcpy/memmove/memset stay whole between two fences (else: a fenced loop
  // of unordered atomic elements, the paper's form).
  bool WholeCopies = true;
  // x86: drop a fence, or make an XCHG store a plain MOV, where another full
  // barrier follows before any load, or no store precedes since the last one.
  bool TsoBarriers = true;
  // x86 with XCHG stores: a fence is a locked OR of zero into the stack
  // instead of MFENCE.
  bool LockedFences = true;
  // A local whose address escaped only into a function since inlined gets
  // plain accesses again, and SROA another go at it.
  bool PrivateAfterInlining = true;

  static constexpr const char *Names =
      "'all', 'none', or a comma-separated list of 'whole-copies', "
      "'tso-barriers', 'locked-fences', 'private-after-inlining'";

  static std::optional<Optimisations> parse(StringRef S) {
    Optimisations O;
    if (S == "all")
      return O;
    O.WholeCopies = O.TsoBarriers = O.LockedFences = O.PrivateAfterInlining =
        false;
    if (S == "none")
      return O;
    SmallVector<StringRef, 4> Parts;
    S.split(Parts, ',');
    for (StringRef P : Parts) {
      if (P == "whole-copies")
        O.WholeCopies = true;
      else if (P == "tso-barriers")
        O.TsoBarriers = true;
      else if (P == "locked-fences")
        O.LockedFences = true;
      else if (P == "private-after-inlining")
        O.PrivateAfterInlining = true;
      else
        return std::nullopt;
    }
    return O;
  }

  static Optimisations fromEnv() {
    const char *E = std::getenv("SC_OPTIMISE");
    if (!E || !*E)
      return Optimisations();
    if (auto O = parse(E))
      return *O;
    die(Twine("unknown SC_OPTIMISE value '") + E + "' (expected " + Names +
        ")");
  }
};

void tag(Instruction *I) {
  I->setMetadata(SCTag, MDNode::get(I->getContext(), {}));
}

bool isUserAtomic(const Instruction *I) { return I->getMetadata(UserTag); }

void tagUserAtomics(Function &F) {
  for (Instruction &I : instructions(F)) {
    bool Atomic = isa<FenceInst>(I);
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

// Stack memory (or a byval copy) whose address never escapes can only be
// reached by this thread, so no other thread can observe the order of its
// accesses.  One per function and pass: the answer is kept per object.
class PrivateMemory {
  DenseMap<const Value *, bool> Known;

public:
  bool isPrivateObject(const Value *Obj) {
    if (auto *Arg = dyn_cast<Argument>(Obj)) {
      if (!Arg->hasByValAttr())
        return false;
    } else if (!isa<AllocaInst>(Obj)) {
      return false;
    }
    auto [It, New] = Known.try_emplace(Obj, false);
    if (New)
      It->second = !PointerMayBeCaptured(Obj, /*ReturnCaptures=*/true,
                                         /*StoreCaptures=*/true);
    return It->second;
  }

  bool isPrivate(const Value *Ptr) {
    return isPrivateObject(getUnderlyingObject(Ptr, 0));
  }

  // Private, or memory nobody writes.
  bool isUnshared(const Value *Ptr) {
    const Value *Obj = getUnderlyingObject(Ptr, 0);
    if (auto *GV = dyn_cast<GlobalVariable>(Obj))
      return GV->isConstant();
    return isPrivateObject(Obj);
  }
};

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

// A routine of the C library, which sc-cc does not compile: glibc's fortified
// __*_chk family by name, and whatever LLVM knows as the library's by name
// and prototype (so a call made with -fno-builtin is still recognised).
bool isCLibrary(const Function &Callee, const TargetLibraryInfoImpl &Known) {
  StringRef N = Callee.getName();
  LibFunc LF;
  return (N.starts_with("__") && N.ends_with("_chk")) ||
         Known.getLibFunc(Callee, LF);
}

//===----------------------------------------------------------------------===//
// vbd-add-sc
//===----------------------------------------------------------------------===//

class AddSC {
  const DataLayout &DL;
  AAResults &AA;
  const TargetLibraryInfo &TLI;
  const TargetLibraryInfoImpl &KnownFunctions;
  Optimisations Opts;
  PrivateMemory Private;

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
      return !Private.isPrivateObject(Obj) && !isConstantMemory(LI, Obj);
    }
    auto *SI = cast<StoreInst>(I);
    if (SI->isAtomic())
      return false;
    return !Private.isPrivate(SI->getPointerOperand());
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
    if (F.hasFnAttribute(RelaxedAttr))
      return Changed;

    SmallVector<Instruction *, 64> Accesses;
    SmallVector<MemOp, 8> MemOps;
    SmallVector<CallBase *, 8> Whole;
    for (Instruction &I : instructions(F)) {
      if (Relaxed.count(&I))
        continue;
      if (isa<LoadInst>(I) || isa<StoreInst>(I)) {
        if (needsSC(&I))
          Accesses.push_back(&I);
      } else if (auto Op = asMemOp(I)) {
        if (!memOpNeedsSC(*Op))
          continue;
        if (Opts.WholeCopies)
          Whole.push_back(cast<CallBase>(&I));
        else
          MemOps.push_back(*Op);
      } else if (auto *CB = dyn_cast<CallBase>(&I)) {
        if (isLibraryAccess(*CB))
          Whole.push_back(CB);
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
    for (CallBase *CB : Whole)
      fenceAround(CB);
    return Changed || !Accesses.empty() || !MemOps.empty() || !Whole.empty();
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
    Optimisations Opts = Optimisations::fromEnv();
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
                 FAM.getResult<TargetLibraryAnalysis>(F), KnownFunctions, Opts);
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
// vbd-private: locals found private once inlining has run
//===----------------------------------------------------------------------===//

// vbd-add-sc runs before inlining, so a local whose address is handed to a
// small function (a getter, an out-parameter, a struct passed by pointer)
// counts as escaped and its accesses are SC.  Once the callee is inlined the
// address may no longer escape at all; then no other thread can ever name
// the local, and its accesses need no order.  Only the atomicity vbd added is
// removed: a programmer's atomic, and `volatile`, stay.  SROA runs after it,
// since atomic accesses had kept it from putting such locals in registers.
struct PrivateAfterInliningPass : PassInfoMixin<PrivateAfterInliningPass> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &) {
    PrivateMemory Private;
    bool Changed = false;
    for (Instruction &I : instructions(F)) {
      if (isUserAtomic(&I))
        continue;
      if (auto *LI = dyn_cast<LoadInst>(&I)) {
        if (LI->getOrdering() == AtomicOrdering::SequentiallyConsistent &&
            Private.isPrivate(LI->getPointerOperand())) {
          LI->setAtomic(AtomicOrdering::NotAtomic);
          Changed = true;
        }
      } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
        if (SI->getOrdering() == AtomicOrdering::SequentiallyConsistent &&
            Private.isPrivate(SI->getPointerOperand())) {
          SI->setAtomic(AtomicOrdering::NotAtomic);
          Changed = true;
        }
      }
    }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

//===----------------------------------------------------------------------===//
// vbd-expand
//===----------------------------------------------------------------------===//

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
// generation still keeps the accesses on either side in order.  Nothing of
// this holds for weaker hardware (AArch64, POWER), which keeps every barrier.
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

  // Returns the number of barriers removed.
  unsigned run(Function &F) {
    unsigned Removed = 0;
    for (FenceInst *FI : unneededFences(F)) {
      keepForCompilerOnly(FI);
      ++Removed;
    }
    SmallVector<Instruction *, 32> Candidates;
    for (Instruction &I : instructions(F))
      if (!isUserAtomic(&I) && isFullBarrier(I) &&
          (isa<FenceInst>(I) || isa<StoreInst>(I)))
        Candidates.push_back(&I);
    for (Instruction *I : Candidates) {
      if (!loadFreeUntilBarrier(I))
        continue;
      if (auto *SI = dyn_cast<StoreInst>(I))
        SI->setOrdering(AtomicOrdering::Release);
      else
        keepForCompilerOnly(cast<FenceInst>(I));
      ++Removed;
    }
    return Removed;
  }
};

// A full barrier that costs what an XCHG does: x86 lowers an unused seq_cst
// `atomicrmw or 0` to `lock orl $0, -64(%rsp)`, a locked operation on a
// stack line no other core holds, where `fence seq_cst` becomes MFENCE, which
// also waits for the loads in flight and costs several times as much on
// current cores.  The slot the RMW names is never touched: the backend picks
// its own.  Flags are clobbered by the locked OR, which the backend knows,
// unlike an inline `asm("lock orl ...")` without a "cc" clobber.
bool lockFences(Function &F) {
  AllocaInst *Slot = nullptr;
  for (Instruction &I : make_early_inc_range(instructions(F))) {
    auto *FI = dyn_cast<FenceInst>(&I);
    if (!FI || isUserAtomic(FI) ||
        FI->getOrdering() != AtomicOrdering::SequentiallyConsistent ||
        FI->getSyncScopeID() != SyncScope::System)
      continue;
    IRBuilder<> B(FI);
    if (!Slot) {
      IRBuilder<> E(&*F.getEntryBlock().getFirstInsertionPt());
      Slot = E.CreateAlloca(E.getInt32Ty(), nullptr, "vbd.fence.slot");
    }
    AtomicRMWInst *RMW =
        B.CreateAtomicRMW(AtomicRMWInst::Or, Slot, B.getInt32(0), Align(4),
                          AtomicOrdering::SequentiallyConsistent);
    tag(RMW);
    FI->eraseFromParent();
  }
  return Slot != nullptr;
}

struct ExpandPass : PassInfoMixin<ExpandPass> {
  std::optional<StoreStyle> Style;
  explicit ExpandPass(std::optional<StoreStyle> S = std::nullopt) : Style(S) {}

  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    StoreStyle S = Style ? *Style : storeStyleFromEnv();
    Optimisations Opts = Optimisations::fromEnv();
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
    Triple T(M.getTargetTriple());
    if (T.isX86()) {
      TargetLibraryInfoImpl KnownFunctions(T);
      for (Function &F : M) {
        if (F.isDeclaration())
          continue;
        if (Opts.TsoBarriers && TsoBarriers(DL, KnownFunctions).run(F))
          Changed = true;
        if (Opts.LockedFences && S == StoreStyle::Xchg && lockFences(F))
          Changed = true;
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
            // Late in the simplification of each function, after the
            // inliner has run on it (not at -O0, which has no such point).
            PB.registerScalarOptimizerLateEPCallback(
                [](FunctionPassManager &FPM, OptimizationLevel) {
                  if (!Optimisations::fromEnv().PrivateAfterInlining)
                    return;
                  FPM.addPass(PrivateAfterInliningPass());
                  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
                });
            PB.registerPipelineParsingCallback(
                [](StringRef Name, FunctionPassManager &FPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name != "vbd-private")
                    return false;
                  FPM.addPass(PrivateAfterInliningPass());
                  return true;
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

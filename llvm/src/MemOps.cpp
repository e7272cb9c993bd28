//===- MemOps.cpp - memcpy, memmove and memset as element loops -----------===//

#include "MemOps.h"
#include "Common.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;

namespace vbd {

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

namespace {

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

} // namespace

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

} // namespace vbd

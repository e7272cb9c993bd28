//===- Common.cpp - what the passes share ---------------------------------===//

#include "Common.h"

#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace vbd {

namespace {
constexpr const char *SCTag = "vbd.sc";
constexpr const char *UserTag = "vbd.user";
} // namespace

void tag(Instruction *I) {
  I->setMetadata(SCTag, MDNode::get(I->getContext(), {}));
}

bool isUserAtomic(const Instruction *I) { return I->getMetadata(UserTag); }

void tagUserAtomic(Instruction *I) {
  I->setMetadata(UserTag, MDNode::get(I->getContext(), {}));
}

bool isCLibrary(const Function &Callee, const TargetLibraryInfoImpl &Known) {
  StringRef N = Callee.getName();
  LibFunc LF;
  return (N.starts_with("__") && N.ends_with("_chk")) ||
         Known.getLibFunc(Callee, LF);
}

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

// A byval argument is not private: the copy is the caller's to make, and
// when the callee only reads it the inliner drops the copy and reads the
// caller's memory, a shared global for all the callee can know.  sret,
// inalloca and preallocated arguments point at the caller's memory too.
bool PrivateMemory::isPrivateObject(const Value *Obj) {
  if (!isa<AllocaInst>(Obj))
    return false;
  auto [It, New] = Known.try_emplace(Obj, false);
  if (New)
    It->second = !PointerMayBeCaptured(Obj, /*ReturnCaptures=*/true,
                                       /*StoreCaptures=*/true);
  return It->second;
}

bool PrivateMemory::isPrivate(const Value *Ptr) {
  return isPrivateObject(getUnderlyingObject(Ptr, 0));
}

bool PrivateMemory::isUnshared(const Value *Ptr) {
  const Value *Obj = getUnderlyingObject(Ptr, 0);
  if (auto *GV = dyn_cast<GlobalVariable>(Obj))
    return GV->isConstant();
  return isPrivateObject(Obj);
}

} // namespace vbd

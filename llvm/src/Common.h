//===- Common.h - what the passes share -------------------------*- C++ -*-===//
//
// Atomics written by the programmer are never changed.  vbd-add-sc tags them
// !vbd.user, and the later passes only touch seq_cst accesses without that
// tag.  The accesses the passes create carry !vbd.sc, but that tag cannot be
// relied on at the end: passes that merge instructions (SimplifyCFG hoisting
// and sinking common code, for one) drop metadata kinds they do not know.
// Losing !vbd.user the same way makes a programmer's seq_cst access look like
// one of ours, which only changes how it is lowered, never its order.
//===----------------------------------------------------------------------===//

#ifndef VBD_COMMON_H
#define VBD_COMMON_H

#include "llvm/ADT/DenseMap.h"

namespace llvm {
class CallBase;
class Function;
class Instruction;
class LoadInst;
class StoreInst;
class TargetLibraryInfoImpl;
class Value;
} // namespace llvm

namespace vbd {

// The function attribute of code the programmer marked relaxed.
constexpr const char *RelaxedAttr = "vbd-relaxed";

// Marks an instruction as one the passes made or created.
void tag(llvm::Instruction *I);

bool isUserAtomic(const llvm::Instruction *I);
void tagUserAtomic(llvm::Instruction *I);

// A routine of the C library, which sc-cc does not compile: glibc's fortified
// __*_chk family by name, and whatever LLVM knows as the library's by name
// and prototype (so a call made with -fno-builtin is still recognised).
bool isCLibrary(const llvm::Function &Callee,
                const llvm::TargetLibraryInfoImpl &Known);

// The paper's fencing for accesses that cannot be SC atomics: an acquire
// fence after a load, a release fence before a store and a seq_cst fence
// after it.  On x86 only the last one emits an instruction (MFENCE).
void fenceLoad(llvm::LoadInst *LI);
void fenceStore(llvm::StoreInst *SI);

// Stack memory whose address never escapes can only be
// reached by this thread, so no other thread can observe the order of its
// accesses.  One per function and pass: the answer is kept per object.
class PrivateMemory {
  llvm::DenseMap<const llvm::Value *, bool> Known;

public:
  bool isPrivateObject(const llvm::Value *Obj);
  bool isPrivate(const llvm::Value *Ptr);
  // Private, or memory nobody writes.
  bool isUnshared(const llvm::Value *Ptr);
};

} // namespace vbd

#endif

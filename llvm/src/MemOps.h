//===- MemOps.h - memcpy, memmove and memset --------------------*- C++ -*-===//

#ifndef VBD_MEMOPS_H
#define VBD_MEMOPS_H

#include "llvm/Support/Alignment.h"

#include <optional>

namespace llvm {
class DataLayout;
class Instruction;
class Value;
} // namespace llvm

namespace vbd {

// A call of memcpy, memmove or memset: the intrinsic, or the C library's
// function called directly.
struct MemOp {
  llvm::Instruction *I;
  llvm::Value *Dst;
  llvm::Value *Src; // null for memset
  llvm::Value *Val; // i8 fill value, memset only
  llvm::Value *Len;
  llvm::Align DstAlign;
  llvm::Align SrcAlign;
  bool IsMove;
  bool IsVolatile;
  bool IsLibCall; // returns dst, which must be replaced
};

std::optional<MemOp> asMemOp(llvm::Instruction &I);

// The paper's semantics for the memory functions: no order among the bytes
// (unordered atomics, which still respect fences), but a seq_cst fence on
// either side so the whole call is ordered against the rest of the thread.
// Replaces the call with that loop.
void expandMemOp(const MemOp &Op, const llvm::DataLayout &DL);

} // namespace vbd

#endif

//===- Passes.h - the passes of the VolatileByDefault plugin ----*- C++ -*-===//
//
// Three passes, loaded into clang with -fpass-plugin (see bin/sc-cc):
//
//   vbd-add-sc   (AddSC.cpp) runs at the start of the optimisation pipeline:
//                every access that may touch shared memory becomes SC.
//   vbd-private  (PrivateAfterInlining.cpp) runs late in the simplification
//                of each function, after inlining: locals found private
//                only then get plain accesses again.
//   vbd-expand   (Expand.cpp) runs last, before code generation: SC accesses
//                the target cannot lower as single atomic instructions, and
//                on x86 the barriers TSO does not need.
//
// Each follows the structure of LLVM's ThreadSanitizer instrumentation:
// collect the candidates of a function first, decide which can be skipped,
// and only then rewrite.  Each counts what it did in STATISTIC counters
// under its own DEBUG_TYPE (opt -stats, clang -mllvm -stats).
//===----------------------------------------------------------------------===//

#ifndef VBD_PASSES_H
#define VBD_PASSES_H

#include "Options.h"

#include "llvm/IR/PassManager.h"

#include <memory>

namespace vbd {

class AddSCPass : public llvm::PassInfoMixin<AddSCPass> {
  std::shared_ptr<Settings> S;

public:
  explicit AddSCPass(std::shared_ptr<Settings> S) : S(std::move(S)) {}
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }
};

struct PrivateAfterInliningPass
    : llvm::PassInfoMixin<PrivateAfterInliningPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &);
  static bool isRequired() { return true; }
};

class ExpandPass : public llvm::PassInfoMixin<ExpandPass> {
  std::shared_ptr<Settings> S;

public:
  explicit ExpandPass(std::shared_ptr<Settings> S) : S(std::move(S)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace vbd

#endif

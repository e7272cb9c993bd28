//===- Plugin.cpp - registers the VolatileByDefault passes ----------------===//
//
// Sequential consistency by default for C and C++: the passes (Passes.h) in
// clang's pipeline, and by name for opt (-passes=vbd-add-sc, vbd-private,
// vbd-expand, vbd-expand<xchg|mfence>), and the table of what vbd-add-sc
// does with each intrinsic (-passes=vbd-intrinsic-table).
//===----------------------------------------------------------------------===//

#include "IntrinsicRoles.h"
#include "Options.h"
#include "Passes.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Transforms/Scalar/SROA.h"

using namespace llvm;
using namespace vbd;

namespace {

void registerPasses(PassBuilder &PB) {
  std::shared_ptr<Settings> S = Settings::fromEnvironment();
  // Both callbacks are also invoked by the -O0 pipeline.
  PB.registerPipelineStartEPCallback(
      [S](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(AddSCPass(S));
      });
  PB.registerOptimizerLastEPCallback(
      [S](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(ExpandPass(S));
      });
  // Late in the simplification of each function, after the inliner has run
  // on it (not at -O0, which has no such point).
  PB.registerScalarOptimizerLateEPCallback(
      [S](FunctionPassManager &FPM, OptimizationLevel) {
        if (!S->optimisationsOrAll().PrivateAfterInlining)
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
      [S](StringRef Name, ModulePassManager &MPM,
          ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "vbd-add-sc") {
          MPM.addPass(AddSCPass(S));
          return true;
        }
        if (Name == "vbd-intrinsic-table") {
          MPM.addPass(IntrinsicTablePass());
          return true;
        }
        if (Name == "vbd-expand") {
          MPM.addPass(ExpandPass(S));
          return true;
        }
        if (Name.consume_front("vbd-expand<") && Name.consume_back(">")) {
          MPM.addPass(ExpandPass(S->withStoreStyle(Name)));
          return true;
        }
        return false;
      });
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "VolatileByDefault", "0.1", registerPasses};
}

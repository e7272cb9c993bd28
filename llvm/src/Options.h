//===- Options.h - store style and optimisations ----------------*- C++ -*-===//
//
// clang loads pass plugins after it has parsed -mllvm options, so a cl::opt
// declared here could not be set from the clang command line; sc-cc exports
// SC_STORE and SC_OPTIMISE instead.  The names come from Options.def.
//===----------------------------------------------------------------------===//

#ifndef VBD_OPTIONS_H
#define VBD_OPTIONS_H

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>

namespace llvm {
class LLVMContext;
} // namespace llvm

namespace vbd {

enum class StoreStyle {
#define VBD_STORE_STYLE(Enumerator, Name) Enumerator,
#include "Options.def"
};

std::optional<StoreStyle> parseStoreStyle(llvm::StringRef S);

struct Optimisations {
#define VBD_OPTIMISATION(Field, Name) bool Field = true;
#include "Options.def"

  // "all", "none", or a comma-separated list of names.
  static std::optional<Optimisations> parse(llvm::StringRef S);
};

// What the environment (or a pass pipeline's parameter) asks for.  A value
// that is not understood is a usage error, reported once through the
// LLVMContext of the first pass that needs it; that pass then changes nothing.
class Settings {
  template <typename T> struct Setting {
    std::optional<T> Value;
    std::string Error;
    bool Reported = false;
  };
  Setting<StoreStyle> Store;
  Setting<Optimisations> Optimise;

  template <typename T>
  static std::optional<T> valueOrReport(Setting<T> &S, llvm::LLVMContext &Ctx);

public:
  static std::shared_ptr<Settings> fromEnvironment();
  // These settings with the store style a pipeline names (vbd-expand<mfence>),
  // which wins over SC_STORE.
  std::shared_ptr<Settings> withStoreStyle(llvm::StringRef Name) const;

  // The value, or std::nullopt once the error is reported to Ctx.
  std::optional<StoreStyle> storeStyle(llvm::LLVMContext &Ctx);
  std::optional<Optimisations> optimisations(llvm::LLVMContext &Ctx);
  // For building a pipeline, where there is no context to report to: a bad
  // SC_OPTIMISE counts as "all" there, and the passes report it.
  Optimisations optimisationsOrAll() const;
};

} // namespace vbd

#endif

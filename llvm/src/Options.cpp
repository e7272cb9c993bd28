//===- Options.cpp - store style and optimisations ------------------------===//

#include "Options.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/LLVMContext.h"

#include <cstdlib>

using namespace llvm;

namespace vbd {

namespace {

constexpr const char *StoreStyleNames =
#define VBD_STORE_STYLE(Enumerator, Name) "'" Name "', "
#include "Options.def"
    ;

constexpr const char *OptimisationNames =
#define VBD_OPTIMISATION(Field, Name) "'" Name "', "
#include "Options.def"
    ;

// "'a', 'b'" from "'a', 'b', ", with `Last` before the last name.
std::string listOf(StringRef Names, StringRef Last) {
  Names.consume_back(", ");
  size_t Cut = Names.rfind(", ");
  if (Cut == StringRef::npos)
    return Names.str();
  return (Names.take_front(Cut) + Last + Names.drop_front(Cut + 2)).str();
}

std::string expectedStoreStyles() { return listOf(StoreStyleNames, " or "); }

std::string expectedOptimisations() {
  return "'all', 'none', or a comma-separated list of " +
         listOf(OptimisationNames, ", ");
}

std::optional<std::string> environment(const char *Name) {
  const char *E = std::getenv(Name);
  if (!E || !*E)
    return std::nullopt;
  return std::string(E);
}

} // namespace

std::optional<StoreStyle> parseStoreStyle(StringRef S) {
#define VBD_STORE_STYLE(Enumerator, Name)                                      \
  if (S == Name)                                                               \
    return StoreStyle::Enumerator;
#include "Options.def"
  return std::nullopt;
}

std::optional<Optimisations> Optimisations::parse(StringRef S) {
  Optimisations O;
  if (S == "all")
    return O;
#define VBD_OPTIMISATION(Field, Name) O.Field = false;
#include "Options.def"
  if (S == "none")
    return O;
  SmallVector<StringRef, 4> Parts;
  S.split(Parts, ',');
  for (StringRef P : Parts) {
#define VBD_OPTIMISATION(Field, Name)                                          \
  if (P == Name) {                                                             \
    O.Field = true;                                                            \
    continue;                                                                  \
  }
#include "Options.def"
    return std::nullopt;
  }
  return O;
}

std::shared_ptr<Settings> Settings::fromEnvironment() {
  auto S = std::make_shared<Settings>();
  S->Store.Value = StoreStyle(0);
  if (auto E = environment("SC_STORE")) {
    S->Store.Value = parseStoreStyle(*E);
    if (!S->Store.Value)
      S->Store.Error = "unknown SC_STORE value '" + *E + "' (expected " +
                       expectedStoreStyles() + ")";
  }
  S->Optimise.Value = Optimisations();
  if (auto E = environment("SC_OPTIMISE")) {
    S->Optimise.Value = Optimisations::parse(*E);
    if (!S->Optimise.Value)
      S->Optimise.Error = "unknown SC_OPTIMISE value '" + *E +
                          "' (expected " + expectedOptimisations() + ")";
  }
  return S;
}

std::shared_ptr<Settings> Settings::withStoreStyle(StringRef Name) const {
  auto S = std::make_shared<Settings>(*this);
  S->Store = Setting<StoreStyle>();
  S->Store.Value = parseStoreStyle(Name);
  if (!S->Store.Value)
    S->Store.Error = ("unknown store style '" + Name +
                      "' in vbd-expand<...> (expected " +
                      expectedStoreStyles() + ")")
                         .str();
  return S;
}

template <typename T>
std::optional<T> Settings::valueOrReport(Setting<T> &S, LLVMContext &Ctx) {
  if (!S.Value && !S.Reported) {
    Ctx.emitError("vbd: " + S.Error);
    S.Reported = true;
  }
  return S.Value;
}

std::optional<StoreStyle> Settings::storeStyle(LLVMContext &Ctx) {
  return valueOrReport(Store, Ctx);
}

std::optional<Optimisations> Settings::optimisations(LLVMContext &Ctx) {
  return valueOrReport(Optimise, Ctx);
}

Optimisations Settings::optimisationsOrAll() const {
  return Optimise.Value.value_or(Optimisations());
}

} // namespace vbd

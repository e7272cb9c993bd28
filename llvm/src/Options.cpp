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
  S->StoreSetting.Value = StoreStyle(0);
  if (auto E = environment("SC_STORE")) {
    S->StoreSetting.Value = parseStoreStyle(*E);
    if (!S->StoreSetting.Value)
      S->StoreSetting.Error = "unknown SC_STORE value '" + *E +
                              "' (expected " + expectedStoreStyles() + ")";
  }
  S->OptimiseSetting.Value = Optimisations();
  if (auto E = environment("SC_OPTIMISE")) {
    S->OptimiseSetting.Value = Optimisations::parse(*E);
    if (!S->OptimiseSetting.Value)
      S->OptimiseSetting.Error = "unknown SC_OPTIMISE value '" + *E +
                                 "' (expected " + expectedOptimisations() +
                                 ")";
  }
  return S;
}

std::shared_ptr<Settings> Settings::withStoreStyle(StringRef Name) const {
  auto S = std::make_shared<Settings>(*this);
  S->StoreSetting = Store();
  S->StoreSetting.Value = parseStoreStyle(Name);
  if (!S->StoreSetting.Value)
    S->StoreSetting.Error = ("unknown store style '" + Name +
                             "' in vbd-expand<...> (expected " +
                             expectedStoreStyles() + ")")
                                .str();
  return S;
}

namespace {
template <typename SettingT>
auto valueOrReport(SettingT &S, LLVMContext &Ctx) -> decltype(S.Value) {
  if (!S.Value && !S.Reported) {
    Ctx.emitError("vbd: " + S.Error);
    S.Reported = true;
  }
  return S.Value;
}
} // namespace

std::optional<StoreStyle> Settings::storeStyle(LLVMContext &Ctx) {
  return valueOrReport(StoreSetting, Ctx);
}

std::optional<Optimisations> Settings::optimisations(LLVMContext &Ctx) {
  return valueOrReport(OptimiseSetting, Ctx);
}

Optimisations Settings::optimisationsOrAll() const {
  return OptimiseSetting.Value.value_or(Optimisations());
}

} // namespace vbd

# lit configuration for the VolatileByDefault IR tests.
import os
import lit.formats

config.name = "vbd"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".ll", ".c", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)

llvm_bin = os.environ.get("LLVM_BIN", "/usr/lib/llvm-19/bin")
repo = os.path.abspath(os.path.join(config.test_source_root, "..", ".."))
plugin = os.environ.get(
    "VBD_PLUGIN", os.path.join(repo, "llvm", "build", "VolatileByDefault.so"))
if not os.path.exists(plugin):
    lit_config.fatal("plugin not found at %s; build llvm/ first or set VBD_PLUGIN" % plugin)

config.environment["PATH"] = os.pathsep.join(
    [llvm_bin, os.path.join(repo, "bin"), config.environment.get("PATH", "")])
# The store style must come from each test, never from the caller.
config.environment.pop("SC_STORE", None)
config.environment["SC_PLUGIN"] = plugin

config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%include", os.path.join(repo, "llvm", "include")))
config.substitutions.append(
    ("%opt", "%s -load-pass-plugin=%s" % (os.path.join(llvm_bin, "opt"), plugin)))

# lit configuration for Tessera's FileCheck tests.
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "Tessera"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".csl", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tessera_obj_root, "test")
# Directories with their own runners, and inputs that are not tests.
config.excludes = ["unit", "python", "Inputs", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py"]

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [os.path.join(config.tessera_obj_root, "bin"), config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["cslc", "tessera-opt", "tessera-objdump", "tessera-translate", "tessera-run", "tessera-run-mpi", "tessera-core", "tessera-place", "tessera-viz", "cs_python"], tool_dirs)
config.substitutions.append(("%python", config.python_executable))
# cslc and tessera-run linked with jemalloc on huge pages
# (cmake/TesseraHeap.cmake).
if config.tessera_heap == "jemalloc":
    config.available_features.add("jemalloc-heap")
# MPI ranks over loopback (test/Emulator/mpi.test): containers run tests as
# root, two cores take four ranks, and shared-memory copies go through
# buffers rather than ptrace, which containers often forbid.
config.environment["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
config.environment["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
config.environment["OMPI_MCA_btl_vader_single_copy_mechanism"] = "none"
config.substitutions.append(
    ("%mpirun", "mpirun --quiet --oversubscribe --bind-to none"))

//===- HugePageHeap.cpp - the fabric runners' heap on huge pages ----------===//
//
// Linked into tessera-run and tessera-run-mpi with jemalloc, whose options
// (TESSERA_JEMALLOC_CONF) cmake/TesseraEmulatorOptimization.cmake sets.
// jemalloc reads this string before its first allocation; MALLOC_CONF in
// the environment is read after it and overrides it. Debian's kernels back
// memory with 2 MiB pages only where a process asks (transparent_hugepage
// "madvise"): `thp:always` asks for everything jemalloc maps, so the small
// blocks a wafer's PEs own (about a gigabyte) share huge pages with the
// large arrays that ask for them already (HugePages.h). docs/Performance.md,
// "The heap on huge pages".
//
//===----------------------------------------------------------------------===//

extern "C" {
// jemalloc's documented hook: a definition in the program replaces its
// default (empty) one. Exported by the link (tools/tessera-run).
__attribute__((visibility("default"), used)) const char *malloc_conf =
    TESSERA_JEMALLOC_CONF;
}

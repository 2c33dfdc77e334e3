//===- HugePageHeap.cpp - jemalloc's options, compiled into a program -----===//
//
// Linked into cslc, tessera-run and tessera-run-mpi with jemalloc
// (cmake/TesseraHeap.cmake, which sets TESSERA_JEMALLOC_CONF). jemalloc reads
// this string before its first allocation; MALLOC_CONF in the environment
// is read after it and overrides it. Debian's kernels back memory with
// 2 MiB pages only where a process asks (transparent_hugepage "madvise"):
// `thp:always` asks for everything jemalloc maps, so the small blocks a
// wafer's PEs own (about a gigabyte) share huge pages with the emulator's
// large arrays, which ask for them already (HugePages.h).
// docs/Performance.md, "The heap on huge pages".
//
//===----------------------------------------------------------------------===//

extern "C" {
// jemalloc's documented hook: a definition in the program replaces its
// default (empty) one. The link exports it (tessera_use_huge_page_heap).
__attribute__((visibility("default"), used)) const char *malloc_conf =
    TESSERA_JEMALLOC_CONF;
}

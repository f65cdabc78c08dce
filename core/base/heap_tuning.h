// keep_large_blocks_in_heap — a process-wide allocator setting for programs
// that run many Z3 queries (the mmacheck program, the prover benchmark).
//
// Z3 allocates and frees large blocks for every query.  By default glibc
// serves those with fresh mmap'd pages and returns them on free, so every
// query pays page faults and page clearing in the kernel; keeping them in the
// heap takes about a fifth off a proof (docs/performance.md, "Prover").
// Call once, first thing in main(); libraries never call it.
#pragma once

namespace mmacheck {

void keep_large_blocks_in_heap();

}  // namespace mmacheck

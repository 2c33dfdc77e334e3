// RUN: tessera-opt %s -tessera-allocate-memory -split-input-file -verify-diagnostics
// Data that does not fit in the 48 KiB of a PE: the error is at the program
// and lists the five largest globals, largest first (ties in program order),
// with a note at each.

// Initialised 44,002 bytes, then zero-filled 4,000 + 2 (padding) + 800 +
// 2,362 + 2 (padding) + 32: 51,200 bytes.
// expected-error @+1 {{program 'pe_program' needs 51,200 bytes of 49,152 for its data; largest: 'weights' 40,000 bytes, 'bias' 4,000 bytes, 'grad' 4,000 bytes, 'tail' 2,362 bytes, 'x' 800 bytes}}
csl.program @pe_program arch wse2 file "pe_program.csl" {
  // expected-note @+1 {{'weights' takes 40,000 bytes}}
  memref.global @weights : memref<100x100xf32> = dense<1.0>
  // expected-note @+1 {{'bias' takes 4,000 bytes}}
  memref.global @bias : memref<1000xf32> = dense<0.5>
  csl.pointer_global @p = @weights : memref<?xf32>
  // expected-note @+1 {{'grad' takes 4,000 bytes}}
  memref.global @grad : memref<2000xi16> = uninitialized
  // expected-note @+1 {{'x' takes 800 bytes}}
  memref.global @x : memref<200xf32> = dense<0.0>
  // expected-note @+1 {{'tail' takes 2,362 bytes}}
  memref.global @tail : memref<2362xi8> = uninitialized
  csl.dsd_global @d : !csl.dsd<mem1d, f32>
}

// -----

// One array larger than memory.
// expected-error @+1 {{program 'big' needs 60,000 bytes of 49,152 for its data; largest: 'a' 60,000 bytes}}
csl.program @big arch wse3 {
  // expected-note @+1 {{'a' takes 60,000 bytes}}
  memref.global @a : memref<30000xi16> = uninitialized
  memref.global @empty : memref<0xf32> = uninitialized
}

// -----

// Alignment padding counts: 49,150 + 4 bytes at 49,152.
// expected-error @+1 {{program 'pad' needs 49,156 bytes of 49,152 for its data; largest: 'a' 49,150 bytes, 'b' 4 bytes}}
csl.program @pad arch wse2 {
  // expected-note @+1 {{'a' takes 49,150 bytes}}
  memref.global @a : memref<49150xi8> = dense<1>
  // expected-note @+1 {{'b' takes 4 bytes}}
  memref.global @b : memref<i32> = dense<2> {alignment = 4096}
}

// -----

// Exactly 48 KiB fits.
csl.program @full arch wse2 {
  memref.global @a : memref<12288xf32> = uninitialized
}

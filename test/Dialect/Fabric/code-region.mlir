// RUN: tessera-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// Code regions and the places and flows given in their coordinates
// (docs/Placement.md, "Code regions"); their verifiers.

// CHECK-LABEL: fabric.fabric
// CHECK: fabric.code_region @left size [2, 2] at [0, 0]
// CHECK: fabric.code_region @right size [3, 2]{{$}}
// CHECK: fabric.place @pe in @left at [0, 0] size [2, 2]
// CHECK: fabric.place @pe in @right at [0, 0] size [3, 1] step [2, 1]
// CHECK: fabric.flow @lr color 1 : i64 from [1, 1] to [0, 1, 2, 0] in [@left, @right, @right]
fabric.fabric arch wse3 dims [8, 4] offsets [0, 0] {
  fabric.rectangle size [8, 4]
  fabric.instance @pe file "pe.csl"
  fabric.code_region @left size [2, 2] at [0, 0]
  fabric.code_region @right size [3, 2]
  fabric.place @pe in @left at [0, 0] size [2, 2]
  fabric.place @pe in @right at [0, 0] size [3, 1] step [2, 1]
  fabric.flow @lr color 1 from [1, 1] to [0, 1, 2, 0] in [@left, @right, @right]
}

// -----

fabric.fabric arch wse3 dims [8, 4] offsets [0, 0] {
  fabric.rectangle size [8, 4]
  // expected-error @+1 {{'fabric.code_region' op size must be positive, got (0, 2)}}
  fabric.code_region @r size [0, 2]
}

// -----

fabric.fabric arch wse3 dims [8, 4] offsets [0, 0] {
  fabric.rectangle size [8, 4]
  // expected-error @+1 {{'fabric.code_region' op origin must be non-negative, got (-1, 0)}}
  fabric.code_region @r size [2, 2] at [-1, 0]
}

// -----

fabric.fabric arch wse3 dims [8, 4] offsets [0, 0] {
  fabric.rectangle size [8, 4]
  // expected-error @+1 {{'fabric.code_region' op at (7, 3) covers PE (8, 4), outside the 8x4 rectangle}}
  fabric.code_region @r size [2, 2] at [7, 3]
}

// -----

fabric.fabric arch wse3 dims [8, 4] offsets [0, 0] {
  fabric.rectangle size [8, 4]
  // expected-note @+1 {{'a' is here}}
  fabric.code_region @a size [3, 3] at [0, 0]
  // expected-error @+1 {{'fabric.code_region' op overlaps code region 'a' at PE (2, 1)}}
  fabric.code_region @b size [2, 2] at [2, 1]
}

// -----

fabric.fabric arch wse3 dims [8, 4] offsets [0, 0] {
  fabric.rectangle size [8, 4]
  fabric.instance @pe file "pe.csl"
  fabric.code_region @r size [2, 2]
  // expected-error @+1 {{'fabric.place' op covers PE (2, 0), outside the 2x2 code region 'r'}}
  fabric.place @pe in @r at [0, 0] size [3, 1]
}

// -----

fabric.fabric arch wse3 dims [8, 4] offsets [0, 0] {
  fabric.rectangle size [8, 4]
  fabric.instance @pe file "pe.csl"
  fabric.color_symbol @c
  // expected-error @+1 {{'fabric.place' op 'c' does not name a fabric.code_region}}
  fabric.place @pe in @c at [0, 0]
}

// -----

fabric.fabric arch wse3 dims [8, 4] offsets [0, 0] {
  fabric.rectangle size [8, 4]
  fabric.instance @pe file "pe.csl"
  fabric.code_region @r size [2, 2] at [1, 1]
  // expected-note @+1 {{'pe' placed here}}
  fabric.place @pe at [2, 2]
  // expected-error @+1 {{'fabric.place' op PE (2, 2) is already placed with 'pe'}}
  fabric.place @pe in @r at [1, 1]
}

// -----

fabric.fabric arch wse3 dims [8, 4] offsets [0, 0] {
  fabric.rectangle size [8, 4]
  fabric.code_region @a size [2, 2]
  // expected-error @+1 {{'fabric.flow' op 'in' names 1 code regions for 3 ends (the source, then each sink)}}
  fabric.flow @f color 1 from [0, 0] to [1, 0, 1, 1] in [@a]
}

// -----

fabric.fabric arch wse3 dims [8, 4] offsets [0, 0] {
  fabric.rectangle size [8, 4]
  fabric.code_region @a size [2, 2]
  // expected-error @+1 {{'fabric.flow' op 'b' does not name a fabric.code_region}}
  fabric.flow @f color 1 from [0, 0] to [1, 0] in [@a, @b]
}

// -----

fabric.fabric arch wse3 dims [8, 4] offsets [0, 0] {
  fabric.rectangle size [8, 4]
  fabric.code_region @a size [2, 2]
  fabric.code_region @b size [1, 3]
  // expected-error @+1 {{'fabric.flow' op sink PE (1, 0) is outside the 1x3 code region 'b'}}
  fabric.flow @f color 1 from [1, 1] to [1, 0] in [@a, @b]
}

// -----

fabric.fabric arch wse3 dims [8, 4] offsets [0, 0] {
  fabric.rectangle size [8, 4]
  fabric.code_region @a size [2, 2]
  // expected-error @+1 {{'fabric.flow' op source PE (0, 2) is outside the 2x2 code region 'a'}}
  fabric.flow @f color 1 from [0, 2] to [1, 0] in [@a, @a]
}

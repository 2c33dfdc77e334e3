// RUN: tessera-opt %s -split-input-file -verify-diagnostics
// Every verifier message of the fabric dialect.

// expected-error @+1 {{'fabric.fabric' op dims must be positive, got (0, 3)}}
fabric.fabric arch wse3 dims [0, 3] offsets [0, 0] {
  fabric.rectangle size [1, 1]
}

// -----

// expected-error @+1 {{'fabric.fabric' op offsets must be non-negative, got (-1, 1)}}
fabric.fabric arch wse3 dims [4, 3] offsets [-1, 1] {
  fabric.rectangle size [1, 1]
}

// -----

// expected-error @+1 {{'fabric.fabric' op attribute 'dims' failed to satisfy constraint: i64 dense array attribute with exactly 2 elements}}
fabric.fabric arch wse3 dims [4, 3, 1] offsets [0, 0] {
  fabric.rectangle size [1, 1]
}

// -----

// expected-error @+1 {{'fabric.fabric' op 'channels' requires 'memcpy'}}
fabric.fabric arch wse3 dims [4, 3] offsets [0, 0] channels 1 {
  fabric.rectangle size [1, 1]
}

// -----

// expected-error @+1 {{'fabric.fabric' op channels 17 is out of range for wse3 (1..16)}}
fabric.fabric arch wse3 dims [11, 3] offsets [4, 1] memcpy channels 17 {
  fabric.rectangle size [4, 1]
}

// -----

// expected-error @+1 {{'fabric.fabric' op needs a fabric.rectangle}}
fabric.fabric arch wse3 dims [4, 3] offsets [0, 0] {
}

// -----

fabric.fabric arch wse3 dims [4, 3] offsets [0, 0] {
  // expected-note @+1 {{the first rectangle is here}}
  fabric.rectangle size [1, 1]
  // expected-error @+1 {{'fabric.rectangle' op the fabric has a rectangle already}}
  fabric.rectangle size [2, 1]
}

// -----

fabric.fabric arch wse3 dims [11, 3] offsets [4, 1] {
  // expected-error @+1 {{'fabric.rectangle' op the 8x1 rectangle at offsets (4, 1) does not fit the 11x3 fabric}}
  fabric.rectangle size [8, 1]
}

// -----

fabric.fabric arch wse3 dims [11, 3] offsets [0, 0] {
  // expected-error @+1 {{'fabric.rectangle' op size must be positive, got (0, 1)}}
  fabric.rectangle size [0, 1]
}

// -----

// memcpy puts three columns and a halo west of the rectangle.
// expected-error @+1 {{'fabric.fabric' op memcpy needs offsets of at least (4, 1), got (3, 1)}}
fabric.fabric arch wse3 dims [11, 3] offsets [3, 1] memcpy {
  fabric.rectangle size [4, 1]
}

// -----

// A 4x1 kernel needs (4 + 7, 1 + 2) with memcpy.
// expected-error @+1 {{'fabric.fabric' op memcpy needs dims of at least (11, 3) around the 4x1 rectangle, got (10, 3)}}
fabric.fabric arch wse3 dims [10, 3] offsets [4, 1] memcpy {
  fabric.rectangle size [4, 1]
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 1]
  fabric.instance @pe file "pe.csl"
  // expected-error @+1 {{'fabric.place' op covers PE (4, 0), outside the 4x1 rectangle}}
  fabric.place @pe at [2, 0] size [3, 1]
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{'fabric.place' op 'nosuch' does not name a fabric.instance}}
  fabric.place @nosuch at [0, 0]
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [8, 1]
  fabric.instance @a file "a.csl"
  fabric.instance @b file "b.csl"
  // expected-note @+1 {{'a' placed here}}
  fabric.place @a at [0, 0] size [8, 1] step [3, 1]
  // Columns 1, 3, 5, 7 meet columns 0, 3, 6 at 3.
  // expected-error @+1 {{'fabric.place' op PE (3, 0) is already placed with 'a'}}
  fabric.place @b at [1, 0] size [7, 1] step [2, 1]
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  fabric.instance @a file "a.csl"
  // expected-error @+1 {{'fabric.place' op origin must be non-negative, got (-1, 0)}}
  fabric.place @a at [-1, 0]
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  fabric.instance @a file "a.csl"
  // expected-error @+1 {{'fabric.place' op size must be positive, got (0, 1)}}
  fabric.place @a at [0, 0] size [0, 1]
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  fabric.instance @a file "a.csl"
  // expected-error @+1 {{'fabric.place' op step must be positive, got (1, 0)}}
  fabric.place @a at [0, 0] size [4, 4] step [1, 0]
}

// -----

// expected-error @+1 {{'fabric.place' op expects parent op 'fabric.fabric'}}
fabric.place @a at [0, 0]

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{'fabric.instance' op 'nosuch' does not name a csl.program}}
  fabric.instance @a file "a.csl" program @nosuch
}

// -----

csl.program @p arch wse2 file "a.csl" {
}
fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{'fabric.instance' op program 'p' targets wse2, the fabric wse3}}
  fabric.instance @a file "a.csl" program @p
}

// -----

csl.program @p arch wse3 file "b.csl" {
}
fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{'fabric.instance' op instance file 'a.csl' differs from the file of program 'p', 'b.csl'}}
  fabric.instance @a file "a.csl" program @p
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{'fabric.color_config' op color 24 is not routable on wse3 (0..23)}}
  fabric.color_config color 24 at [0, 0] rx [ramp] tx [east]
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{'fabric.color_config' op covers PE (0, 4), outside the 4x4 rectangle}}
  fabric.color_config color 1 at [0, 2] size [1, 3] rx [ramp] tx [east]
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{'fabric.color_config' op step must be positive, got (0, 1)}}
  fabric.color_config color 1 at [0, 0] size [4, 1] step [0, 1] rx [ramp] tx [east]
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-note @+1 {{first configured here}}
  fabric.color_config color 1 at [0, 0] size [4, 1] rx [ramp] tx [east]
  fabric.color_config color 2 at [1, 0] rx [west] tx [ramp]
  // expected-error @+1 {{'fabric.color_config' op color 1 of PE (1, 0) is already configured}}
  fabric.color_config color 1 at [1, 0] size [1, 4] rx [west] tx [ramp]
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{'fabric.color_config' op switch position 2 is set but position 1 is not}}
  fabric.color_config color 1 at [0, 0] rx [ramp] tx [east] pos2 tx north
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{'fabric.color_config' op current_switch_pos 4 is out of range (0..3)}}
  fabric.color_config color 1 at [0, 0] rx [ramp] tx [east] pos1 tx north current_switch_pos 4
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{'fabric.color_config' op current_switch_pos 2 names an unset switch position}}
  fabric.color_config color 1 at [0, 0] rx [ramp] tx [east] pos1 tx north current_switch_pos 2
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{'fabric.color_config' op ring_mode needs at least one switch position}}
  fabric.color_config color 1 at [0, 0] rx [ramp] tx [east] ring_mode
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{'fabric.color_config' op color swap is not available on wse3}}
  fabric.color_config color 1 at [0, 0] rx [east] tx [ramp] color_swap_x
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{'fabric.color_config' op range filter bounds must lie in 0..65535, got [0, 70000]}}
  fabric.color_config color 1 at [0, 0] rx [east] tx [ramp] filter #fabric.range_filter<0, 70000>
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{'fabric.color_config' op range filter [5, 3] is empty}}
  fabric.color_config color 1 at [0, 0] rx [east] tx [ramp] filter #fabric.range_filter<5, 3>
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{'fabric.color_config' op counter filter values must be non-negative}}
  fabric.color_config color 1 at [0, 0] rx [east] tx [ramp] filter #fabric.counter_filter<init_counter = -1, max_counter = 0, limit1 = 1>
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{custom op 'fabric.color_config' expected one of [ramp, north, south, east, west] for one router port, got: up}}
  fabric.color_config color 1 at [0, 0] rx [up] tx [ramp]
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{custom op 'fabric.color_config' expected one of [rx, tx] for the side of a route a switch position replaces, got: both}}
  fabric.color_config color 1 at [0, 0] rx [west] tx [ramp] pos1 both west
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-note @+1 {{first declared here}}
  fabric.export "y" : memref<?xf32>
  // expected-error @+1 {{'fabric.export' op host name 'y' is declared twice}}
  fabric.export "y" : () -> ()
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{'fabric.export' op exported data needs 16- or 32-bit elements, got 'i8'}}
  fabric.export "y" : memref<?xi8>
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{'fabric.export' op a function cannot be exported as mutable}}
  fabric.export mutable "f" : () -> ()
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{'fabric.export' op an exported function must not return a value}}
  fabric.export "f" : () -> f32
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{'fabric.export' op exported function takes 'i8' as argument #1; exports need 16- or 32-bit scalars}}
  fabric.export "f" : (i16, i8) -> ()
}

// -----

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{'fabric.export' op exports a memref (data) or a function type, got 'i32'}}
  fabric.export "n" : i32
}

// RUN: tessera-opt %s | FileCheck %s
// RUN: tessera-opt %s | tessera-opt | FileCheck %s
// RUN: tessera-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tessera-opt %s --mlir-print-op-generic | tessera-opt | FileCheck %s
// Every fabric operation and attribute prints and parses back.

// CHECK:      module {
// CHECK-NEXT:   csl.program @pe_even arch wse2 file "pe.csl" params {parity = 0 : i64} {
// CHECK-NEXT:   }
// CHECK-NEXT:   csl.program @pe_odd arch wse2 file "pe.csl" params {parity = 1 : i64} {
// CHECK-NEXT:   }
// CHECK-NEXT:   fabric.fabric arch wse2 dims [15, 4] offsets [4, 1] memcpy channels 2 {
// CHECK-NEXT:     fabric.rectangle size [8, 2]
// CHECK-NEXT:     fabric.instance @even file "pe.csl" params {parity = 0 : i64} program @pe_even
// CHECK-NEXT:     fabric.instance @odd file "pe.csl" params {parity = 1 : i64} program @pe_odd
// CHECK-NEXT:     fabric.instance @spare file "spare.csl"
// CHECK-NEXT:     fabric.place @even at [0, 0] size [8, 1] step [2, 1]
// CHECK-NEXT:     fabric.place @odd at [1, 0] size [7, 1] step [2, 1]
// CHECK-NEXT:     fabric.place @spare at [0, 1] size [8, 1]
// CHECK-NEXT:     fabric.color_config color 3 at [0, 0] rx [ramp] tx [east]
// CHECK-NEXT:     fabric.color_config color 3 at [1, 0] size [7, 1] rx [west] tx [ramp, east] pos1 tx south current_switch_pos 0 pop_mode pop_on_advance
// CHECK-NEXT:     fabric.color_config color 4 at [0, 1] size [8, 1] rx [north, west] tx [ramp] pos1 rx north pos2 rx west pos3 tx east current_switch_pos 3 ring_mode pop_mode always_pop filter #fabric.range_filter<0, 5> teardown color_swap_x color_swap_y
// CHECK-NEXT:     fabric.color_config color 5 at [7, 1] rx [] tx [] filter #fabric.counter_filter<init_counter = 1, max_counter = 2, limit1 = 3, count_data = true, count_control = true, fast_mode = true>
// CHECK-NEXT:     fabric.color_config color 23 at [0, 0] size [8, 2] step [4, 1] rx [south] tx [north]
// CHECK-NEXT:     fabric.export mutable "y" : memref<?xf32>
// CHECK-NEXT:     fabric.export "count" : memref<?xi16>
// CHECK-NEXT:     fabric.export "compute" : (i16, f32) -> ()
// CHECK-NEXT:   }
// CHECK-NEXT:   fabric.fabric arch wse3 dims [4, 4] offsets [0, 0] {
// CHECK-NEXT:     fabric.rectangle size [4, 4]
// CHECK-NEXT:   }
// CHECK-NEXT: }

// GENERIC:      "builtin.module"() ({
// GENERIC-NEXT:   "csl.program"() <{arch = #csl<arch wse2>, file = "pe.csl", params = {parity = 0 : i64}, sym_name = "pe_even"}> ({
// GENERIC-NEXT:   ^bb0:
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "csl.program"() <{arch = #csl<arch wse2>, file = "pe.csl", params = {parity = 1 : i64}, sym_name = "pe_odd"}> ({
// GENERIC-NEXT:   ^bb0:
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "fabric.fabric"() <{arch = #csl<arch wse2>, channels = 2 : i64, dims = array<i64: 15, 4>, memcpy, offsets = array<i64: 4, 1>}> ({
// GENERIC-NEXT:     "fabric.rectangle"() <{size = array<i64: 8, 2>}> : () -> ()
// GENERIC-NEXT:     "fabric.instance"() <{file = "pe.csl", params = {parity = 0 : i64}, program = @pe_even, sym_name = "even"}> : () -> ()
// GENERIC-NEXT:     "fabric.instance"() <{file = "pe.csl", params = {parity = 1 : i64}, program = @pe_odd, sym_name = "odd"}> : () -> ()
// GENERIC-NEXT:     "fabric.instance"() <{file = "spare.csl", sym_name = "spare"}> : () -> ()
// GENERIC-NEXT:     "fabric.place"() <{instance = @even, origin = array<i64: 0, 0>, size = array<i64: 8, 1>, step = array<i64: 2, 1>}> : () -> ()
// GENERIC-NEXT:     "fabric.place"() <{instance = @odd, origin = array<i64: 1, 0>, size = array<i64: 7, 1>, step = array<i64: 2, 1>}> : () -> ()
// GENERIC-NEXT:     "fabric.place"() <{instance = @spare, origin = array<i64: 0, 1>, size = array<i64: 8, 1>}> : () -> ()
// GENERIC-NEXT:     "fabric.color_config"() <{color = 3 : i64, origin = array<i64: 0, 0>, rx = #fabric<directions ramp>, tx = #fabric<directions east>}> : () -> ()
// GENERIC-NEXT:     "fabric.color_config"() <{color = 3 : i64, current_switch_pos = 0 : i64, origin = array<i64: 1, 0>, pop_mode = #fabric<pop_mode pop_on_advance>, pos1 = #fabric.switch<tx south>, rx = #fabric<directions west>, size = array<i64: 7, 1>, tx = #fabric<directions ramp, east>}> : () -> ()
// GENERIC-NEXT:     "fabric.color_config"() <{color = 4 : i64, color_swap_x, color_swap_y, current_switch_pos = 3 : i64, filter = #fabric.range_filter<0, 5>, origin = array<i64: 0, 1>, pop_mode = #fabric<pop_mode always_pop>, pos1 = #fabric.switch<rx north>, pos2 = #fabric.switch<rx west>, pos3 = #fabric.switch<tx east>, ring_mode, rx = #fabric<directions north, west>, size = array<i64: 8, 1>, teardown, tx = #fabric<directions ramp>}> : () -> ()
// GENERIC-NEXT:     "fabric.color_config"() <{color = 5 : i64, filter = #fabric.counter_filter<init_counter = 1, max_counter = 2, limit1 = 3, count_data = true, count_control = true, fast_mode = true>, origin = array<i64: 7, 1>, rx = #fabric<directions none>, tx = #fabric<directions none>}> : () -> ()
// GENERIC-NEXT:     "fabric.color_config"() <{color = 23 : i64, origin = array<i64: 0, 0>, rx = #fabric<directions south>, size = array<i64: 8, 2>, step = array<i64: 4, 1>, tx = #fabric<directions north>}> : () -> ()
// GENERIC-NEXT:     "fabric.export"() <{is_mutable, name = "y", type = memref<?xf32>}> : () -> ()
// GENERIC-NEXT:     "fabric.export"() <{name = "count", type = memref<?xi16>}> : () -> ()
// GENERIC-NEXT:     "fabric.export"() <{name = "compute", type = (i16, f32) -> ()}> : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "fabric.fabric"() <{arch = #csl<arch wse3>, dims = array<i64: 4, 4>, offsets = array<i64: 0, 0>}> ({
// GENERIC-NEXT:     "fabric.rectangle"() <{size = array<i64: 4, 4>}> : () -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : () -> ()

csl.program @pe_even arch wse2 file "pe.csl" params {parity = 0 : i64} {
}
csl.program @pe_odd arch wse2 file "pe.csl" params {parity = 1 : i64} {
}

fabric.fabric arch wse2 dims [15, 4] offsets [4, 1] memcpy channels 2 {
  fabric.rectangle size [8, 2]
  fabric.instance @even file "pe.csl" params {parity = 0 : i64} program @pe_even
  fabric.instance @odd file "pe.csl" params {parity = 1 : i64} program @pe_odd
  fabric.instance @spare file "spare.csl"
  // Two programs interleaved by column on the first row; the second row
  // runs a third.
  fabric.place @even at [0, 0] size [8, 1] step [2, 1]
  fabric.place @odd at [1, 0] size [7, 1] step [2, 1]
  fabric.place @spare at [0, 1] size [8, 1]

  // An eastward stream with a switch that turns it south.
  fabric.color_config color 3 at [0, 0] rx [ramp] tx [east]
  fabric.color_config color 3 at [1, 0] size [7, 1] rx [west] tx [ramp, east] pos1 tx south current_switch_pos 0 pop_mode pop_on_advance
  fabric.color_config color 4 at [0, 1] size [8, 1] rx [north, west] tx [ramp] pos1 rx north pos2 rx west pos3 tx east current_switch_pos 3 ring_mode pop_mode always_pop filter #fabric.range_filter<0, 5> teardown color_swap_x color_swap_y
  fabric.color_config color 5 at [7, 1] rx [] tx [] filter #fabric.counter_filter<init_counter = 1, max_counter = 2, limit1 = 3, count_data = true, count_control = true, fast_mode = true>
  fabric.color_config color 23 at [0, 0] size [8, 2] step [4, 1] rx [south] tx [north]

  fabric.export mutable "y" : memref<?xf32>
  fabric.export "count" : memref<?xi16>
  fabric.export "compute" : (i16, f32) -> ()
}

// A fabric without memcpy, and without programs yet.
fabric.fabric arch wse3 dims [4, 4] offsets [0, 0] {
  fabric.rectangle size [4, 4]
}

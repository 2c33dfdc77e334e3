// RUN: tessera-opt %s -tessera-verify-routes | FileCheck %s
// Routes without problems pass unchanged.

// CHECK:      fabric.fabric arch wse2 dims [15, 4] offsets [4, 1] memcpy channels 2 {
// CHECK-NEXT:   fabric.rectangle size [8, 2]
// CHECK-NEXT:   fabric.instance @pe file "pe.csl"
// CHECK-NEXT:   fabric.place @pe at [0, 0] size [8, 2]
// CHECK-NEXT:   fabric.color_config color 3 at [0, 0] rx [ramp] tx [east]
// CHECK-NEXT:   fabric.color_config color 3 at [1, 0] size [7, 1] rx [west] tx [ramp, east] pos1 tx south current_switch_pos 0 pop_mode pop_on_advance
// CHECK-NEXT:   fabric.color_config color 4 at [0, 1] size [8, 1] rx [north] tx [ramp] pos1 rx west pos2 rx east pos3 tx west current_switch_pos 3 ring_mode pop_mode always_pop filter #fabric.range_filter<0, 5> teardown color_swap_x color_swap_y
// CHECK-NEXT:   fabric.color_config color 5 at [7, 1] rx [] tx [] filter #fabric.counter_filter<init_counter = 1, max_counter = 2, limit1 = 3, count_data = true>
// CHECK-NEXT:   fabric.color_config color 20 at [0, 0] size [8, 2] step [4, 1] rx [south] tx [north, west]
// CHECK-NEXT: }
// CHECK-NEXT: fabric.fabric arch wse3 dims [4, 4] offsets [0, 0] {
// CHECK-NEXT:   fabric.rectangle size [4, 4]
// CHECK-NEXT:   fabric.color_config color 21 at [1, 1] size [2, 2] rx [west] tx [ramp, south, east]
// CHECK-NEXT: }
// CHECK-NEXT: fabric.fabric arch wse3 dims [8, 4] offsets [0, 0] {
// CHECK-NEXT:   fabric.rectangle size [8, 4]
// CHECK-NEXT:   fabric.color_config color 1 at [0, 0] rx [ramp] tx [east]
// CHECK-NEXT:   fabric.color_config color 1 at [1, 0] size [6, 1] rx [ramp, west] tx [east]
// CHECK-NEXT:   fabric.color_config color 1 at [7, 0] rx [ramp, west] tx [ramp]
// CHECK-NEXT:   fabric.color_config color 2 at [1, 1] rx [ramp] tx [east]
// CHECK-NEXT:   fabric.color_config color 2 at [2, 1] rx [east, west] tx [ramp]
// CHECK-NEXT:   fabric.color_config color 2 at [3, 1] rx [ramp] tx [south, east]
// CHECK-NEXT:   fabric.color_config color 3 at [1, 2] rx [ramp] tx [east]
// CHECK-NEXT:   fabric.color_config color 3 at [2, 2] rx [north, east, west] tx [ramp]
// CHECK-NEXT:   fabric.color_config color 3 at [3, 2] rx [ramp] tx [ramp] pos1 tx west
// CHECK-NEXT:   fabric.color_config color 4 at [2, 1] rx [ramp] tx [south]
// CHECK-NEXT:   fabric.color_config color 3 at [2, 3] rx [ramp] tx [north]
// CHECK-NEXT: }
// CHECK-NEXT: fabric.fabric arch wse3 dims [757, 996] offsets [4, 1] memcpy channels 1 {
// CHECK-NEXT:   fabric.rectangle size [750, 994]
// CHECK-NEXT:   fabric.color_config color 5 at [0, 0] size [750, 994] rx [north, east, west] tx [ramp, east]
// CHECK-NEXT: }

// The memcpy margins surround the rectangle, so its edges may send out of
// it; colors 21..23 are memcpy's.
fabric.fabric arch wse2 dims [15, 4] offsets [4, 1] memcpy channels 2 {
  fabric.rectangle size [8, 2]
  fabric.instance @pe file "pe.csl"
  fabric.place @pe at [0, 0] size [8, 2]
  fabric.color_config color 3 at [0, 0] rx [ramp] tx [east]
  fabric.color_config color 3 at [1, 0] size [7, 1] rx [west] tx [ramp, east] pos1 tx south current_switch_pos 0 pop_mode pop_on_advance
  fabric.color_config color 4 at [0, 1] size [8, 1] rx [north] tx [ramp] pos1 rx west pos2 rx east pos3 tx west current_switch_pos 3 ring_mode pop_mode always_pop filter #fabric.range_filter<0, 5> teardown color_swap_x color_swap_y
  fabric.color_config color 5 at [7, 1] rx [] tx [] filter #fabric.counter_filter<init_counter = 1, max_counter = 2, limit1 = 3, count_data = true>
  fabric.color_config color 20 at [0, 0] size [8, 2] step [4, 1] rx [south] tx [north, west]
}

// Without memcpy every color is the program's; the interior of a fabric
// may route any way.
fabric.fabric arch wse3 dims [4, 4] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  fabric.color_config color 21 at [1, 1] size [2, 2] rx [west] tx [ramp, south, east]
}

// Several rx ports are legal while streams never arrive from two of them
// at once. A bus like the collectives' (rx from the upstream neighbour and
// the ramp, tx downstream) has one stream into each PE.
fabric.fabric arch wse3 dims [8, 4] offsets [0, 0] {
  fabric.rectangle size [8, 4]
  fabric.color_config color 1 at [0, 0] rx [ramp] tx [east]
  fabric.color_config color 1 at [1, 0] size [6, 1] rx [ramp, west] tx [east]
  fabric.color_config color 1 at [7, 0] rx [ramp, west] tx [ramp]
  // (2, 1) accepts both sides, but its east neighbour sends away from it.
  fabric.color_config color 2 at [1, 1] rx [ramp] tx [east]
  fabric.color_config color 2 at [2, 1] rx [east, west] tx [ramp]
  fabric.color_config color 2 at [3, 1] rx [ramp] tx [south, east]
  // (3, 2) sends west only in a switch position, the north neighbour sends
  // south on another color, and (2, 2) does not accept the south
  // neighbour's stream.
  fabric.color_config color 3 at [1, 2] rx [ramp] tx [east]
  fabric.color_config color 3 at [2, 2] rx [north, east, west] tx [ramp]
  fabric.color_config color 3 at [3, 2] rx [ramp] tx [ramp] pos1 tx west
  fabric.color_config color 4 at [2, 1] rx [ramp] tx [south]
  fabric.color_config color 3 at [2, 3] rx [ramp] tx [north]
}

// A wafer-sized stream east: every PE accepts three sides, but only its west
// neighbour sends to it.
fabric.fabric arch wse3 dims [757, 996] offsets [4, 1] memcpy channels 1 {
  fabric.rectangle size [750, 994]
  fabric.color_config color 5 at [0, 0] size [750, 994] rx [north, east, west] tx [ramp, east]
}

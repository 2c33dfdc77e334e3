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

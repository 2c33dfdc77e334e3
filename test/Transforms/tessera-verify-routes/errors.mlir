// RUN: tessera-opt %s -tessera-verify-routes -split-input-file -verify-diagnostics
// Every error of tessera-verify-routes (and its warning), at the color_config
// it is about.

// Two neighbours streaming one color into a PE at once: (2, 0) sends east
// and (4, 0) west, and (3, 0) accepts both.
fabric.fabric arch wse3 dims [8, 3] offsets [0, 0] {
  fabric.rectangle size [8, 2]
  // expected-note @+1 {{PE (2, 0) sends it here}}
  fabric.color_config color 5 at [2, 0] rx [ramp] tx [east]
  // expected-error @+1 {{PE (3, 0) color 5 is received from west and east at once}}
  fabric.color_config color 5 at [3, 0] rx [west, east] tx [ramp]
  // expected-note @+1 {{PE (4, 0) sends it here}}
  fabric.color_config color 5 at [4, 0] rx [ramp] tx [west]
  // A bus both ways: every PE but its ends hears both neighbours. The ramp
  // is no neighbour, and switch positions do not hide the base route.
  // expected-note @+3 {{PE (1, 1) sends it here}}
  // expected-note @+2 {{PE (3, 1) sends it here}}
  // expected-error @+1 {{PE (2, 1) color 6 is received from west and east at once (and 2 other PEs of this range)}}
  fabric.color_config color 6 at [1, 1] size [5, 1] rx [ramp, north, east, west] tx [east, west] pos1 rx west pos2 tx south current_switch_pos 1
}

// -----

// Routes off the fabric edge: the rectangle fills the fabric here.
fabric.fabric arch wse3 dims [4, 3] offsets [0, 0] {
  fabric.rectangle size [4, 3]
  // expected-error @+1 {{PE (0, 0) color 2 is sent west, off the fabric edge}}
  fabric.color_config color 2 at [0, 0] rx [ramp] tx [west]
  // expected-error @+1 {{PE (0, 0) color 3 is sent west and north, off the fabric edge (and 9 other PEs of this range)}}
  fabric.color_config color 3 at [0, 0] size [4, 3] rx [ramp] tx [north, south, east, west]
  // A switch position's port counts.
  // expected-error @+1 {{PE (3, 1) color 4 is sent east, off the fabric edge}}
  fabric.color_config color 4 at [1, 1] size [3, 1] step [2, 1] rx [west] tx [ramp] pos1 tx east
  // expected-error @+1 {{PE (1, 2) color 5 is received from south, off the fabric edge (and 1 other PE of this range)}}
  fabric.color_config color 5 at [1, 2] size [2, 1] rx [south] tx [ramp]
  // expected-error @+1 {{PE (0, 1) color 6 is received from west, off the fabric edge}}
  fabric.color_config color 6 at [0, 1] rx [east] tx [ramp] pos1 rx west
}

// -----

// With offsets the rectangle's edges talk to the PEs around it.
fabric.fabric arch wse3 dims [6, 4] offsets [1, 2] {
  fabric.rectangle size [4, 2]
  fabric.color_config color 2 at [0, 0] size [4, 2] rx [north] tx [west, east]
  // The fabric's south edge is the rectangle's second row.
  // expected-error @+1 {{PE (0, 1) color 3 is sent south, off the fabric edge (and 3 other PEs of this range)}}
  fabric.color_config color 3 at [0, 0] size [4, 2] rx [north] tx [south]
}

// -----

// Colors the memcpy infrastructure owns.
fabric.fabric arch wse3 dims [11, 4] offsets [4, 1] memcpy channels 1 {
  fabric.rectangle size [4, 2]
  fabric.color_config color 20 at [0, 0] rx [west] tx [ramp]
  // expected-error @+1 {{PE (1, 1) color 21 is reserved by the memcpy infrastructure (--memcpy)}}
  fabric.color_config color 21 at [1, 1] rx [west] tx [ramp]
  // expected-error @+1 {{PE (0, 0) color 23 is reserved by the memcpy infrastructure (--memcpy) (and 7 other PEs of this range)}}
  fabric.color_config color 23 at [0, 0] size [4, 2] rx [west] tx [ramp]
  // expected-note @+4 {{PE (1, 0) sends it here}}
  // expected-note @+3 {{PE (3, 0) sends it here}}
  // expected-error @+2 {{PE (1, 0) color 22 is reserved by the memcpy infrastructure (--memcpy) (and 2 other PEs of this range)}}
  // expected-error @+1 {{PE (2, 0) color 22 is received from west and east at once}}
  fabric.color_config color 22 at [1, 0] size [3, 1] rx [west, east] tx [west, east, ramp]
}

// -----

// The same colors are free without memcpy.
fabric.fabric arch wse2 dims [11, 4] offsets [4, 1] {
  fabric.rectangle size [4, 2]
  fabric.color_config color 21 at [1, 1] rx [west] tx [ramp]
  // expected-note @+3 {{PE (0, 1) sends it here}}
  // expected-note @+2 {{PE (1, 0) sends it here}}
  // expected-error @+1 {{PE (1, 1) color 22 is received from west and north at once (and 2 other PEs of this range)}}
  fabric.color_config color 22 at [0, 0] size [4, 2] rx [west, north] tx [east, south]
}

// -----

// Switch settings need switch positions; pop_mode does not (a router
// without positions still pops commands for the routers after it, as
// fft-1d-2d's sending PEs do), so it is accepted alone and not named.
fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-error @+1 {{PE (1, 1) color 1 sets current_switch_pos but has no switch positions}}
  fabric.color_config color 1 at [1, 1] rx [west] tx [ramp] current_switch_pos 0
  fabric.color_config color 2 at [1, 1] size [2, 2] rx [west] tx [ramp] pop_mode always_pop
  // expected-error @+1 {{PE (2, 2) color 3 sets current_switch_pos but has no switch positions}}
  fabric.color_config color 3 at [2, 2] rx [west] tx [ramp] current_switch_pos 0 pop_mode no_pop
  fabric.color_config color 4 at [2, 2] rx [west] tx [ramp] pos1 tx east current_switch_pos 0 pop_mode no_pop
  fabric.color_config color 4 at [0, 0] rx [ramp] tx [east] pop_mode always_pop
}

// -----

// One op with many problems reports each kind once, with its first PE and
// how many others have it.
fabric.fabric arch wse3 dims [7, 2] offsets [0, 0] {
  fabric.rectangle size [7, 2]
  // expected-note @+5 {{PE (0, 0) sends it here}}
  // expected-note @+4 {{PE (2, 0) sends it here}}
  // expected-error @+3 {{PE (1, 0) color 22 is received from west and east at once (and 9 other PEs of this range)}}
  // expected-error @+2 {{PE (0, 0) color 22 is sent west and north, off the fabric edge (and 8 other PEs of this range)}}
  // expected-error @+1 {{PE (0, 0) color 22 is received from west, off the fabric edge (and 3 other PEs of this range)}}
  fabric.color_config color 22 at [0, 0] size [7, 2] rx [west, east] tx [ramp, north, east, west] pop_mode always_pop
}

// -----

// A wafer-sized range is one error; the rectangle's west and east columns
// have one neighbour each inside it.
fabric.fabric arch wse3 dims [757, 996] offsets [4, 1] memcpy channels 1 {
  fabric.rectangle size [750, 994]
  // expected-note @+3 {{PE (0, 0) sends it here}}
  // expected-note @+2 {{PE (2, 0) sends it here}}
  // expected-error @+1 {{PE (1, 0) color 5 is received from west and east at once (and 743,511 other PEs of this range)}}
  fabric.color_config color 5 at [0, 0] size [750, 994] rx [west, east] tx [ramp, west, east]
}

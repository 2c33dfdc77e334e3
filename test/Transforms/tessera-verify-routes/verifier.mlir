// RUN: tessera-opt %s -tessera-verify-routes -split-input-file -verify-diagnostics
// Route errors the fabric dialect's verifiers catch, before the pass runs;
// they stay there, and fire in a run of the pass as in any other.

fabric.fabric arch wse3 dims [8, 8] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  // expected-note @+1 {{first configured here}}
  fabric.color_config color 1 at [0, 0] size [4, 1] rx [ramp] tx [east]
  // expected-error @+1 {{'fabric.color_config' op color 1 of PE (2, 0) is already configured}}
  fabric.color_config color 1 at [2, 0] size [1, 4] rx [west] tx [ramp]
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
  // expected-error @+1 {{'fabric.color_config' op current_switch_pos 1 names an unset switch position}}
  fabric.color_config color 1 at [0, 0] rx [ramp] tx [east] current_switch_pos 1
}

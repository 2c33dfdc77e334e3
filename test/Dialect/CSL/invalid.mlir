// RUN: tessera-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'csl.get_color' op color id must be non-negative, got -1}}
%c = csl.get_color -1 : !csl.color

// -----

// expected-error @+1 {{expected attribute value}}
%c = csl.get_color red : !csl.color

// -----

// expected-error @+1 {{unknown  type `colour` in dialect `csl`}}
%c = csl.get_color 1 : !csl.colour

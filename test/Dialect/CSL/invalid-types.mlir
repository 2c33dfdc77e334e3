// RUN: tessera-opt %s -split-input-file -verify-diagnostics
// The DSD type's own invariants.

// expected-error @+1 {{a fabin DSD carries no element type}}
func.func private @f(!csl.dsd<fabin, f32>)

// -----

// expected-error @+1 {{a mem1d DSD needs an element type}}
func.func private @f(!csl.dsd<mem1d>)

// -----

// expected-error @+1 {{a fifo DSD needs an element type}}
func.func private @f(!csl.dsd<fifo>)

// -----

// expected-error @+1 {{DSD element type must be f16, f32, i16 or i32, got 'i8'}}
func.func private @f(!csl.dsd<mem4d, i8>)

// -----

// expected-error @+2 {{expected ::tessera::csl::DSDKind to be one of: mem1d, mem4d, circbuf, fabin, fabout, fifo}}
// expected-error @+1 {{failed to parse CSL_DSDType parameter 'kind' which is to be a `::tessera::csl::DSDKind`}}
func.func private @f(!csl.dsd<mem2d, f32>)

// -----

// expected-error @+2 {{expected ::tessera::csl::TaskKind to be one of: data, local, control}}
// expected-error @+1 {{failed to parse CSL_TaskIDType parameter 'kind' which is to be a `::tessera::csl::TaskKind`}}
func.func private @f(!csl.task_id<remote>)

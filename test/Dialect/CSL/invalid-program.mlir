// RUN: tessera-opt %s -split-input-file -verify-diagnostics
// Programs, tasks and exports.

csl.program @p arch wse3 {
  // expected-note @+1 {{first bound here}}
  csl.task local @a() id 8 {
    csl.return
  }
  // expected-error @+1 {{'csl.task' op task ID 8 is already bound to 'a'}}
  csl.task control @b() id 8 {
    csl.return
  }
}

// -----

csl.program @p arch wse3 {
  // expected-note @+1 {{first bound here}}
  csl.initialize_queue input 2 color 1
  csl.initialize_queue output 2 color 1
  // expected-error @+1 {{'csl.initialize_queue' op input queue 2 is bound twice}}
  csl.initialize_queue input 2 color 3
}

// -----

csl.program @p arch wse3 {
  memref.global @x : memref<4xf32> = uninitialized
  memref.global @z : memref<4xf32> = uninitialized
  // expected-note @+1 {{first exported here}}
  csl.export @x as "x" : memref<4xf32>
  // expected-error @+1 {{'csl.export' op host name 'x' is exported twice}}
  csl.export @z as "x" : memref<4xf32>
}

// -----

// WSE-3 data tasks drain an input queue, which must be bound to a color.
csl.program @p arch wse3 {
  // expected-error @+1 {{'csl.task' op data task 'recv' is bound to input queue 3, which no csl.initialize_queue binds to a color}}
  csl.task data @recv(%x: f32) id 3 {
    csl.return
  }
}

// -----

csl.program @p arch wse3 {
  // expected-error @+1 {{expected task kind 'data', 'local' or 'control', got 'remote'}}
  csl.task remote @t() {
    csl.return
  }
}

// -----

csl.program @p arch wse3 {
  // expected-error @+1 {{tasks return nothing}}
  csl.task local @t() -> i16 {
    csl.return
  }
}

// -----

csl.program @p arch wse3 {
  // expected-error @+1 {{'csl.task' op tasks return nothing}}
  "csl.task"() <{function_type = () -> i16, kind = #csl<task_kind local>, sym_name = "t"}> ({
    "csl.return"() : () -> ()
  }) : () -> ()
}

// -----

csl.program @p arch wse3 {
  // expected-error @+1 {{'csl.task' op argument #0 has type 'memref<f32>'; task arguments are integers or floats}}
  csl.task control @t(%p: memref<f32>) {
    csl.return
  }
}

// -----

csl.program @p arch wse3 {
  // expected-error @+1 {{'csl.task' op a local task takes no arguments, got 1}}
  csl.task local @t(%x: i16) {
    csl.return
  }
}

// -----

csl.program @p arch wse3 {
  // expected-error @+1 {{'csl.task' op a control task takes at most 4 arguments, got 5}}
  csl.task control @t(%a: i8, %b: i8, %c: i8, %d: i8, %e: i8) {
    csl.return
  }
}

// -----

csl.program @p arch wse3 {
  // expected-error @+1 {{'csl.task' op a data task takes 1 to 4 arguments, got 0}}
  csl.task data @t() {
    csl.return
  }
}

// -----

csl.program @p arch wse3 {
  // expected-error @+1 {{'csl.task' op data task arguments split the payload evenly and must have one width, got 'i16' and 'i8'}}
  csl.task data @t(%a: i16, %b: i8) {
    csl.return
  }
}

// -----

csl.program @p arch wse3 {
  // expected-error @+1 {{'csl.task' op data task arguments need 64 bits, more than the 32-bit wavelet payload}}
  csl.task data @t(%a: f32, %b: f32) {
    csl.return
  }
}

// -----

csl.program @p arch wse3 {
  // expected-error @+1 {{'csl.task' op local task ID 7 is out of range for wse3 (8..30)}}
  csl.task local @t() id 7 {
    csl.return
  }
}

// -----

csl.program @p arch wse2 {
  // expected-error @+1 {{'csl.task' op data task ID 24 is out of range for wse2 (0..23)}}
  csl.task data @t(%x: i32) id 24 {
    csl.return
  }
}

// -----

csl.program @p arch wse2 {
  // expected-error @+1 {{'csl.task' op control task ID 64 is out of range for wse2 (0..63)}}
  csl.task control @t() id 64 {
    csl.return
  }
}

// -----

// expected-error @+1 {{'csl.task' op expects parent op 'csl.program'}}
csl.task local @t() {
  csl.return
}

// -----

csl.program @p arch wse2 {
  csl.task local @t() {
    // expected-error @+1 {{'csl.return' op must be the last operation in the parent block}}
    csl.return
    csl.return
  }
}

// -----

csl.program @p arch wse2 {
  func.func @f() {
    // expected-error @+1 {{'csl.return' op expects parent op 'csl.task'}}
    csl.return
  }
}

// -----

csl.program @p arch wse2 {
  memref.global @y : memref<4xf32> = uninitialized
  // expected-error @+1 {{'csl.export' op exported type 'memref<8xf32>' does not match the type of 'y', 'memref<4xf32>'}}
  csl.export @y as "y" : memref<8xf32>
}

// -----

csl.program @p arch wse2 {
  memref.global @flags : memref<4xi8> = uninitialized
  // expected-error @+1 {{'csl.export' op exports need 16- or 32-bit elements, 'flags' holds 'i8'}}
  csl.export @flags as "flags" : memref<4xi8>
}

// -----

csl.program @p arch wse2 {
  memref.global constant @c : memref<2xi16> = dense<1>
  // expected-error @+1 {{'csl.export' op constant global 'c' cannot be exported as mutable}}
  csl.export mutable @c as "c" : memref<2xi16>
}

// -----

csl.program @p arch wse2 {
  func.func @f(%x: i16) {
    return
  }
  // expected-error @+1 {{'csl.export' op exported type '(f32) -> ()' does not match the type of 'f', '(i16) -> ()'}}
  csl.export @f as "f" : (f32) -> ()
}

// -----

csl.program @p arch wse2 {
  func.func @f() {
    return
  }
  // expected-error @+1 {{'csl.export' op function 'f' cannot be exported as mutable}}
  csl.export mutable @f as "f" : () -> ()
}

// -----

csl.program @p arch wse2 {
  func.func @f() -> i16 {
    %c = arith.constant 1 : i16
    return %c : i16
  }
  // expected-error @+1 {{'csl.export' op exported function 'f' must not return a value}}
  csl.export @f as "f" : () -> i16
}

// -----

csl.program @p arch wse2 {
  func.func @f(%x: i8) {
    return
  }
  // expected-error @+1 {{'csl.export' op exported function 'f' takes 'i8' as argument #0; exports need 16- or 32-bit scalars}}
  csl.export @f as "f" : (i8) -> ()
}

// -----

csl.program @p arch wse2 {
  csl.task local @t() {
    csl.return
  }
  // expected-error @+1 {{'csl.export' op 't' does not name a global or function of this program}}
  csl.export @t as "t" : () -> ()
}

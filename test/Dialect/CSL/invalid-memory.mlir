// RUN: tessera-opt %s -split-input-file -verify-diagnostics

csl.program @pe arch wse2 {
  // expected-error @+1 {{'csl.pointer_global' op expects memref<?xT> (a many-item pointer) or a statically shaped memref (a single-item pointer), found 'memref<?x?xf32>'}}
  csl.pointer_global @p : memref<?x?xf32>
}

// -----

csl.program @pe arch wse2 {
  memref.global @A : memref<16xi16> = uninitialized
  // expected-error @+1 {{'csl.pointer_global' op points to elements of type 'f32' but 'A' holds 'i16'}}
  csl.pointer_global @p = @A : memref<?xf32>
}

// -----

csl.program @pe arch wse2 {
  memref.global @A : memref<16xf32> = uninitialized
  // expected-error @+1 {{'csl.pointer_global' op a single-item pointer of type 'memref<4xf32>' cannot point to 'A' of type 'memref<16xf32>'}}
  csl.pointer_global @p = @A : memref<4xf32>
}

// -----

csl.program @pe arch wse2 {
  func.func @f() {
    return
  }
  // expected-error @+1 {{'csl.pointer_global' op 'f' does not name a memref.global}}
  csl.pointer_global @p = @f : memref<?xf32>
}

// -----

csl.program @pe arch wse2 {
  memref.global @A : memref<16xf32> = uninitialized
  func.func @f() {
    // expected-error @+1 {{'csl.load_pointer' op 'A' does not name a pointer global}}
    %p = csl.load_pointer @A : memref<?xf32>
    return
  }
}

// -----

csl.program @pe arch wse2 {
  csl.pointer_global @p : memref<?xf32>
  func.func @f(%m: memref<?xi16>) {
    // expected-error @+1 {{'csl.store_pointer' op pointer global 'p' has type 'memref<?xf32>', not 'memref<?xi16>'}}
    csl.store_pointer %m, @p : memref<?xi16>
    return
  }
}

// -----

csl.program @pe arch wse2 {
  csl.pointer_global @p : memref<?xi8>
  // expected-error @+1 {{'csl.export' op exports need 16- or 32-bit elements, 'p' points to 'i8'}}
  csl.export @p as "p" : memref<?xi8>
}

// -----

csl.program @pe arch wse2 {
  csl.pointer_global @p : memref<?xf32>
  // expected-error @+1 {{'csl.export' op exported type 'memref<?xf16>' does not match the type of 'p', 'memref<?xf32>'}}
  csl.export @p as "p" : memref<?xf16>
}

// -----

csl.program @pe arch wse2 {
  memref.global @y : memref<4xf32> = uninitialized
  // expected-error @+1 {{'csl.dsd_global' op initializer must yield one '!csl.dsd<mem1d, f16>'}}
  csl.dsd_global @d : !csl.dsd<mem1d, f16> {
    %y = memref.get_global @y : memref<4xf32>
    %d = csl.tensor_access_dsd %y sizes [4] map affine_map<(d0) -> (d0)> : memref<4xf32> -> !csl.dsd<mem1d, f32>
    csl.yield %d : !csl.dsd<mem1d, f32>
  }
}

// -----

csl.program @pe arch wse2 {
  csl.pointer_global @p : memref<?xf32>
  func.func @f() {
    // expected-error @+1 {{'csl.load_dsd' op 'p' does not name a DSD global}}
    %d = csl.load_dsd @p : !csl.dsd<mem1d, f32>
    return
  }
}

// -----

csl.program @pe arch wse2 {
  memref.global @y : memref<4xf32> = uninitialized
  csl.dsd_global @d : !csl.dsd<mem1d, f32> {
    %y = memref.get_global @y : memref<4xf32>
    %d = csl.tensor_access_dsd %y sizes [4] map affine_map<(d0) -> (d0)> : memref<4xf32> -> !csl.dsd<mem1d, f32>
    csl.yield %d : !csl.dsd<mem1d, f32>
  }
  func.func @f(%v: !csl.dsd<mem1d, i16>) {
    // expected-error @+1 {{'csl.store_dsd' op DSD global 'd' has type '!csl.dsd<mem1d, f32>', not '!csl.dsd<mem1d, i16>'}}
    csl.store_dsd %v, @d : !csl.dsd<mem1d, i16>
    return
  }
}

// -----

func.func @f(%m: memref<2x3xi16>, %i: index) {
  // expected-error @+1 {{'csl.element_address' op needs 2 indices for 'memref<2x3xi16>', found 1}}
  %e = csl.element_address %m[%i] : memref<2x3xi16> -> memref<i16>
  return
}

// -----

func.func @f(%m: memref<4xi16>, %i: index) {
  // expected-error @+1 {{'csl.element_address' op result must be 'memref<i16>', found 'memref<f32>'}}
  %e = csl.element_address %m[%i] : memref<4xi16> -> memref<f32>
  return
}

// -----

func.func @f(%m: memref<?x?xi16>) {
  // expected-error @+1 {{'csl.ptrcast' op expects pointers to numbers (memref<?xE> or statically shaped), found 'memref<?x?xi16>'}}
  %p = csl.ptrcast %m : memref<?x?xi16> to memref<?xi32>
  return
}

// -----

csl.program @pe arch wse2 {
  func.func @scale(%x: f32, %k: f32) -> f32 {
    return %x : f32
  }
  func.func @f(%d: !csl.dsd<mem1d, f32>, %k: f32) {
    // expected-error @+1 {{'csl.map' op 'scale' of type '(f32, f32) -> f32' does not fit 2 operands: one per argument, plus the destination when it returns a value}}
    csl.map @scale(%d, %k) : (!csl.dsd<mem1d, f32>, f32)
    return
  }
}

// -----

csl.program @pe arch wse2 {
  func.func @scale(%x: f32, %k: f32) -> f32 {
    return %x : f32
  }
  func.func @f(%d: !csl.dsd<mem1d, f32>, %k: i16) {
    // expected-error @+1 {{'csl.map' op operand #1 is 'i16' where 'scale' takes 'f32'}}
    csl.map @scale(%d, %k, %d) : (!csl.dsd<mem1d, f32>, i16, !csl.dsd<mem1d, f32>)
    return
  }
}

// -----

csl.program @pe arch wse2 {
  func.func @scale(%x: f32, %k: f32) -> f32 {
    return %x : f32
  }
  func.func @f(%d: !csl.dsd<mem1d, f32>, %k: f32) {
    // expected-error @+1 {{'csl.map' op the destination must be a DSD or a pointer, found 'f32'}}
    csl.map @scale(%d, %k, %k) : (!csl.dsd<mem1d, f32>, f32, f32)
    return
  }
}

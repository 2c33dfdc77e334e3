// RUN: tessera-opt %s | tessera-opt | FileCheck %s
// Pointer globals and configuration words round-trip.

// CHECK-LABEL: csl.program @pe arch wse2 {
// CHECK-NEXT:    memref.global @A : memref<16xf32> = uninitialized
// CHECK-NEXT:    memref.global @s : memref<i16> = uninitialized
// CHECK-NEXT:    csl.pointer_global @ptr_A = @A : memref<?xf32>
// CHECK-NEXT:    csl.pointer_global @ptr_s = @s : memref<i16>
// CHECK-NEXT:    csl.pointer_global @none : memref<?xf32>
// CHECK-NEXT:    func.func @f(%[[ADDR:.*]]: i16) {
// CHECK-NEXT:      %[[P:.*]] = csl.load_pointer @ptr_A : memref<?xf32>
// CHECK-NEXT:      csl.store_pointer %[[P]], @none : memref<?xf32>
// CHECK-NEXT:      %[[V:.*]] = csl.get_config %[[ADDR]] : i16
// CHECK-NEXT:      csl.set_config %[[ADDR]], %[[V]] : i16
// CHECK-NEXT:      %{{.*}} = csl.random16 : i16
// CHECK-NEXT:      return
// CHECK-NEXT:    }
// CHECK-NEXT:    csl.export mutable @ptr_A as "A" : memref<?xf32>
// CHECK-NEXT:  }
csl.program @pe arch wse2 {
  memref.global @A : memref<16xf32> = uninitialized
  memref.global @s : memref<i16> = uninitialized
  csl.pointer_global @ptr_A = @A : memref<?xf32>
  csl.pointer_global @ptr_s = @s : memref<i16>
  csl.pointer_global @none : memref<?xf32>
  func.func @f(%addr: i16) {
    %p = csl.load_pointer @ptr_A : memref<?xf32>
    csl.store_pointer %p, @none : memref<?xf32>
    %v = csl.get_config %addr : i16
    csl.set_config %addr, %v : i16
    %r = csl.random16 : i16
    return
  }
  csl.export mutable @ptr_A as "A" : memref<?xf32>
}

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

// CHECK-LABEL: csl.program @dsds arch wse2 {
// CHECK:         csl.dsd_global @y_dsd : !csl.dsd<mem1d, f32> {
// CHECK-NEXT:      %[[Y:.*]] = memref.get_global @y : memref<4xf32>
// CHECK-NEXT:      %[[D:.*]] = csl.tensor_access_dsd %[[Y]] sizes [4] map #map : memref<4xf32> -> !csl.dsd<mem1d, f32>
// CHECK-NEXT:      csl.yield %[[D]] : !csl.dsd<mem1d, f32>
// CHECK-NEXT:    }
// CHECK:           %[[L:.*]] = csl.load_dsd @y_dsd : !csl.dsd<mem1d, f32>
// CHECK-NEXT:      csl.store_dsd %[[L]], @y_dsd : !csl.dsd<mem1d, f32>
csl.program @dsds arch wse2 {
  memref.global @y : memref<4xf32> = uninitialized
  csl.dsd_global @y_dsd : !csl.dsd<mem1d, f32> {
    %y = memref.get_global @y : memref<4xf32>
    %d = csl.tensor_access_dsd %y sizes [4] map affine_map<(d0) -> (d0)> : memref<4xf32> -> !csl.dsd<mem1d, f32>
    csl.yield %d : !csl.dsd<mem1d, f32>
  }
  func.func @f() {
    %d = csl.load_dsd @y_dsd : !csl.dsd<mem1d, f32>
    csl.store_dsd %d, @y_dsd : !csl.dsd<mem1d, f32>
    return
  }
}

// CHECK-LABEL: func.func @pointer_ops
// CHECK-NEXT:    %[[E:.*]] = csl.element_address %{{.*}}[%{{.*}}, %{{.*}}] : memref<2x3xi16> -> memref<i16>
// CHECK-NEXT:    %{{.*}} = csl.ptrcast %[[E]] : memref<i16> to memref<?xi32>
func.func @pointer_ops(%m: memref<2x3xi16>, %i: index, %j: index) {
  %e = csl.element_address %m[%i, %j] : memref<2x3xi16> -> memref<i16>
  %w = csl.ptrcast %e : memref<i16> to memref<?xi32>
  return
}

// CHECK-LABEL: csl.program @maps
// CHECK:         csl.map @add(%{{.*}}, %{{.*}}, %{{.*}}) : (!csl.dsd<mem1d, i16>, memref<f32>, memref<f32>)
csl.program @maps arch wse2 {
  func.func @add(%x: f32, %acc: f32) -> f32 {
    return %acc : f32
  }
  func.func @f(%d: !csl.dsd<mem1d, i16>, %sum: memref<f32>) {
    // A memory DSD is read as the function's parameter type.
    csl.map @add(%d, %sum, %sum) : (!csl.dsd<mem1d, i16>, memref<f32>, memref<f32>)
    return
  }
}

// CHECK-LABEL: func.func @fixed_address
// CHECK-NEXT:    %{{.*}} = csl.address_to_pointer %{{.*}} : i16 -> memref<i16>
func.func @fixed_address(%a: i16) {
  %p = csl.address_to_pointer %a : i16 -> memref<i16>
  return
}

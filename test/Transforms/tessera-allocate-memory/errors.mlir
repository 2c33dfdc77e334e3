// RUN: tessera-opt %s -tessera-allocate-memory -split-input-file -verify-diagnostics
// Globals that have no size in PE memory; each is reported, and the
// program gets no addresses.

csl.program @p arch wse2 {
  // expected-error @+1 {{cannot place 'vectors' in memory: elements of type 'vector<4xf32>' have no size in PE memory}}
  memref.global @vectors : memref<2xvector<4xf32>> = uninitialized
  memref.global @fine : memref<2xf32> = uninitialized
  // expected-error @+1 {{cannot place 'bits' in memory: elements of type 'vector<4xi1>' have no size in PE memory}}
  memref.global @bits : memref<vector<4xi1>> = uninitialized
}

// -----

// The memref.global verifier guarantees a static size.
csl.program @p arch wse2 {
  // expected-error @+1 {{type should be static shaped memref, but got 'memref<?xf32>'}}
  memref.global @dynamic : memref<?xf32> = uninitialized
}

// -----

csl.program @p arch wse3 {
  // expected-error @+1 {{cannot place 'wide' in memory: elements of type 'i128' have no size in PE memory}}
  memref.global @wide : memref<i128> = uninitialized
  // expected-error @+1 {{cannot place 'odd' in memory: elements of type 'i12' have no size in PE memory}}
  memref.global @odd : memref<4xi12> = uninitialized
  // expected-error @+1 {{cannot place 'tf' in memory: elements of type 'tf32' have no size in PE memory}}
  memref.global @tf : memref<4xtf32> = uninitialized
  memref.global @half : memref<4xbf16> = uninitialized
  memref.global @byte : memref<4xi8> = uninitialized
}

// -----

// Past 4 GiB the size is reported on its own.
csl.program @p arch wse3 {
  // expected-error @+1 {{'huge' needs 40,000,000,000 bytes, more than PE memory can hold}}
  memref.global @huge : memref<100000x100000xf32> = uninitialized
}

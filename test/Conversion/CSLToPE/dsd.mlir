// DSDs: each operation builds its descriptors in scratch DSRs (the highest
// index of each file) right before it runs; DSD variables and DSDs passed
// between functions live in 32-byte slots (dsr.ld/dsr.st); @load_to_dsr
// options become dsr.opts; start-up code builds initialised DSD variables
// and FIFOs (docs/CodeGen.md).
// RUN: tessera-opt --pass-pipeline='builtin.module(csl.program(tessera-allocate-memory))' \
// RUN:   -mlir-print-debuginfo %s | tessera-translate --csl-to-pe | FileCheck %s
csl.program @p arch wse3 {
  memref.global @x : memref<8xf32> = dense<0.0>
  memref.global @m : memref<4x6xf32> = dense<0.0>
  memref.global @ring : memref<16xi16> = dense<0>
  memref.global @acc : memref<f32> = dense<0.0>
  csl.dsd_global @var_dsd : !csl.dsd<mem1d, f32> {
    %b = memref.get_global @x : memref<8xf32>
    %d = csl.tensor_access_dsd %b sizes [8] map affine_map<(i) -> (i)> : memref<8xf32> -> !csl.dsd<mem1d, f32>
    csl.yield %d : !csl.dsd<mem1d, f32>
  }
  csl.allocate_fifo @fifo buffer @ring activate_pop @drained : !csl.dsd<fifo, i16>
  csl.initialize_queue input 2 color 4
  csl.task local @drained() id 9 {
    csl.return
  }
  // A data task's wavelet splits into its arguments, low half first.
  csl.task data @recv(%lo: i16, %hi: i16) id 2 {
    %f = csl.get_fifo @fifo : !csl.dsd<fifo, i16>
    %ring = memref.get_global @ring : memref<16xi16>
    %c = csl.circbuf_dsd %ring extent %hi : memref<16xi16> -> !csl.dsd<circbuf, i16>
    csl.add16 %f, %c, %lo : !csl.dsd<fifo, i16>, !csl.dsd<circbuf, i16>, i16
    csl.return
  }
  func.func @ops(%n: i16, %k: f32) {
    %x = memref.get_global @x : memref<8xf32>
    %m = memref.get_global @m : memref<4x6xf32>
    %color = csl.get_color 4 : !csl.color
    %iq = csl.get_input_queue 2 : !csl.input_queue
    %oq = csl.get_output_queue 3 : !csl.output_queue
    %done = csl.get_task_id 9 : !csl.task_id<local>
    // A run-time extent, a strided 1-D access, a 2-D access (mem4d).
    %a = csl.mem1d_dsd %x extent %n : memref<8xf32> -> !csl.dsd<mem1d, f32>
    %odd = csl.tensor_access_dsd %x sizes [4] map affine_map<(i) -> (2 * i + 1)> : memref<8xf32> -> !csl.dsd<mem1d, f32>
    %col = csl.tensor_access_dsd %m sizes [4, 2] map affine_map<(i, j) -> (i, j * 2 + 1)> : memref<4x6xf32> -> !csl.dsd<mem4d, f32>
    %in = csl.fabin_dsd extent %n color %color queue %iq
    %out = csl.fabout_dsd extent %n color %color queue %oq
    csl.fadds %out, %a, %in async activate %done : !csl.dsd<fabout>, !csl.dsd<mem1d, f32>, !csl.dsd<fabin>
    csl.fmacs %odd, %odd, %a, %k : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, f32
    csl.fmovs %col, %k : !csl.dsd<mem4d, f32>, f32
    // A reduction into a pointer.
    %acc = memref.get_global @acc : memref<f32>
    %z = arith.constant 0.0 : f32
    csl.fadds %acc, %z, %a : memref<f32>, f32, !csl.dsd<mem1d, f32>
    // DSD variables, modifiers, and a copy when the variable changes first.
    %v = csl.load_dsd @var_dsd : !csl.dsd<mem1d, f32>
    %one = arith.constant 1 : i16
    %v1 = csl.increment_dsd_offset %v by %one of f32 : !csl.dsd<mem1d, f32>
    csl.store_dsd %v1, @var_dsd : !csl.dsd<mem1d, f32>
    csl.fmovs %v, %k : !csl.dsd<mem1d, f32>, f32
    // An explicit DSR with the options of @load_to_dsr.
    %r = csl.get_dsr 2 : !csl.dsr<src1>
    csl.load_to_dsr %r, %in async activate %done save_address : !csl.dsr<src1>, !csl.dsd<fabin>
    csl.fadds %a, %a, %r : !csl.dsd<mem1d, f32>, !csl.dsd<mem1d, f32>, !csl.dsr<src1>
    csl.map @twice(%a, %acc, %acc) : (!csl.dsd<mem1d, f32>, memref<f32>, memref<f32>)
    return
  }
  func.func @twice(%e: f32, %s: f32) -> f32 {
    %t = arith.addf %e, %e : f32
    %r = arith.addf %t, %s : f32
    return %r : f32
  }
  // DSDs in and out of functions go through descriptor slots.
  func.func @pick(%big: i1, %n: i16) -> !csl.dsd<fabout> {
    %c = csl.get_color 4 : !csl.color
    %q = csl.get_output_queue 3 : !csl.output_queue
    %d = csl.fabout_dsd extent %n color %c queue %q
    return %d : !csl.dsd<fabout>
  }
  func.func @send(%d: !csl.dsd<fabout>, %k: f32) {
    csl.fmovs %d, %k : !csl.dsd<fabout>, f32
    return
  }
  func.func @both(%n: i16, %k: f32) {
    %t = arith.constant true
    %d = call @pick(%t, %n) : (i1, i16) -> !csl.dsd<fabout>
    call @send(%d, %k) : (!csl.dsd<fabout>, f32) -> ()
    return
  }
}

// CHECK: program p (stack 84 bytes)
// CHECK-NEXT: arch wse3, code 542 bytes at 0x00c4, data 32 bytes at 0x0000, bss 164 bytes at 0x0020
// CHECK-EMPTY:
// CHECK-NEXT: symbols:
// CHECK-EMPTY:
// CHECK-NEXT: variables:
// CHECK-NEXT: 0x0020 x [8]f32
// CHECK-NEXT: 0x0040 m [24]f32
// CHECK-NEXT: 0x00a0 ring [16]i16
// CHECK-NEXT: 0x00c0 acc [1]f32
// CHECK-EMPTY:
// CHECK-NEXT: tasks:
// CHECK-NEXT: local 9 at 0x00e4
// CHECK-NEXT: data 2 at 0x00e6
// CHECK-EMPTY:
// CHECK-NEXT: queues:
// CHECK-NEXT: input 2 color 4
// CHECK-EMPTY:
// CHECK-NEXT: start-up:
// CHECK-NEXT: call 0x00c4
// CHECK-EMPTY:
// CHECK-NEXT: data:
// CHECK-NEXT: 0x0000: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
// CHECK-NEXT: 0x0010: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
// CHECK-EMPTY:
// CHECK-NEXT: code:
// CHECK-NEXT: 0x00c4: dsr.mem1d dest.15, w32, 32, 8, 0, 1, 0 ; {{.*}}dsd.mlir:15:10
// CHECK-NEXT: 0x00d0: movi r10, 0 ; {{.*}}dsd.mlir:16:5
// CHECK-NEXT: 0x00d4: dsr.st dest.15, r10, 0
// CHECK-NEXT: 0x00da: fifo.init fifo0, w16, 160, 16, _, 9, default ; {{.*}}dsd.mlir:18:3
// CHECK-NEXT: 0x00e2: ret ; {{.*}}dsd.mlir:8:1
// CHECK-NEXT: 0x00e4: texit ; {{.*}}dsd.mlir:21:5
// CHECK-NEXT: 0x00e6: addi r15, r15, -8 ; {{.*}}dsd.mlir:24:3
// CHECK-NEXT: 0x00ea: mov r10, r0
// CHECK-NEXT: 0x00ec: zext16 r10, r10
// CHECK-NEXT: 0x00ee: st32 r10, r15, 0
// CHECK-NEXT: 0x00f2: shrli r10, r0, 16
// CHECK-NEXT: 0x00f6: zext16 r10, r10
// CHECK-NEXT: 0x00f8: st32 r10, r15, 4
// CHECK-NEXT: 0x00fc: dsr.fifo dest.15, fifo0 ; {{.*}}dsd.mlir:25:10
// CHECK-NEXT: 0x0100: ld32 r10, r15, 4 ; {{.*}}dsd.mlir:27:10
// CHECK-NEXT: 0x0104: dsr.circbuf src0.15, w16, 160, r10, 16
// CHECK-NEXT: 0x010c: ld32 r10, r15, 0 ; {{.*}}dsd.mlir:28:5
// CHECK-NEXT: 0x0110: add16 dest.15, src0.15, r10
// CHECK-NEXT: 0x0114: texit ; {{.*}}dsd.mlir:29:5
// CHECK-NEXT: 0x0116: addi r15, r15, -44 ; {{.*}}dsd.mlir:31:3
// CHECK-NEXT: 0x011a: st32 r14, r15, 0
// CHECK-NEXT: 0x011e: st32 r0, r15, 4
// CHECK-NEXT: 0x0122: st32 r1, r15, 8
// CHECK-NEXT: 0x0126: ld32 r10, r15, 4 ; {{.*}}dsd.mlir:43:12
// CHECK-NEXT: 0x012a: dsr.fabout dest.15, r10, c4, q3, 0, 0, 0, 0, default
// CHECK-NEXT: 0x0130: ld32 r10, r15, 4 ; {{.*}}dsd.mlir:39:10
// CHECK-NEXT: 0x0134: dsr.mem1d src0.15, w32, 32, r10, 0, 1, 0
// CHECK-NEXT: 0x013e: ld32 r10, r15, 4 ; {{.*}}dsd.mlir:42:11
// CHECK-NEXT: 0x0142: dsr.fabin src1.15, r10, c4, q2, 0, default
// CHECK-NEXT: 0x0146: fadds dest.15, src0.15, src1.15 async activate 9 ; {{.*}}dsd.mlir:44:5
// CHECK-NEXT: 0x014c: dsr.mem1d dest.15, w32, 32, 4, 1, 2, 0 ; {{.*}}dsd.mlir:40:12
// CHECK-NEXT: 0x0158: dsr.mem1d src0.15, w32, 32, 4, 1, 2, 0
// CHECK-NEXT: 0x0164: ld32 r10, r15, 4 ; {{.*}}dsd.mlir:39:10
// CHECK-NEXT: 0x0168: dsr.mem1d src1.15, w32, 32, r10, 0, 1, 0
// CHECK-NEXT: 0x0172: ld32 r10, r15, 8 ; {{.*}}dsd.mlir:45:5
// CHECK-NEXT: 0x0176: fmacs dest.15, src0.15, src1.15, r10
// CHECK-NEXT: 0x017c: dsr.mem4d dest.15, w32, 68, 0, 4, 6, 2, 2 ; {{.*}}dsd.mlir:41:12
// CHECK-NEXT: 0x018a: ld32 r10, r15, 8 ; {{.*}}dsd.mlir:46:5
// CHECK-NEXT: 0x018e: fmovs dest.15, r10
// CHECK-NEXT: 0x0192: ld32 r10, r15, 4 ; {{.*}}dsd.mlir:39:10
// CHECK-NEXT: 0x0196: dsr.mem1d src1.15, w32, 32, r10, 0, 1, 0
// CHECK-NEXT: 0x01a0: movi r10, 192 ; {{.*}}dsd.mlir:50:5
// CHECK-NEXT: 0x01a4: movi r11, 0
// CHECK-NEXT: 0x01a8: fadds [r10], r11, src1.15
// CHECK-NEXT: 0x01ac: movi r10, 0 ; {{.*}}dsd.mlir:52:10
// CHECK-NEXT: 0x01b0: dsr.ld dest.15, r10, 0
// CHECK-NEXT: 0x01b6: dsr.st dest.15, r15, 12
// CHECK-NEXT: 0x01bc: dsr.ld dest.15, r15, 12 ; {{.*}}dsd.mlir:55:5
// CHECK-NEXT: 0x01c2: dsr.incoffw dest.15, w32, 1 ; {{.*}}dsd.mlir:54:11
// CHECK-NEXT: 0x01c6: movi r10, 0 ; {{.*}}dsd.mlir:55:5
// CHECK-NEXT: 0x01ca: dsr.st dest.15, r10, 0
// CHECK-NEXT: 0x01d0: dsr.ld dest.15, r15, 12 ; {{.*}}dsd.mlir:56:5
// CHECK-NEXT: 0x01d6: ld32 r10, r15, 8
// CHECK-NEXT: 0x01da: fmovs dest.15, r10
// CHECK-NEXT: 0x01de: ld32 r10, r15, 4 ; {{.*}}dsd.mlir:42:11
// CHECK-NEXT: 0x01e2: dsr.fabin src1.2, r10, c4, q2, 0, default
// CHECK-NEXT: 0x01e6: dsr.opts src1.2 async activate 9 ; {{.*}}dsd.mlir:59:5
// CHECK-NEXT: 0x01ea: dsr.saveaddr src1.2
// CHECK-NEXT: 0x01ec: ld32 r10, r15, 4 ; {{.*}}dsd.mlir:39:10
// CHECK-NEXT: 0x01f0: dsr.mem1d dest.15, w32, 32, r10, 0, 1, 0
// CHECK-NEXT: 0x01fa: ld32 r10, r15, 4
// CHECK-NEXT: 0x01fe: dsr.mem1d src0.15, w32, 32, r10, 0, 1, 0
// CHECK-NEXT: 0x0208: fadds dest.15, src0.15, src1.2 ; {{.*}}dsd.mlir:60:5
// CHECK-NEXT: 0x020c: movi r10, 192 ; {{.*}}dsd.mlir:61:5
// CHECK-NEXT: 0x0210: ld32 r11, r15, 4 ; {{.*}}dsd.mlir:39:10
// CHECK-NEXT: 0x0214: dsr.mem1d src0.15, w32, 32, r11, 0, 1, 0
// CHECK-NEXT: 0x021e: movi r11, 192 ; {{.*}}dsd.mlir:61:5
// CHECK-NEXT: 0x0222: map 0x0234, [r10].32, src0.15, [r11].32
// CHECK-NEXT: 0x022a: ld32 r14, r15, 0 ; {{.*}}dsd.mlir:62:5
// CHECK-NEXT: 0x022e: addi r15, r15, 44
// CHECK-NEXT: 0x0232: ret
// CHECK-NEXT: 0x0234: addi r15, r15, -8 ; {{.*}}dsd.mlir:64:3
// CHECK-NEXT: 0x0238: st32 r0, r15, 0
// CHECK-NEXT: 0x023c: st32 r1, r15, 4
// CHECK-NEXT: 0x0240: ld32 r10, r15, 0 ; {{.*}}dsd.mlir:65:10
// CHECK-NEXT: 0x0244: ld32 r11, r15, 0
// CHECK-NEXT: 0x0248: fadd.s r0, r10, r11
// CHECK-NEXT: 0x024c: ld32 r10, r15, 4 ; {{.*}}dsd.mlir:66:10
// CHECK-NEXT: 0x0250: fadd.s r1, r0, r10
// CHECK-NEXT: 0x0254: mov r0, r1 ; {{.*}}dsd.mlir:67:5
// CHECK-NEXT: 0x0256: addi r15, r15, 8
// CHECK-NEXT: 0x025a: ret
// CHECK-NEXT: 0x025c: addi r15, r15, -8 ; {{.*}}dsd.mlir:70:3
// CHECK-NEXT: 0x0260: st32 r0, r15, 0
// CHECK-NEXT: 0x0264: st32 r1, r15, 4
// CHECK-NEXT: 0x0268: ld32 r10, r15, 4 ; {{.*}}dsd.mlir:73:10
// CHECK-NEXT: 0x026c: dsr.fabout dest.15, r10, c4, q3, 0, 0, 0, 0, default
// CHECK-NEXT: 0x0272: addi r15, r15, 8 ; {{.*}}dsd.mlir:74:5
// CHECK-NEXT: 0x0276: ret
// CHECK-NEXT: 0x0278: addi r15, r15, -8 ; {{.*}}dsd.mlir:76:3
// CHECK-NEXT: 0x027c: st32 r0, r15, 0
// CHECK-NEXT: 0x0280: st32 r1, r15, 4
// CHECK-NEXT: 0x0284: ld32 r10, r15, 0 ; {{.*}}dsd.mlir:77:5
// CHECK-NEXT: 0x0288: dsr.ld dest.15, r10, 0
// CHECK-NEXT: 0x028e: ld32 r10, r15, 4
// CHECK-NEXT: 0x0292: fmovs dest.15, r10
// CHECK-NEXT: 0x0296: addi r15, r15, 8 ; {{.*}}dsd.mlir:78:5
// CHECK-NEXT: 0x029a: ret
// CHECK-NEXT: 0x029c: addi r15, r15, -76 ; {{.*}}dsd.mlir:80:3
// CHECK-NEXT: 0x02a0: st32 r14, r15, 0
// CHECK-NEXT: 0x02a4: st32 r0, r15, 4
// CHECK-NEXT: 0x02a8: st32 r1, r15, 8
// CHECK-NEXT: 0x02ac: movi r0, 1 ; {{.*}}dsd.mlir:82:10
// CHECK-NEXT: 0x02b0: ld32 r1, r15, 4
// CHECK-NEXT: 0x02b4: call 0x025c
// CHECK-NEXT: 0x02b8: dsr.st dest.15, r15, 12
// CHECK-NEXT: 0x02be: dsr.ld dest.15, r15, 12 ; {{.*}}dsd.mlir:83:5
// CHECK-NEXT: 0x02c4: dsr.st dest.15, r15, 44
// CHECK-NEXT: 0x02ca: addi r10, r15, 44
// CHECK-NEXT: 0x02ce: mov r0, r10
// CHECK-NEXT: 0x02d0: ld32 r1, r15, 8
// CHECK-NEXT: 0x02d4: call 0x0278
// CHECK-NEXT: 0x02d8: ld32 r14, r15, 0 ; {{.*}}dsd.mlir:84:5
// CHECK-NEXT: 0x02dc: addi r15, r15, 76
// CHECK-NEXT: 0x02e0: ret

//===- RunRecordBuilder.h - an emulator run as a run record -----*- C++ -*-===//
//
// What the emulator recorded and counted, in the form tessera-viz reads
// (docs/RunRecord.md): the emulator knows nothing of that format, the
// viz library nothing of the emulator; this is where they meet, for
// tessera-run --record and SdkRuntime's record option.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RECORD_RUNRECORDBUILDER_H
#define TESSERA_RECORD_RUNRECORDBUILDER_H

#include "tessera/Emulator/Emulator.h"
#include "tessera/Viz/RunRecord.h"

namespace tessera {

/// The run so far of `emulator` over `output` as a run record. With ranks
/// every rank must call it, and the record of the whole fabric is rank
/// 0's (docs/Scaling.md "Ranks").
viz::RunRecord buildRunRecord(const emulator::Emulator &emulator,
                              const emulator::LoadedOutput &output);

} // namespace tessera

#endif // TESSERA_RECORD_RUNRECORDBUILDER_H

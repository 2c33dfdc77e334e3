//===- RunRecordJSON.h - run records as JSON files --------------*- C++ -*-===//
//
// The JSON form of a RunRecord (docs/RunRecord.md). Reading checks every
// field: a bad file gives an Error naming the file, the JSON pointer of the
// offending value and what is wrong with it.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_VIZ_RUNRECORDJSON_H
#define TESSERA_VIZ_RUNRECORDJSON_H

#include "tessera/Viz/Expected.h"
#include "tessera/Viz/RunRecord.h"

#include <string>
#include <string_view>

namespace tessera::viz {

/// The format version this library reads and writes.
constexpr unsigned RunRecordVersion = 1;

/// Parses `text`; `fileName` only prefixes the messages.
Expected<RunRecord> parseRunRecord(std::string_view text,
                                   const std::string &fileName);

/// Reads the file at `path`, or `path`/run.json when `path` is a directory.
Expected<RunRecord> readRunRecord(const std::string &path);

/// The JSON text of `record`, keys in documentation order.
std::string printRunRecord(const RunRecord &record);

Status writeRunRecord(const RunRecord &record, const std::string &path);

} // namespace tessera::viz

#endif // TESSERA_VIZ_RUNRECORDJSON_H

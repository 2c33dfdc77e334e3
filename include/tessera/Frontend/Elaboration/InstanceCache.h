//===- InstanceCache.h - Module instances keyed by file and params -*- C++ -*-===//
//
// `@import_module` and `@set_tile_code` instantiate a file once per distinct
// set of param values: a second request with equal values (compared as
// values, not as the expressions that produced them) gets the first
// instance back.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_FRONTEND_ELABORATION_INSTANCECACHE_H
#define TESSERA_FRONTEND_ELABORATION_INSTANCECACHE_H

#include "tessera/Frontend/Sema/ModuleInstance.h"

#include "llvm/ADT/StringMap.h"

#include <cstdint>

#include <optional>
#include <unordered_map>
#include <vector>

namespace tessera::frontend::elaboration {

/// Whether two param maps name the same params with equal values.
bool equalParams(const sema::ParamMap &a, const sema::ParamMap &b);

/// A hash of a param map that equal maps (by `equalParams`) share.
uint64_t hashParams(const sema::ParamMap &params);

class InstanceCache {
public:
  /// The id stored for (path, params), if any.
  std::optional<unsigned> find(llvm::StringRef canonicalPath,
                               const sema::ParamMap &params) const;
  /// Records `id` for (path, params); the pair must not be cached yet.
  void insert(llvm::StringRef canonicalPath, sema::ParamMap params,
              unsigned id);
  /// Distinct (path, params) pairs cached.
  unsigned size() const { return count; }

private:
  struct Entry {
    sema::ParamMap params;
    unsigned id;
  };
  // Per path, entries by `hashParams`: a layout may create one instance
  // per PE, so a linear search would be quadratic.
  llvm::StringMap<std::unordered_map<uint64_t, std::vector<Entry>>> entries;
  unsigned count = 0;
};

} // namespace tessera::frontend::elaboration

#endif // TESSERA_FRONTEND_ELABORATION_INSTANCECACHE_H

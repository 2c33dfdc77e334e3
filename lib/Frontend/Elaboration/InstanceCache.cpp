//===- InstanceCache.cpp - Module instances keyed by file and params ------===//

#include "tessera/Frontend/Elaboration/InstanceCache.h"

using namespace tessera::frontend;
using namespace tessera::frontend::elaboration;

bool elaboration::equalParams(const sema::ParamMap &a,
                              const sema::ParamMap &b) {
  if (a.size() != b.size())
    return false;
  for (const auto &entry : a) {
    auto it = b.find(entry.getKey());
    if (it == b.end() || !entry.getValue().equals(it->getValue()))
      return false;
  }
  return true;
}

std::optional<unsigned>
InstanceCache::find(llvm::StringRef canonicalPath,
                    const sema::ParamMap &params) const {
  auto it = entries.find(canonicalPath);
  if (it == entries.end())
    return std::nullopt;
  for (const Entry &e : it->second)
    if (equalParams(e.params, params))
      return e.id;
  return std::nullopt;
}

void InstanceCache::insert(llvm::StringRef canonicalPath,
                           sema::ParamMap params, unsigned id) {
  entries[canonicalPath].push_back(Entry{std::move(params), id});
  ++count;
}

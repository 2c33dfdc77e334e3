//===- InstanceCache.cpp - Module instances keyed by file and params ------===//

#include "tessera/Frontend/Elaboration/InstanceCache.h"

#include "llvm/ADT/Hashing.h"

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

/// A hash that `Value::equals` values share: only the parts `equals`
/// compares exactly (kinds, types, small integers, bools, text) are hashed.
static llvm::hash_code hashValue(const sema::Value &v) {
  using Kind = sema::Value::Kind;
  llvm::hash_code h =
      llvm::hash_combine(static_cast<unsigned>(v.getKind()), v.getType());
  switch (v.getKind()) {
  case Kind::Bool:
    return llvm::hash_combine(h, v.getBool());
  case Kind::Int:
  case Kind::EnumValue:
    // `isSameValue` compares across widths, so hash the value, not the bits.
    if (v.getInt().getSignificantBits() <= 64)
      return llvm::hash_combine(h, v.getInt().getExtValue());
    return h;
  case Kind::String:
    return llvm::hash_combine(h, v.getString());
  case Kind::Struct:
    for (const sema::FieldValue &f : v.getFields())
      h = llvm::hash_combine(h, llvm::StringRef(f.name), hashValue(f.value));
    return h;
  case Kind::Array:
    for (const sema::Value &e : v.getElements())
      h = llvm::hash_combine(h, hashValue(e));
    return h;
  default:
    return h;
  }
}

uint64_t elaboration::hashParams(const sema::ParamMap &params) {
  // StringMap order is unspecified, so entries combine commutatively.
  uint64_t sum = params.size();
  for (const auto &entry : params)
    sum += llvm::hash_combine(entry.getKey(), hashValue(entry.getValue()));
  return sum;
}

std::optional<unsigned>
InstanceCache::find(llvm::StringRef canonicalPath,
                    const sema::ParamMap &params) const {
  auto it = entries.find(canonicalPath);
  if (it == entries.end())
    return std::nullopt;
  auto bucket = it->second.find(hashParams(params));
  if (bucket == it->second.end())
    return std::nullopt;
  for (const Entry &e : bucket->second)
    if (equalParams(e.params, params))
      return e.id;
  return std::nullopt;
}

void InstanceCache::insert(llvm::StringRef canonicalPath,
                           sema::ParamMap params, unsigned id) {
  uint64_t hash = hashParams(params);
  entries[canonicalPath][hash].push_back(Entry{std::move(params), id});
  ++count;
}

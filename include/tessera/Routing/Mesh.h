//===- Mesh.h - lookups into a routing problem's mesh -----------*- C++ -*-===//
//
// The router and the verifier both ask which PEs are blocked, which ports
// face off the fabric and what a link holds; this answers in constant time.
// It is built from a problem that validateProblem accepted.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_ROUTING_MESH_H
#define TESSERA_ROUTING_MESH_H

#include "tessera/Routing/RoutingProblem.h"

#include <vector>

namespace tessera::routing {

class Mesh {
public:
  explicit Mesh(const RoutingProblem &problem);

  int getWidth() const { return width; }
  int getHeight() const { return height; }
  int getNumPEs() const { return width * height; }

  bool contains(PE pe) const {
    return pe.x >= 0 && pe.y >= 0 && pe.x < width && pe.y < height;
  }
  /// Row-major: y * width + x.
  int getIndex(PE pe) const { return pe.y * width + pe.x; }
  PE getPE(int index) const { return {index % width, index / width}; }

  bool isBlocked(PE pe) const { return blocked[getIndex(pe)]; }
  /// Whether the mesh port `port` of `pe` leads off the fabric.
  bool facesEdge(PE pe, Port port) const;

  /// Flows the link leaving `pe` through mesh port `direction` holds.
  int getLinkCapacity(PE pe, Port direction) const {
    return linkCapacity[getIndex(pe) * NumMeshPorts + getPortIndex(direction)];
  }
  /// Flows the link entering an edge PE from beyond the edge holds.
  int getEdgeEntryCapacity() const { return defaultLinkCapacity; }
  /// Flows one router holds.
  int getPECapacity() const { return peCapacity; }

private:
  int width, height;
  int defaultLinkCapacity, peCapacity;
  std::vector<bool> blocked;
  std::vector<int> linkCapacity;
};

} // namespace tessera::routing

#endif // TESSERA_ROUTING_MESH_H

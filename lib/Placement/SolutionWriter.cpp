//===- SolutionWriter.cpp - print a solution in the contest's format ------===//

#include "tessera/Placement/Solution.h"

namespace tessera::placement {
namespace {

void writeFormalArguments(std::ostream &os, const Node &node) {
  if (node.kind == NodeKind::Conv) {
    const ConvShape &conv = node.conv;
    os << "H=" << conv.H << " W=" << conv.W << " R=" << conv.R
       << " S=" << conv.S << " C=" << conv.C << " K=" << conv.K
       << " T=" << conv.T;
    if (node.hasUnused)
      os << " U=" << node.unused;
    return;
  }
  os << "f=" << node.F << " h=" << node.H << " w=" << node.W;
}

void writeExecParams(std::ostream &os, const Node &node,
                     const ExecParams &params) {
  os << "h'=" << params.h << " w'=" << params.w;
  if (node.kind == NodeKind::Conv && params.convs.size() == 1) {
    os << " c'=" << params.convs[0].c << " k'=" << params.convs[0].k;
    return;
  }
  os << " c'=[";
  for (size_t i = 0; i < params.convs.size(); ++i)
    os << (i ? " " : "") << params.convs[i].c;
  os << "] k'=[";
  for (size_t i = 0; i < params.convs.size(); ++i)
    os << (i ? " " : "") << params.convs[i].k;
  os << "]";
}

} // namespace

void writeSolution(std::ostream &os, const KernelGraph &graph,
                   const Solution &solution) {
  for (const KernelPlacement &kernel : solution.kernels) {
    const Node &node = graph.nodes[kernel.node];
    os << node.label() << " = " << getNodeKindName(node.kind) << "(";
    writeFormalArguments(os, node);
    os << " ";
    writeExecParams(os, node, kernel.params);
    os << ")\n";
  }
  for (const KernelPlacement &kernel : solution.kernels)
    os << graph.nodes[kernel.node].label() << " : place(" << kernel.x << " "
       << kernel.y << " " << (kernel.rotated ? "R90" : "R0") << ")\n";
}

} // namespace tessera::placement

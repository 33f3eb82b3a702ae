// Weakly connected components: every vertex ends with the smallest vertex id of its component.
// Two methods:
//
//   union-find (default)  one pass: every edge unites its endpoints' trees in a concurrent
//                         union-find (roots link to the smaller root by compare-and-swap, so a
//                         root is always its tree's smallest id; finds halve paths). One round,
//                         one read of the graph, whatever the diameter; direction plays no part.
//                         On a symmetric graph the run keeps resident, by sampling (Afforest,
//                         Sutton et al., IPDPS'18, as GAP's cc): a first round unites each source
//                         with its first kSampledEdges neighbours only, which puts most of a
//                         giant component under one root; the root most of kSampledVertices
//                         vertices share is taken for the largest component, and a second round
//                         unites all edges of the sources outside it. An edge inside that
//                         component is never looked at; one leaving it is, from its other end
//                         (the graph is symmetric), so the components are the same.
//   label                 label propagation (GridGraph's WCC): labels travel along each edge in
//                         BOTH directions, which makes it right on directed input; on a graph
//                         prep found symmetric the reverse edges are out-edges already, so it
//                         runs as an out-edge job. Takes about diameter rounds.
#pragma once

#include "jobs/atomics.h"
#include "jobs/edge_job.h"

namespace graphso {

// Labels in original ids: the smallest original id of each component (labels hold new ids). In a
// relabelled graph that takes a table of each component's smallest original id (output_bytes).
void write_component_labels(const std::vector<uint32_t>& labels, OutFormat format, const VertexOrder& order,
                            const Job::ResultSink& sink);
inline uint64_t component_labels_output_bytes(uint64_t n, const VertexOrder& order) {
  return order.is_natural() ? 0 : n * sizeof(uint32_t);
}

class WccLabelJob final : public EdgeJob<WccLabelJob, EdgeUse::BothWays> {
 public:
  explicit WccLabelJob(std::string name) : EdgeJob(std::move(name), "wcc") {}

  uint64_t state_bytes(uint64_t n) const override { return n * sizeof(uint32_t) + 2 * Bitmap::bytes_for(n); }
  void init(const GraphInfo& graph, int threads) override;
  uint32_t scatter(VertexId u, Weight) const { return label_[u]; }
  bool gather(VertexId v, uint32_t label) { return atomic_min(label_[v], label); }
  bool gather_owned(VertexId v, uint32_t label) { return owned_min(label_[v], label); }
  void end_round() override;
  void write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const override;
  BinaryValues binary_values() const override { return {"uint32", nullptr}; }
  uint64_t output_bytes(uint64_t n, const VertexOrder& order) const override { return component_labels_output_bytes(n, order); }
  std::string signature() const override { return "wcc method=label"; }

 private:
  std::vector<uint32_t> label_;
};

// Afforest's sample: neighbours united per source in its first round, and vertices whose roots
// elect the largest component (GAP's neighbor_rounds and num_samples).
inline constexpr uint32_t kSampledEdges = 2;
inline constexpr uint32_t kSampledVertices = 1024;

class WccUnionFindJob final : public DirectJob {
 public:
  explicit WccUnionFindJob(std::string name) : DirectJob(std::move(name), "wcc") {}

  EdgeUse edge_use() const override { return EdgeUse::OutEdges; }
  uint64_t state_bytes(uint64_t n) const override { return n * sizeof(uint32_t) + 2 * Bitmap::bytes_for(n); }
  void init(const GraphInfo& graph, int threads) override;
  // Edges unite their endpoints at once (DirectJob).
  void process(const EdgeRun& run) override;
  // Unions are atomic and any subset of a source's edges is a sample: each window unites its own.
  bool takes_windows(bool) const override { return true; }
  void end_round() override;
  // On a symmetric graph: by sampling (Afforest).
  void graph_resident() override;
  void write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const override;
  BinaryValues binary_values() const override { return {"uint32", nullptr}; }
  uint64_t output_bytes(uint64_t n, const VertexOrder& order) const override { return component_labels_output_bytes(n, order); }
  std::string signature() const override { return "wcc method=union-find"; }
  // Sampling: the vertices of the largest component whose edges the second round passed over.
  std::vector<std::pair<std::string, uint64_t>> counts() const override;

 private:
  VertexId find(VertexId v);
  VertexId root_of(VertexId v);  // writes nothing; not const: std::atomic_ref needs a mutable object
  void unite(VertexId a, VertexId b);
  // The sampling round's edge loop: each source's first kSampledEdges edges.
  void sample(const EdgeRun& run);
  // Points every vertex at its root (the component's smallest id, once all edges are united).
  void compress();
  // After the sampling round: the sources outside the largest sampled component are the frontier;
  // returns how many.
  uint64_t take_sources_outside_largest();

  std::vector<VertexId> parent_;
  bool symmetric_ = false;
  const std::vector<uint32_t>* degrees_ = nullptr;
  bool sampling_ = false;  // this round unites each source's first kSampledEdges edges only
  uint64_t skipped_ = 0;   // vertices whose edges the sampling spared
  uint64_t with_edges_ = 0;  // sampling: vertices with edges (the frontier and the spared)
};

}  // namespace graphso

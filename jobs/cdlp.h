// Community detection by label propagation (LDBC Graphalytics' CDLP): every vertex starts with its
// own id as its label; in each of a fixed number of synchronous iterations, every vertex takes the
// label most frequent among its neighbours' labels of the iteration before, the smallest such
// label on a tie, and keeps its own when it has no neighbours. Labels are the user's vertex ids
// (the dataset's own, when it has them), and ties are broken on them, whatever the vertex order.
//
// Neighbours are counted per stored edge: on a directed graph an edge u->v gives v one count of
// u's label and u one of v's (a neighbour linked both ways counts twice, as Graphalytics says); on
// a graph prep found symmetric the reverse edge gives the second count already, so out-edges
// alone are read. Self-loops count for nothing.
//
// Out of core (jobs/vertex_ranges.h): the labels a vertex receives are held until it has them all,
// for one range of vertices at a time, in a buffer of `slots` values per vertex. An iteration
// takes one pass per range: the range is the frontier, so a symmetric graph's pass reads the
// range's out-edges and a directed one's the edges into or out of it (its GridGraph row and
// column). A directed graph's first round counts each vertex's incident edges to plan the
// ranges; a symmetric graph's out-degrees are those counts.
#pragma once

#include "jobs/job.h"
#include "jobs/vertex_ranges.h"

namespace graphso {

class CdlpJob final : public DirectJob {
 public:
  CdlpJob(std::string name, uint32_t iterations, uint32_t slots)
      : DirectJob(std::move(name), "cdlp"), iterations_(iterations), slots_(slots) {}

  EdgeUse edge_use() const override { return symmetric_ ? EdgeUse::OutEdges : EdgeUse::BothWays; }
  uint64_t state_bytes(uint64_t n) const override {
    return 2 * n * sizeof(uint32_t) + VertexRanges::bytes_for(n, slots_ * n) + 2 * Bitmap::bytes_for(n);
  }
  void init(const GraphInfo& graph, int threads) override;
  // Labels are appended to the receiving vertex's list at once (DirectJob).
  void process(const EdgeRun& run) override;
  void end_round() override;
  void write_values(OutFormat format, const VertexOrder& order, const ResultSink& sink) const override;
  BinaryValues binary_values() const override { return {"uint32", nullptr}; }
  std::string signature() const override { return "cdlp iterations=" + std::to_string(iterations_); }
  // The ranges an iteration is cut into, and the passes the job took.
  std::vector<std::pair<std::string, uint64_t>> counts() const override;

 private:
  void take_labels();  // the range's new labels from the lists it received

  uint32_t iterations_;
  uint64_t slots_;
  bool symmetric_ = false;
  std::vector<uint32_t> label_;  // user order: original ids
  std::vector<uint32_t> next_label_;
  VertexRanges ranges_;
  uint32_t iteration_ = 0;
  uint64_t passes_ = 0;
};

}  // namespace graphso

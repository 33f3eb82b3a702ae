#include "store/store_check.h"

#include "base/error.h"
#include "base/mix.h"
#include "base/file.h"
#include "store/edge_log.h"
#include "store/pmem_file.h"
#include "store/store_mode.h"
#include "store/store_view.h"

namespace graphso::store {
namespace {

// An order-independent fingerprint of an edge multiset: the sum (and count) of a 64-bit mix of
// each edge. Two directions that disagree in any edge differ in it but with probability 2^-64.
struct MultisetHash {
  uint64_t sum = 0, count = 0;
  void add(std::span<const WeightedEdge> edges) {
    for (const WeightedEdge& e : edges) {
      sum += mix64(mix64(uint64_t{e.src} << 32 | e.dst) ^ e.weight);
    }
    count += edges.size();
  }
  bool operator==(const MultisetHash&) const = default;
};

}  // namespace

StoreCheck check_store(const std::string& store_path) {
  StoreCheck check;
  MultisetHash out, in;
  SnapshotConsumer both{[&] { out = in = {}; }, [&](std::span<const WeightedEdge> e) { out.add(e); },
                        [&](std::span<const WeightedEdge> e) { in.add(e); }};
  const std::unique_ptr<StoreView> view = StoreView::open(store_path);
  check.read = scan_snapshot(*view, both);
  // A mode that keeps out-edges only checks their order as they are read (dgap: its sections and
  // each page).
  const StoreModeEntry& mode = store_mode(view->header().mode);
  const bool two_directions = mode.in_lists;
  const char* lists = mode.lists_called;
  if (two_directions && !(out == in))
    fail("{}: corrupt store: at log position {} the out-{} hold {} edges and the in-{} {}{}", store_path,
         check.read.position, lists, out.count, lists, in.count, out.count == in.count ? ", not the same ones" : "");

  // The records beside the graph, read now from the view's mapping.
  const PmemFile& file = view->file();
  check.header = view->header();
  const StoreLayout layout(check.header.geometry);
  check.log_head = read_log_head(file, layout);
  const Checkpoint c = read_checkpoint(file, layout);
  if (c.damaged_slot >= 0)
    check.damage.push_back(fmt::format(
        "checkpoint slot {} is torn or damaged (slot {}, checkpoint {}, is in force and reads consistently)",
        c.damaged_slot, c.slot, c.seq));
  const InputRecords records = read_inputs(file, layout);
  for (uint32_t slot = 0; slot < 2; ++slot)
    if (records.damaged[slot] && records.current)
      check.damage.push_back(fmt::format(
          "input record slot {} is damaged (its copy in slot {} is intact; the next ingest writes it back)", slot,
          1 - slot));
  if (!records.current && check.log_head > 0)
    check.damage.push_back(fmt::format(
        "both copies of the input record are {} and the log holds {} edges: ingest will refuse to resume until told "
        "with --acknowledged how many of its input's edges are in the store",
        records.damaged[0] || records.damaged[1] ? "damaged" : "zeroed", check.log_head));
  else if (records.current && !records.both_current && !records.damaged[0] && !records.damaged[1])
    check.damage.push_back("the input record's two copies differ (a crash between its two writes; the next ingest "
                           "copies the newer over)");
  if (records.current && records.current->start > check.log_head)
    fail("{}: corrupt store: the input record says {} began at log position {}, past the log head {}", store_path,
         records.current->path, records.current->start, check.log_head);
  return check;
}

}  // namespace graphso::store

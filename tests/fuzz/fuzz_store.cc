// A store file from the input: read as `store-stat`, `snapshot` and `store-check` read it (every
// persisted region, the log, every adjacency chain in both directions, a dgap store's section
// table and pages, a gear store's list and page table and lists, or an ftgraph store's trees),
// then opened for writing,
// which recovers it. The corpus holds a store of each kind: naive, weighted xpgraph, a weighted
// dgap image cut by a power cut mid-checkpoint (three sections, operations in the log), and a
// weighted gear image cut in a relocation (two checkpoints, lists in 64- and 128-byte subpages,
// operations in the log), and two ftgraph stores of a skewed stream (a hub's root branched): one
// cut after a batch's set bitmaps (a batch partly applied, which recovery settles), one at rest
// after deletions. Accepted
// or refused with one line; never a crash, a hang in a looping chain, or a sanitizer report.
#include <string>

#include "store/graph_store.h"
#include "store/snapshot.h"
#include "store/store_check.h"
#include "store/store_stat.h"
#include "tests/fuzz/fuzz_target.h"

GRAPHSO_FUZZ_TARGET(store) {
  using namespace graphso;
  fuzz::clear_scratch_directory();
  const std::string path = fuzz::write_scratch_file("s.pm", data, size);
  try {
    store::read_store_stat(path);
    store::check_store(path);
    store::write_snapshot_edges(path, std::string(fuzz::scratch_directory()) + "/snapshot.bin");
    fuzz::accepted();
  } catch (const Error& e) {
    fuzz::rejected(e);
  }
  try {
    store::GraphStore::open(path, {});
  } catch (const Error& e) {
    fuzz::rejected(e);
  }
  return 0;
}

// One damaged persisted word of a store, in each store mode: every bit of every metadata word
// flipped in turn (superblock, both input records, both checkpoint slots, the log head, the log
// line checksums, both vertex, section or list table copies, the header of every reachable block,
// every page a dgap section table names, every gear list's words) and every page
// of the file zero-filled in turn. Every reader (a snapshot, the writer's recovery and its
// queries, store-check) must then give exactly the undamaged store's edge multiset or fail with
// one line naming the damaged structure; a snapshot's error must be store-check's and store-stat's
// too; and the
// ingest a user re-runs must resume after exactly the acknowledged edges of its input, or refuse.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <random>
#include <set>
#include <tuple>

#include "base/file.h"
#include "store/dgap/sections.h"
#include "store/ftgraph/tree_nodes.h"
#include "store/gear/gear_lists.h"
#include "store/xpgraph/adjacency_blocks.h"
#include "store/graph_store.h"
#include "store/input_resume.h"
#include "store/snapshot.h"
#include "store/store_check.h"
#include "store/store_stat.h"
#include "tests/test_graphs.h"

using namespace graphso;
using namespace graphso::store;
using graphso::testing::error_of;
using graphso::testing::TempDir;

namespace {

constexpr uint64_t kVertices = 48;
constexpr uint64_t kLogSlots = 256;
constexpr uint64_t kResumable = 150;  // edges of the recorded input already logged

using Arcs = std::vector<WeightedEdge>;

Arcs sorted(Arcs arcs) {
  std::sort(arcs.begin(), arcs.end(),
            [](const WeightedEdge& a, const WeightedEdge& b) { return std::tie(a.src, a.dst, a.weight) < std::tie(b.src, b.dst, b.weight); });
  return arcs;
}

bool same(const Arcs& a, const Arcs& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const WeightedEdge& x, const WeightedEdge& y) {
           return x.src == y.src && x.dst == y.dst && x.weight == y.weight;
         });
}

InputProgress recorded_input() {
  InputProgress id;
  id.path = "/data/updates.bin";
  id.size = 8000;
  id.edges = 1000;
  id.head_crc = 0x1234;
  return id;
}

// A store whose edges are in blocks from several checkpoints (the small log wraps), deletions
// among them, and the last kResumable edges, of the recorded input, still only in the log.
void build_store(const std::string& path, StoreMode mode, bool weighted) {
  StoreGeometry g = default_geometry(kVertices, 1000, kLogSlots, weighted, mode);
  g.block_units = 8192;  // 512 KiB: the file stays small, so each trial is quick
  // dgap: section logs of 8 operations, so sections merge between checkpoints too.
  auto s = GraphStore::create(path, g, mode, {.tuning = {{"section-log", 8}}});
  std::mt19937_64 random(7);
  auto edges = [&](size_t n) {
    std::vector<WeightedEdge> e;
    for (size_t i = 0; i < n; ++i)
      e.push_back({static_cast<VertexId>(random() % kVertices), static_cast<VertexId>(random() % kVertices),
                   static_cast<Weight>(1 + random() % 9)});
    return e;
  };
  const std::vector<WeightedEdge> first = edges(500);
  for (size_t at = 0; at < first.size(); at += 50) s->add_edges(std::span(first).subspan(at, 50));
  s->flush_to_blocks();
  s->del_edges(std::span(first).subspan(0, 40));
  s->begin_input(recorded_input());
  const std::vector<WeightedEdge> last = edges(kResumable);
  s->add_edges(std::span(last));
  if (mode == StoreMode::Naive) s->close();
}

// What each reader gives; an Error's message instead when it throws.
struct Reading {
  std::string error;
  Arcs arcs;
  uint64_t resumed = 0;
};

Reading by_snapshot(const std::string& path) {
  Reading r;
  try {
    scan_snapshot(path, {[&] { r.arcs.clear(); }, [&](std::span<const WeightedEdge> e) { r.arcs.insert(r.arcs.end(), e.begin(), e.end()); }, {}});
    r.arcs = sorted(std::move(r.arcs));
  } catch (const Error& e) {
    r.error = e.what();
  }
  return r;
}

// The writer's recovery, its queries in both directions (which must agree), then the resume a
// re-run ingest of the recorded input makes.
Reading by_writer(const std::string& path) {
  Reading r;
  try {
    auto s = GraphStore::open(path, {});
    Arcs in;
    for (VertexId v = 0; v < kVertices; ++v) {
      for (auto [n, w] : s->out_edges(v)) r.arcs.push_back({v, n, w});
      for (auto [n, w] : s->in_edges(v)) in.push_back({n, v, w});
    }
    r.arcs = sorted(std::move(r.arcs));
    if (!same(r.arcs, sorted(std::move(in)))) r.arcs.clear();  // a silent disagreement: reported as a change
    if (s->header().mode != StoreMode::Naive) r.resumed = resume_input(*s, recorded_input());
  } catch (const Error& e) {
    r.error = e.what();
  }
  return r;
}

bool names_a_structure(const std::string& message) {
  for (const char* name : {"superblock", "bad magic", "version", "input record", "checkpoint", "log head", "log records",
                           "log record at", "vertex table", "block unit", "truncated or damaged store",
                           "section table", "(section ", "-list of vertex", "list and page table",
                           "-tree of vertex", "-tree root of vertex", "batch word", "allocation word", "tree count word"})
    if (message.find(name) != std::string::npos) return true;
  return false;
}

struct Tally {
  uint64_t trials = 0, unchanged = 0, errors = 0;
  std::vector<std::string> failures;  // silent changes, unnamed errors, store-check disagreeing
};

// Runs every reader on the damaged file and checks the rule.
void judge(const std::string& path, const std::string& what, const Reading& pristine, uint64_t pristine_resumed,
           Tally& tally) {
  ++tally.trials;
  const Reading snapshot = by_snapshot(path);
  std::string check_error;
  try {
    if (!snapshot.error.empty()) check_store(path);  // (it reads in both directions: run by store-check's own test)
  } catch (const Error& e) {
    check_error = e.what();
  }
  // store-stat reads what a snapshot reads: the same damage is an error in both or in neither.
  const std::string stat_error = error_of([&] { read_store_stat(path); });
  if (stat_error != (snapshot.error.empty() ? "(no error)" : snapshot.error))
    tally.failures.push_back(what + ": store-stat says '" + stat_error + "' where a snapshot says '" + snapshot.error + "'");
  const Reading writer = by_writer(path);  // last: a naive store's writer marks it open
  bool erred = false;
  for (const Reading* r : {&snapshot, &writer}) {
    if (!r->error.empty()) {
      erred = true;
      if (!names_a_structure(r->error)) tally.failures.push_back(what + ": an error naming nothing: " + r->error);
    } else if (!same(r->arcs, pristine.arcs)) {
      tally.failures.push_back(fmt::format("{}: {} edges read silently, {} stored", what, r->arcs.size(), pristine.arcs.size()));
    }
  }
  if (writer.error.empty() && writer.resumed != pristine_resumed)
    tally.failures.push_back(fmt::format("{}: a re-run ingest resumes after {} edges, not {}", what, writer.resumed, pristine_resumed));
  if (!snapshot.error.empty() && check_error != snapshot.error)
    tally.failures.push_back(what + ": store-check says '" + check_error + "' where a snapshot says '" + snapshot.error + "'");
  (erred ? tally.errors : tally.unchanged) += 1;
}

struct Range {
  uint64_t offset, bytes;
  std::string name;
  bool in_force = false;  // read by every reader and kept once: every flip must be an error
};

// every_bit: every bit of every metadata word (make test-long); else every bit of every fixed
// record's fields, one bit of each unused byte of an input record's path, and the headers of 8
// blocks spread over the region (make test).
void check_every_damage(StoreMode mode, bool weighted, bool every_bit) {
  TempDir dir;
  const std::string path = dir.file("store.pm");
  build_store(path, mode, weighted);
  const std::string original = read_small_file(path);
  File file(path, File::Mode::ReadWrite);
  const Reading pristine = by_snapshot(path);
  REQUIRE(pristine.error.empty());
  REQUIRE(pristine.arcs.size() > 400);
  const Reading pristine_writer = by_writer(path);
  REQUIRE(pristine_writer.error.empty());
  REQUIRE(same(pristine_writer.arcs, pristine.arcs));
  if (mode != StoreMode::Naive) REQUIRE(pristine_writer.resumed == kResumable);
  // Puts back what a trial changed: its damage, and what recovery may write (the input records it
  // repairs, naive mode's dirty mark), all in the first pages.
  auto restore = [&](uint64_t offset, uint64_t bytes) {
    file.pwrite_all(std::as_bytes(std::span(original)).subspan(offset, bytes), offset);
    file.pwrite_all(std::as_bytes(std::span(original)).subspan(0, 4 * kRegionAlignment), 0);
  };
  restore(0, 0);

  // The metadata words: fixed records, then the header of every block a chain reaches (dgap: the
  // pages the section table names).
  PmemFile mapped = PmemFile::open_read_only(path);
  const StoreLayout layout(read_superblock(mapped).geometry);
  const Checkpoint c = read_checkpoint(mapped, layout);
  const bool trees = mode == StoreMode::Ftgraph;  // no checkpoints: the vertex array and the trees
  REQUIRE((c.seq > 1 || trees));
  // A dgap table copy is read as far as its count: the rest of the region is not in force.
  const std::vector<SectionEntry> sections =
      mode == StoreMode::Dgap ? read_section_table(mapped, layout, c) : std::vector<SectionEntry>{};
  uint64_t table_in_force = mode == StoreMode::Dgap ? (sections.size() + 1) * sizeof(SectionEntry) : layout.table_bytes();
  // A gear table copy (make test): its header and first 32 lists (the page table and the rest:
  // make test-long).
  if (mode == StoreMode::Gear && !every_bit) table_in_force = sizeof(GearTableHeader) + 32 * sizeof(GearList);
  // The ftgraph vertex array (table copy 0): its first 32 words (make test) or all of it.
  if (trees) table_in_force = every_bit ? layout.table_bytes() : 32 * sizeof(uint64_t);
  // The other copy: as much of it (make test) or all of it.
  const uint64_t other_table = every_bit ? layout.table_bytes() : table_in_force;
  std::vector<Range> ranges = {
      {layout.superblock, sizeof(Superblock), "superblock", true},
      {layout.input_slots, 2 * sizeof(InputRecord), "input records"},
      {layout.checkpoint_slots, sizeof(CheckpointSlot), "checkpoint slot 0"},
      {layout.checkpoint_slots + 512, sizeof(CheckpointSlot), "checkpoint slot 1"},
      {layout.log_head, sizeof(uint64_t), "log head", true},
      {layout.log_sums, layout.log_lines() * kLogSumWords * sizeof(uint64_t), "log line checksums"},
      {layout.tables[0], c.slot == 0 || trees ? table_in_force : other_table, "table copy 0", c.slot == 0 || trees},
      {layout.tables[1], trees ? 0 : c.slot == 1 ? table_in_force : other_table, "table copy 1", c.slot == 1 && !trees},
  };
  uint64_t allocated_units = 0;
  if (trees) {
    ranges.push_back({applying_word(layout), sizeof(uint64_t), "batch word", true});
    ranges.push_back({allocated_word(layout), sizeof(uint64_t), "allocation word", true});
    ranges.push_back({tree_count_word(layout, AdjacencyList::Out), 2 * sizeof(uint64_t), "tree counts", true});
    allocated_units = *decode_log_head(*mapped.at<uint64_t>(allocated_word(layout)));
    // Every node: its header's words (the version only where a flip makes it odd, which a store at
    // rest never is; its other bits and the padding are read by no one), and each edge's
    // fingerprint, check and entry. make test: every 8th node, and one slot of each.
    std::vector<std::pair<uint64_t, uint64_t>> nodes;  // unit, set bitmap
    const uint64_t* roots = mapped.at<uint64_t>(layout.tables[0]);
    for (uint64_t i = 0; i < 2 * kVertices; ++i) {
      const AdjacencyList d = i < kVertices ? AdjacencyList::Out : AdjacencyList::In;
      const auto v = static_cast<VertexId>(i % kVertices);
      const uint64_t root = *tree_link_unit(roots[i], root_salt(d, v));
      if (root == 0) continue;
      TreeWalk walk;
      walk.on_node = [&](uint64_t unit, const TreeNodeHeader& h) { nodes.emplace_back(unit, h.set); };
      walk_tree(mapped, layout, d, v, root, walk, [](uint32_t, Weight) {});
    }
    REQUIRE(nodes.size() > 2 * kVertices - 10);
    uint64_t k = 0;
    for (const auto& [unit, set] : nodes) {
      if (!every_bit && k++ % 8 != 0) continue;
      const uint64_t at = layout.block_offset(unit);
      const std::string name = fmt::format("node {}", unit);
      ranges.push_back({at, 24, name + " next and bitmaps", true});
      ranges.push_back({at + 24, every_bit ? uint64_t{8} : uint64_t{1}, name + " version"});
      ranges.push_back({at + 32, 14, name + " size, owner, direction, level", true});
      ranges.push_back({at + 46, 2, name + " reserved"});
      ranges.push_back({at + 48, 8, name + " path and identity check", true});
      for (uint64_t bits = set; bits != 0; bits &= bits - 1) {
        const auto slot = static_cast<uint32_t>(__builtin_ctzll(bits));
        const TreeNode node(mapped, layout, unit);
        ranges.push_back({at + 64 + slot, 1, fmt::format("{} slot {} fingerprint", name, slot), true});
        if (weighted) ranges.push_back({at + 128 + slot, 1, fmt::format("{} slot {} check", name, slot), true});
        ranges.push_back({at + node.entry_offset(slot), node.entry_bytes(), fmt::format("{} slot {} entry", name, slot), true});
        if (!every_bit) break;
      }
    }
  }
  if (mode == StoreMode::Dgap) {
    uint64_t named = 0;
    for (const SectionEntry& s : sections) {
      if (s.page == 0) continue;
      ++named;
      // Every page is checksummed whole: its header and first lines, or (make test-long) all of it.
      ranges.push_back({layout.page_offset(s.page), every_bit ? kStorePageBytes : 64, fmt::format("page {}", s.page), true});
    }
    REQUIRE(named >= 1);
  }
  if (mode == StoreMode::Gear) {
    // Every list's words are checksummed whole: all of them (make test-long) or a word of each.
    const GearTable t = checked_gear_table(mapped, layout, c);
    uint64_t lists = 0;
    for (uint64_t i = 0; i < t.lists.size(); ++i) {
      if (t.lists[i].unit == 0) continue;
      ++lists;
      ranges.push_back({layout.block_offset(t.lists[i].unit), every_bit ? t.lists[i].words * 4ull : 4,
                        fmt::format("list {} words", i), true});
    }
    REQUIRE(lists > 40);
  }
  const std::span<const uint32_t> table = store_mode(mode).paged ? std::span<const uint32_t>() : checked_table_copy(mapped, layout, c);
  std::set<uint32_t> units;
  for (AdjacencyList d : {AdjacencyList::Out, AdjacencyList::In})
    for (VertexId v = 0; v < kVertices && !table.empty(); ++v)
      walk_chain(mapped, layout, c.high_water, d, v, table[(d == AdjacencyList::Out ? 0 : kVertices) + v],
                 [&](const AdjacencyBlock& b) { units.insert(static_cast<uint32_t>((reinterpret_cast<const std::byte*>(&b) - mapped.base() - layout.blocks) / kBlockUnitBytes)); });
  REQUIRE((store_mode(mode).paged || trees || units.size() > 20));
  uint64_t k = 0;
  for (uint32_t unit : units)
    if (every_bit || k++ % (units.size() / 8) == 0)
      ranges.push_back({layout.block_offset(unit), sizeof(BlockHeader), fmt::format("block {} header", unit), true});
  // The unused tail of each input record's path (zeros under its checksum).
  const InputProgress input = recorded_input();
  auto unused_path_byte = [&](uint64_t byte) {
    const uint64_t in_slot = (byte - layout.input_slots) % sizeof(InputRecord);
    return byte >= layout.input_slots && byte < layout.input_slots + 2 * sizeof(InputRecord) &&
           in_slot >= offsetof(InputRecord, path) + input.path.size() + 1 && in_slot < offsetof(InputRecord, reserved);
  };

  Tally tally;
  for (const Range& range : ranges)
    for (uint64_t byte = range.offset; byte < range.offset + range.bytes; ++byte)
      for (int bit = 0; bit < (every_bit || !unused_path_byte(byte) ? 8 : 1); ++bit) {
        const char damaged = static_cast<char>(original[byte] ^ (1 << bit));
        file.pwrite_all(as_bytes_of(damaged), byte);
        const uint64_t errors = tally.errors;
        const std::string what = fmt::format("{}, byte {} bit {}", range.name, byte - range.offset, bit);
        judge(path, what, pristine, pristine_writer.resumed, tally);
        if (range.in_force && tally.errors == errors) tally.failures.push_back(what + ": not caught");
        // store-check reads both directions: it catches what a snapshot (out-chains) does not.
        if (range.in_force && error_of([&] { check_store(path); }) == "(no error)")
          tally.failures.push_back(what + ": store-check finds nothing");
        restore(byte, 1);
      }
  const uint64_t flips = tally.trials;
  // Every page holding anything, zero-filled.
  const uint64_t used = store_mode(mode).paged ? layout.page_offset(c.high_water)
                                    : layout.block_offset(trees ? allocated_units : c.high_water);
  const std::string zeros(kRegionAlignment, '\0');
  for (uint64_t page = 0; page < used; page += kRegionAlignment) {
    file.pwrite_all(std::as_bytes(std::span(zeros)), page);
    judge(path, fmt::format("page at {} zero-filled", page), pristine, pristine_writer.resumed, tally);
    restore(page, kRegionAlignment);
  }
  INFO(tally.failures.size() << " failures in " << tally.trials << " trials (" << flips << " flips); first: "
                             << (tally.failures.empty() ? "" : tally.failures.front()));
  CHECK(tally.failures.empty());
  WARN(store_mode_name(mode) << (weighted ? " weighted" : "") << ": " << tally.trials << " trials, " << tally.errors
                             << " errors naming the damage, " << tally.unchanged << " exact reads");
}

}  // namespace

TEST_CASE("store damage: one flipped bit or one zeroed page is an error naming it or changes nothing", "[store]") {
  SECTION("xpgraph") { check_every_damage(StoreMode::XPGraph, false, false); }
  SECTION("xpgraph, weighted") { check_every_damage(StoreMode::XPGraph, true, false); }
  SECTION("naive") { check_every_damage(StoreMode::Naive, false, false); }
  SECTION("dgap") { check_every_damage(StoreMode::Dgap, false, false); }
  SECTION("dgap, weighted") { check_every_damage(StoreMode::Dgap, true, false); }
  SECTION("gear") { check_every_damage(StoreMode::Gear, false, false); }
  SECTION("gear, weighted") { check_every_damage(StoreMode::Gear, true, false); }
  SECTION("ftgraph") { check_every_damage(StoreMode::Ftgraph, false, false); }
  SECTION("ftgraph, weighted") { check_every_damage(StoreMode::Ftgraph, true, false); }
}

TEST_CASE("store damage, every bit of every metadata word", "[.long][long][store]") {
  SECTION("xpgraph") { check_every_damage(StoreMode::XPGraph, false, true); }
  SECTION("xpgraph, weighted") { check_every_damage(StoreMode::XPGraph, true, true); }
  SECTION("naive") { check_every_damage(StoreMode::Naive, false, true); }
  SECTION("dgap") { check_every_damage(StoreMode::Dgap, false, true); }
  SECTION("dgap, weighted") { check_every_damage(StoreMode::Dgap, true, true); }
  SECTION("gear") { check_every_damage(StoreMode::Gear, false, true); }
  SECTION("gear, weighted") { check_every_damage(StoreMode::Gear, true, true); }
  SECTION("ftgraph") { check_every_damage(StoreMode::Ftgraph, false, true); }
  SECTION("ftgraph, weighted") { check_every_damage(StoreMode::Ftgraph, true, true); }
}

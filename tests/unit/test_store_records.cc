// docs/store_records.md, byte for byte: one record of each persisted structure, read from small
// stores of every mode built here the way the document says. A format change that the document
// does not follow fails here, and the message gives the record as it now is.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "store/dgap/section_format.h"
#include "store/ftgraph/tree_format.h"
#include "store/gear/gear_format.h"
#include "store/graph_store.h"
#include "store/pmem_file.h"
#include "store/store_meta.h"
#include "store/xpgraph/block_format.h"
#include "tests/test_graphs.h"

using namespace graphso;
using namespace graphso::store;
using graphso::testing::TempDir;

namespace {

// The document's records: a fenced block whose first line is `record: NAME`, then lines of an
// offset and up to 16 bytes in hex, `..` for a byte that differs from store to store.
std::map<std::string, std::vector<std::string>> documented_records(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in);
  std::map<std::string, std::vector<std::string>> records;
  std::string line, name;
  bool in_block = false;
  while (std::getline(in, line)) {
    if (line.rfind("```", 0) == 0) {
      in_block = !in_block;
      name.clear();
      continue;
    }
    if (!in_block) continue;
    if (line.rfind("record: ", 0) == 0) {
      name = line.substr(8);
      records[name];
      continue;
    }
    if (name.empty()) continue;
    std::istringstream words(line);
    std::string offset, byte;
    words >> offset;
    while (words >> byte) records[name].push_back(byte);
  }
  return records;
}

// The block as the document writes it.
std::string block_text(const std::string& name, const std::vector<std::string>& bytes) {
  std::string text = "record: " + name + "\n";
  for (size_t i = 0; i < bytes.size(); i += 16) {
    text += fmt::format("+{:03x}", i);
    for (size_t k = i; k < std::min(bytes.size(), i + 16); ++k) text += (k % 8 == 0 ? "  " : " ") + bytes[k];
    text += "\n";
  }
  return text;
}

class Records {
 public:
  Records() : documented_(documented_records(graphso::testing::repository_root() + "/docs/store_records.md")) {}
  // `length` bytes at `offset` of `file` are the document's record `name`; `varies` lists the
  // byte ranges [first, last) within it that differ from store to store.
  void check(const std::string& name, const PmemFile& file, uint64_t offset, uint64_t length,
             std::vector<std::pair<uint64_t, uint64_t>> varies = {}) {
    std::vector<std::string> actual;
    const auto* bytes = file.at<const uint8_t>(offset);
    for (uint64_t i = 0; i < length; ++i) {
      bool masked = false;
      for (const auto& [first, last] : varies) masked = masked || (i >= first && i < last);
      actual.push_back(masked ? ".." : fmt::format("{:02x}", bytes[i]));
    }
    INFO("docs/store_records.md should hold:\n```\n" << block_text(name, actual) << "```");
    CHECK(documented_.count(name) == 1);
    CHECK(documented_[name] == actual);
    ++checked_;
  }
  uint64_t checked() const { return checked_; }

 private:
  std::map<std::string, std::vector<std::string>> documented_;
  uint64_t checked_ = 0;
};

// The document's store: 4 vertices, a 64-slot log, one thread; edges 0 -> 1, 0 -> 2, 1 -> 2
// ingested as one batch, then checkpointed and closed.
std::string example_store(const TempDir& dir, StoreMode mode) {
  const std::string path = dir.file(std::string(store_mode_name(mode)) + ".store");
  auto s = GraphStore::create(path, default_geometry(4, 3, kMinLogSlots, false, mode), mode, {.threads = 1});
  const std::vector<Edge> edges = {{0, 1}, {0, 2}, {1, 2}};
  s->add_edges(std::span<const Edge>(edges));
  s->flush_to_blocks();
  s->close();
  return path;
}

}  // namespace

TEST_CASE("docs/store_records.md: one record of each persisted structure, byte for byte") {
  TempDir dir;
  Records records;

  // What every mode shares, from the xpgraph store.
  {
    const PmemFile file = PmemFile::open_read_only(example_store(dir, StoreMode::XPGraph));
    const StoreHeader header = read_superblock(file);
    const StoreLayout layout(header.geometry);
    records.check("superblock", file, layout.superblock, sizeof(Superblock),
                  {{offsetof(Superblock, store_id), offsetof(Superblock, store_id) + 8},
                   {offsetof(Superblock, crc), offsetof(Superblock, crc) + 4}});
    const Checkpoint c = read_checkpoint(file, layout);
    records.check("checkpoint slot", file, layout.checkpoint_slots + c.slot * 512, sizeof(CheckpointSlot));
    records.check("log head", file, layout.log_head, 8);
    records.check("log records", file, layout.log, 3 * sizeof(LogRecord));
    records.check("log line checksum", file, layout.log_sum_offset(0, 0), 8);
    records.check("log line second checksum", file, layout.log_sum_offset(0, 1), 8);
    // xpgraph: the table copy in force, and vertex 0's out-block.
    records.check("xpgraph table copy", file, layout.tables[c.slot], layout.table_bytes());
    const uint32_t block = *file.at<const uint32_t>(layout.tables[c.slot]);
    records.check("xpgraph block", file, layout.block_offset(block), 64);
  }
  {
    const PmemFile file = PmemFile::open_read_only(example_store(dir, StoreMode::Dgap));
    const StoreLayout layout(read_superblock(file).geometry);
    const Checkpoint c = read_checkpoint(file, layout);
    const auto* table = file.at<const SectionTableHeader>(layout.tables[c.slot]);
    REQUIRE(table->sections == 1);
    records.check("dgap section table", file, layout.tables[c.slot], sizeof(SectionTableHeader) + sizeof(SectionEntry));
    const auto* entry = file.at<const SectionEntry>(layout.tables[c.slot] + sizeof(SectionTableHeader));
    records.check("dgap section page", file, layout.page_offset(entry->page), 48);
  }
  {
    const PmemFile file = PmemFile::open_read_only(example_store(dir, StoreMode::Gear));
    const StoreLayout layout(read_superblock(file).geometry);
    const Checkpoint c = read_checkpoint(file, layout);
    const uint64_t table = layout.tables[c.slot];
    records.check("gear table header and vertex 0's out-list", file, table, sizeof(GearTableHeader) + sizeof(GearList));
    const auto* list = file.at<const GearList>(table + sizeof(GearTableHeader));
    const uint64_t page = list->unit / kUnitsPerPage;
    records.check("gear page entry", file, table + gear_page_offset(4) + page * sizeof(GearPage), sizeof(GearPage));
    records.check("gear subpage", file, layout.block_offset(list->unit), 16);
  }
  {
    const PmemFile file = PmemFile::open_read_only(example_store(dir, StoreMode::Ftgraph));
    const StoreLayout layout(read_superblock(file).geometry);
    records.check("ftgraph words after the head", file, layout.log_head, 5 * 8);
    records.check("ftgraph vertex word", file, layout.tables[0], 8);
    const uint64_t root = *file.at<const uint64_t>(layout.tables[0]) & 0xFFFFFFFFu;
    records.check("ftgraph node header", file, layout.block_offset(root), sizeof(TreeNodeHeader));
    records.check("ftgraph node fingerprints", file, layout.block_offset(root) + 64, 16);
    records.check("ftgraph node entries", file, layout.block_offset(root) + 128, 16);
  }
  REQUIRE(records.checked() == 18);
}

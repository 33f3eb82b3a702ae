// A store mode as the shared code reaches it: its name, the facts of its format the shared
// regions depend on, how it sizes a new store, its writer and its view, and its own options.
// Each mode defines its entry in its own folder (store/<mode>/<mode>_mode.cc); store/store_modes.cc
// is the one table that lists them. Nothing outside a mode's folder and that table names a mode:
// a fifth design is a folder and a line in the table.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "store/store_format.h"

namespace graphso::store {

class PmemFile;
class ReaderLease;
class StoreView;
class StoreWriter;
class WriterLock;
struct StoreHeader;
struct StoreOptions;

// An option of a mode's own, given as `--name VALUE` to ingest and kept by name in
// StoreOptions::tuning (modes that share an option, as the vertex-buffer modes do, list the same
// one). An on/off option's value is 1 or 0.
struct ModeOption {
  enum class Kind : uint8_t { Count, OnOff };
  const char* name;   // the command-line flag without its dashes
  const char* help;
  uint64_t fallback;  // when not given
  uint64_t min = 0, max = UINT64_MAX;
  Kind kind = Kind::Count;
  void (*check)(uint64_t value) = nullptr;  // what a range cannot say (a power of two); throws
};

// A line of store-stat, as the mode words it: `key: value` (StoreView::stat_lines).
struct StatLine {
  std::string key;
  std::string value;
};

struct StoreModeEntry {
  StoreMode mode;  // its number in the superblock
  const char* name;
  const char* summary;  // for --store-mode's help
  // What the format is: the block region cut into 4 KiB pages (the checkpoint's high-water mark
  // counts pages, not 64-byte units); an edge log with checkpoints (a mode without one counts the
  // operations applied in the head word); in-lists beside the out-lists, and what its lists are
  // called (store-check compares the two directions); read only after a clean close (a mode whose
  // blocks are written in place without a recovery of its own).
  bool paged = false;
  bool logs = true;
  bool in_lists = true;
  const char* lists_called = "lists";
  bool clean_close_only = false;
  // How store-check words what it read: what a list is made of, what else it checked, and
  // whether the lists hold a set (an edge at most once) or a multiset.
  const char* units_called = "blocks";
  const char* checked_too = "";
  bool set_semantics = false;
  uint32_t table_copies = 2;  // 1: the table region exists once (its vertex array)
  uint64_t (*table_bytes)(const StoreGeometry& g) = nullptr;
  // Sizes the block region (and the log, for a mode that keeps none) of a new store of `g.vertices`
  // vertices meant to hold `edges` edges.
  void (*size)(StoreGeometry& g, uint64_t edges) = nullptr;
  // Writes the words a new store starts with after its log head (StoreLayout::head_word) and says
  // how many; they are persisted with the head. Null: none.
  uint32_t (*initial_head_words)(const PmemFile& file, const StoreLayout& layout) = nullptr;
  // The mode's writer over a locked store file (recovering it), and its view at the current version.
  std::unique_ptr<StoreWriter> (*open_writer)(WriterLock lock, PmemFile file, const StoreHeader& header,
                                              const StoreOptions& options) = nullptr;
  std::unique_ptr<StoreView> (*open_view)(ReaderLease lease, PmemFile file, const StoreHeader& header) = nullptr;
  std::span<const ModeOption> options;
  std::span<const char* const> crash_points;  // power-cut points of its own (store/persister.h)

  // What the checkpoint's high-water mark counts: pages, or 64-byte block units.
  uint64_t unit_bytes() const { return paged ? kStorePageBytes : kBlockUnitBytes; }
};

// Every mode, in superblock order.
std::span<const StoreModeEntry* const> store_modes();
// The mode's entry; null when no mode has that number (a damaged superblock).
const StoreModeEntry* find_store_mode(uint32_t number);
// The mode's entry (the mode is one the table lists).
const StoreModeEntry& store_mode(StoreMode mode);
const char* store_mode_name(StoreMode mode);
// The mode named `name`; otherwise "unknown store mode 'x' (expected ...)".
StoreMode parse_store_mode(const std::string& name);

// Every mode's own power-cut points.
std::vector<const char*> mode_crash_points();

// The value of `option` in `tuning`: the one given, or its fallback.
uint64_t option_value(const std::map<std::string, uint64_t, std::less<>>& tuning, const ModeOption& option);
// Each given value names an option of some mode and is in its range; else a one-line error.
void check_mode_options(const std::map<std::string, uint64_t, std::less<>>& tuning);
// Every mode's options, each once (for ingest's command line), and the modes that take each.
struct ModeOptionUse {
  const ModeOption* option;
  std::vector<const char*> modes;
};
std::vector<ModeOptionUse> mode_options();

}  // namespace graphso::store

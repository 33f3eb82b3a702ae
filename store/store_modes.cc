// The one table of store modes: a mode is its folder and its line here.
#include "store/store_modes.h"

#include <algorithm>

#include "base/enum_names.h"
#include "base/error.h"
#include "store/dgap/dgap_store.h"
#include "store/ftgraph/ftgraph_store.h"
#include "store/gear/gear_store.h"
#include "store/xpgraph/chain_store.h"

namespace graphso::store {

namespace {

// In superblock order: entry k is mode number k.
constexpr const StoreModeEntry* kModes[] = {&kXPGraphMode, &kNaiveMode, &kDgapMode, &kGearMode, &kFtgraphMode};

}  // namespace

std::span<const StoreModeEntry* const> store_modes() { return kModes; }

const StoreModeEntry* find_store_mode(uint32_t number) {
  for (const StoreModeEntry* m : kModes)
    if (static_cast<uint32_t>(m->mode) == number) return m;
  return nullptr;
}

const StoreModeEntry& store_mode(StoreMode mode) {
  const StoreModeEntry* m = find_store_mode(static_cast<uint32_t>(mode));
  if (!m) fail("unknown store mode {}", static_cast<uint32_t>(mode));
  return *m;
}

const char* store_mode_name(StoreMode mode) {
  const StoreModeEntry* m = find_store_mode(static_cast<uint32_t>(mode));
  return m ? m->name : "?";
}

StoreMode parse_store_mode(const std::string& name) {
  std::vector<std::string> names;
  for (const StoreModeEntry* m : kModes) {
    if (name == m->name) return m->mode;
    names.push_back(m->name);
  }
  fail("unknown store mode '{}' (expected {})", name, choices_text(names));
}

std::vector<const char*> mode_crash_points() {
  std::vector<const char*> points;
  for (const StoreModeEntry* m : kModes) points.insert(points.end(), m->crash_points.begin(), m->crash_points.end());
  return points;
}

uint64_t option_value(const std::map<std::string, uint64_t, std::less<>>& tuning, const ModeOption& option) {
  const auto it = tuning.find(option.name);
  return it == tuning.end() ? option.fallback : it->second;
}

std::vector<ModeOptionUse> mode_options() {
  std::vector<ModeOptionUse> uses;
  for (const StoreModeEntry* m : kModes)
    for (const ModeOption& o : m->options) {
      auto it = std::find_if(uses.begin(), uses.end(), [&](const ModeOptionUse& u) { return std::string_view(u.option->name) == o.name; });
      if (it == uses.end()) uses.push_back({&o, {m->name}});
      else it->modes.push_back(m->name);
    }
  return uses;
}

void check_mode_options(const std::map<std::string, uint64_t, std::less<>>& tuning) {
  const std::vector<ModeOptionUse> uses = mode_options();
  for (const auto& [name, value] : tuning) {
    auto it = std::find_if(uses.begin(), uses.end(), [&](const ModeOptionUse& u) { return name == u.option->name; });
    if (it == uses.end()) fail("no store mode has an option --{}", name);
    const ModeOption& o = *it->option;
    if (value < o.min || value > o.max) fail("--{} {} is out of range ({} to {})", name, value, o.min, o.max);
    if (o.check) o.check(value);
  }
}

}  // namespace graphso::store

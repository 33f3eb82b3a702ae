// One status line on stderr while a long step runs: done/total, rate and ETA. Silent when stderr
// is not a terminal, so logs and CI output stay clean.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace graphso {

class ProgressPlan;

// Which step of a plan a Progress reports (no plan: a step of its own).
struct ProgressStep {
  const ProgressPlan* plan = nullptr;
  uint32_t index = 0;
  ProgressStep next() const { return {plan, index + 1}; }
};

// A command made of steps of known relative cost (prep: count, scatter, sort, TChunk tables),
// shown as one: each step's line is prefixed with "k/n" and ends with the whole command's ETA,
// from the costs of the steps done and to come and the time spent so far. Made before the first
// step starts; steps without progress of their own (a small one) still count in the time.
class ProgressPlan {
 public:
  ProgressPlan(std::string name, std::vector<double> costs);
  ProgressStep step(uint32_t index) const { return {this, index}; }
  const std::string& name() const { return name_; }
  uint32_t steps() const { return static_cast<uint32_t>(costs_.size()); }
  // The share of the whole done when step `index` is `fraction` done.
  double share_done(uint32_t index, double fraction) const;
  double seconds() const;

 private:
  std::string name_;
  std::vector<double> costs_;
  double total_ = 0;
  std::chrono::steady_clock::time_point start_;
};

class Progress {
 public:
  // unit: what is counted ("edges", "bytes"); total 0 means unknown.
  Progress(std::string label, uint64_t total, std::string unit, ProgressStep step = {});
  ~Progress();
  void update(uint64_t done);
  // Free-form status line (for the run loop); rate-limited like update().
  void status(const std::string& line);
  void finish();
  static bool on_terminal();

 private:
  void draw(const std::string& line);
  std::string label_;
  uint64_t total_;
  std::string unit_;
  ProgressStep step_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

// The line cut to fit a terminal of `columns` without wrapping (at most columns - 1 bytes, never
// inside a UTF-8 character): a status line that wraps cannot be redrawn in place.
std::string fit_columns(std::string line, uint64_t columns);

// "1.5 GiB", "12.0 MiB", "512 B"
std::string human_bytes(double bytes);
// Parses "256M", "1G", "4096", "64KiB" into bytes; throws graphso::Error naming what on failure.
uint64_t parse_size(const std::string& text, const std::string& what);
// Parses "10ms", "500us", "2s", "0" into a duration; throws graphso::Error naming what on failure.
std::chrono::nanoseconds parse_duration(const std::string& text, const std::string& what);

}  // namespace graphso

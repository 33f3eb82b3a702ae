// One status line on stderr while a long step runs: done/total, rate and ETA. Silent when stderr
// is not a terminal, so logs and CI output stay clean.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace graphso {

class Progress {
 public:
  // unit: what is counted ("edges", "bytes"); total 0 means unknown.
  Progress(std::string label, uint64_t total, std::string unit);
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

}  // namespace graphso

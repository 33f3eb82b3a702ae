#include "base/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>

#include "base/error.h"

namespace graphso {

ProgressPlan::ProgressPlan(std::string name, std::vector<double> costs)
    : name_(std::move(name)), costs_(std::move(costs)), start_(std::chrono::steady_clock::now()) {
  for (double c : costs_) total_ += c;
}

double ProgressPlan::share_done(uint32_t index, double fraction) const {
  if (total_ <= 0) return 0;
  double done = 0;
  for (uint32_t k = 0; k < index && k < costs_.size(); ++k) done += costs_[k];
  if (index < costs_.size()) done += std::clamp(fraction, 0.0, 1.0) * costs_[index];
  return done / total_;
}

double ProgressPlan::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

Progress::Progress(std::string label, uint64_t total, std::string unit, ProgressStep step)
    : label_(std::move(label)),
      total_(total),
      unit_(std::move(unit)),
      step_(step),
      enabled_(on_terminal()),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

Progress::~Progress() { finish(); }

bool Progress::on_terminal() { return ::isatty(STDERR_FILENO) == 1; }

namespace {

// The terminal's width now (it may be resized while a step runs); 80 when it does not say.
uint64_t terminal_columns() {
  struct winsize size {};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}

}  // namespace

std::string fit_columns(std::string line, uint64_t columns) {
  // One column short of the width: a line that fills the last column wraps on some terminals,
  // and a wrapped status line is left behind by the next redraw (\r only returns to its start).
  const uint64_t limit = columns > 1 ? columns - 1 : 1;
  if (line.size() <= limit) return line;
  uint64_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
  line.resize(cut);
  return line;
}

void Progress::draw(const std::string& line) {
  std::fprintf(stderr, "\r\033[K%s", fit_columns(line, terminal_columns()).c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::update(uint64_t done) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(200)) return;
  last_draw_ = now;
  double seconds = std::chrono::duration<double>(now - start_).count();
  double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
  bool bytes = unit_ == "bytes";
  std::string rate_text =
      bytes ? human_bytes(rate) + "/s" : fmt::format("{:.2f} M{}/s", rate / 1e6, unit_);
  std::string done_text = bytes ? human_bytes(static_cast<double>(done))
                                : fmt::format("{:.1f} M {}", static_cast<double>(done) / 1e6, unit_);
  std::string line = fmt::format("{}: {}", label_, done_text);
  if (total_ > 0 && step_.plan) {
    // The whole command first (it is what the user waits for), then this step.
    const double fraction = static_cast<double>(done) / static_cast<double>(total_);
    const double share = step_.plan->share_done(step_.index, fraction);
    const std::string eta = share > 0.01 ? fmt::format(", ETA {:.0f} s", step_.plan->seconds() * (1 - share) / share) : "";
    line = fmt::format("{} {:.0f}%{} | step {}/{} {}: {:.0f}%, {}", step_.plan->name(), 100 * share, eta,
                       step_.index + 1, step_.plan->steps(), label_, 100 * fraction, rate_text);
  } else if (total_ > 0) {
    double fraction = static_cast<double>(done) / static_cast<double>(total_);
    double eta = rate > 0 ? static_cast<double>(total_ - std::min(done, total_)) / rate : 0;
    line += fmt::format(" ({:.1f}%), {}, ETA {:.0f} s", 100 * fraction, rate_text, eta);
  } else {
    line += ", " + rate_text;
  }
  draw(line);
}

void Progress::status(const std::string& line) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(200)) return;
  last_draw_ = now;
  draw(label_ + ": " + line);
}

void Progress::finish() {
  if (enabled_ && drawn_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    drawn_ = false;
  }
}

std::string human_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  return u == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.1f} {}", bytes, units[u]);
}

uint64_t parse_size(const std::string& text, const std::string& what) {
  size_t pos = 0;
  while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) ++pos;
  if (pos == 0) fail("{}: '{}' is not a size (expected e.g. 4096, 64K, 256M, 2G)", what, text);
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + pos, value);
  (void)end;
  std::string suffix = text.substr(pos);
  uint64_t scale = 1;
  if (suffix.empty() || suffix == "B") scale = 1;
  else if (suffix == "K" || suffix == "KiB" || suffix == "k") scale = 1ull << 10;
  else if (suffix == "M" || suffix == "MiB") scale = 1ull << 20;
  else if (suffix == "G" || suffix == "GiB") scale = 1ull << 30;
  else if (suffix == "T" || suffix == "TiB") scale = 1ull << 40;
  else fail("{}: '{}' has an unknown unit '{}' (use K, M, G or T)", what, text, suffix);
  if (ec == std::errc::result_out_of_range || value > UINT64_MAX / scale)
    fail("{}: '{}' is too large (at most 2^64-1 bytes)", what, text);
  return value * scale;
}

std::chrono::nanoseconds parse_duration(const std::string& text, const std::string& what) {
  size_t pos = 0;
  while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) ++pos;
  if (pos == 0) fail("{}: '{}' is not a duration (expected e.g. 10ms, 500us, 2s)", what, text);
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + pos, value);
  (void)end;
  const std::string unit = text.substr(pos);
  uint64_t scale = 0;
  if (unit == "ns") scale = 1;
  else if (unit == "us") scale = 1000;
  else if (unit == "ms") scale = 1000 * 1000;
  else if (unit == "s") scale = 1000 * 1000 * 1000;
  else if (unit.empty() && value == 0) scale = 1;
  else fail("{}: '{}' needs a unit: ns, us, ms or s", what, text);
  if (ec == std::errc::result_out_of_range || value > (uint64_t{1} << 62) / scale) fail("{}: '{}' is too long", what, text);
  return std::chrono::nanoseconds(static_cast<int64_t>(value * scale));
}

}  // namespace graphso

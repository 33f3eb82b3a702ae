#include "tools/graphso/group_commit.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "base/error.h"
#include "store/graph_store.h"

namespace graphso {

StreamInput::StopSignal::StopSignal() : fd_(::eventfd(0, EFD_CLOEXEC)) {
  if (fd_ < 0) fail("cannot create an eventfd: {}", errno_text(errno));
}
StreamInput::StopSignal::~StopSignal() { ::close(fd_); }
void StreamInput::StopSignal::raise() const {
  const uint64_t one = 1;
  // Cannot fail short of a full counter, which one raise never reaches.
  [[maybe_unused]] const ssize_t n = ::write(fd_, &one, sizeof one);
}

StreamInput::StreamInput(const std::string& input, EdgeStreamParser parser, uint64_t max_queued)
    : name_(input == "-" ? "stdin" : input), max_queued_(std::max<uint64_t>(max_queued, 1)) {
  if (input != "-") {
    pipe_ = File(input, File::Mode::Read);
    input_fd_ = pipe_.fd();
  }
  reader_ = std::thread([this, p = std::move(parser)]() mutable { read_loop(std::move(p)); });
}

StreamInput::~StreamInput() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  stop_.raise();
  reader_.join();
}

void StreamInput::read_loop(EdgeStreamParser parser) {
  std::vector<std::byte> buffer(1 << 20);
  std::vector<StreamOp> parsed;
  // Hands what was parsed to the committer; false once the committer is gone.
  auto hand_over = [&](bool end, std::string error) {
    std::lock_guard lock(mutex_);
    if (!parsed.empty()) {
      queue_.insert(queue_.end(), parsed.begin(), parsed.end());
      received_ += parsed.size();
      arrivals_.emplace_back(received_, Clock::now());
      parsed.clear();
    }
    if (!kind_) kind_ = parser.kind();
    if (end) {
      ended_ = true;
      error_ = std::move(error);
    }
    changed_.notify_all();
    return !stopping_;
  };
  try {
    for (;;) {
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return stopping_ || queue_.size() < max_queued_; });
        if (stopping_) return;
      }
      pollfd fds[2] = {{input_fd_, POLLIN, 0}, {stop_.fd(), POLLIN, 0}};
      if (::poll(fds, 2, -1) < 0) {
        if (errno == EINTR) continue;
        fail("{}: cannot wait for input: {}", name_, errno_text(errno));
      }
      if (fds[1].revents) return;
      const ssize_t n = ::read(input_fd_, buffer.data(), buffer.size());
      if (n < 0) {
        if (errno == EINTR || errno == EAGAIN) continue;
        fail("{}: read failed: {}", name_, errno_text(errno));
      }
      if (n == 0) {
        parser.finish(parsed);
        hand_over(true, "");
        return;
      }
      parser.feed(std::span(buffer.data(), static_cast<size_t>(n)), parsed);
      if (!hand_over(false, "")) return;
    }
  } catch (const std::exception& e) {
    // Everything parsed before the error is handed over, to be committed and acknowledged.
    hand_over(true, e.what());
  }
}

StreamInput::Start StreamInput::wait_for_start() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return kind_.has_value() || ended_; });
  Start start;
  start.kind = kind_;
  start.any = !queue_.empty();
  for (const StreamOp& op : queue_)
    if (!op.deletion) start.max_id = std::max({start.max_id, uint64_t{op.edge.src}, uint64_t{op.edge.dst}});
  return start;
}

bool StreamInput::next_group(std::vector<StreamOp>& group, uint64_t batch, std::chrono::nanoseconds commit_every) {
  group.clear();
  std::unique_lock lock(mutex_);
  for (;;) {
    if (queue_.empty()) {
      if (ended_) return false;
      changed_.wait(lock);
      continue;
    }
    while (!arrivals_.empty() && arrivals_.front().first <= taken_) arrivals_.pop_front();
    const Clock::time_point due = arrivals_.front().second + commit_every;
    if (queue_.size() >= batch || ended_ || Clock::now() >= due) break;
    changed_.wait_until(lock, due);
  }
  const size_t n = std::min<size_t>(queue_.size(), batch);
  group.assign(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(n));
  queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(n));
  taken_ += n;
  changed_.notify_all();  // room for the reader
  return true;
}

std::string StreamInput::error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

std::optional<EdgeStreamKind> StreamInput::kind() const {
  std::lock_guard lock(mutex_);
  return kind_;
}

namespace {

// One run of insertions or of deletions, as the store takes them (weights where it keeps them).
template <typename EdgeRecord>
void commit_run(store::GraphStore& store, std::span<const StreamOp> run, std::vector<EdgeRecord>& edges) {
  edges.resize(run.size());
  for (size_t i = 0; i < run.size(); ++i) {
    if constexpr (std::is_same_v<EdgeRecord, WeightedEdge>) edges[i] = run[i].edge;
    else edges[i] = Edge{run[i].edge.src, run[i].edge.dst};
  }
  if (run.front().deletion) store.del_edges(std::span<const EdgeRecord>(edges));
  else store.add_edges(std::span<const EdgeRecord>(edges));
}

}  // namespace

GroupCommitResult commit_groups(store::GraphStore& store, StreamInput& input, const GroupCommitOptions& options,
                                const std::function<void(uint64_t)>& acknowledged) {
  GroupCommitResult result;
  std::vector<StreamOp> group;
  std::vector<WeightedEdge> weighted;
  std::vector<Edge> plain;
  // The stream's operations passed: in the store before, skipped, committed.
  uint64_t position = options.resent ? 0 : options.already;
  const bool keeps_weights = store.header().geometry.weighted;
  bool insertions_checked = false;
  while (input.next_group(group, options.batch, options.commit_every)) {
    std::span<const StreamOp> ops(group);
    if (position < options.already) {
      const uint64_t skipped = std::min<uint64_t>(options.already - position, ops.size());
      ops = ops.subspan(skipped);
      position += skipped;
      if (ops.empty()) continue;
    }
    std::string refused;
    const auto began = std::chrono::steady_clock::now();
    while (!ops.empty()) {
      const bool deletion = ops.front().deletion;
      size_t n = 1;
      while (n < ops.size() && ops[n].deletion == deletion) ++n;
      if (deletion) {
        // A deletion names edges the store can hold: ids within its vertices (which only
        // insertions grow). The run before the first that does not is committed.
        const uint64_t vertices = store.header().geometry.vertices;
        for (size_t i = 0; i < n; ++i) {
          const WeightedEdge& e = ops[i].edge;
          if (e.src >= vertices || e.dst >= vertices) {
            refused = fmt::format("{}: operation {} deletes {} -> {}, naming a vertex past the store's {}",
                                  options.name, position + i + 1, e.src, e.dst, vertices);
            n = i;
            break;
          }
        }
      }
      if (!deletion && !insertions_checked) {
        insertions_checked = true;
        try {
          if (options.before_insertions) options.before_insertions(input.kind().value_or(EdgeStreamKind{}));
        } catch (const Error& e) {
          refused = e.what();
          n = 0;
        }
      }
      if (n > 0) {
        if (keeps_weights) commit_run(store, ops.first(n), weighted);
        else commit_run(store, ops.first(n), plain);
        (deletion ? result.deletions : result.insertions) += n;
        result.operations += n;
        position += n;
      }
      if (!refused.empty()) break;
      ops = ops.subspan(n);
    }
    ++result.groups;
    acknowledged(position);
    result.commit_seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
    if (!refused.empty()) {
      result.error = refused;
      return result;
    }
  }
  result.error = input.error();
  if (result.error.empty() && position < options.already)
    result.error = fmt::format("{}: sent again from its start, the stream ended after {} operations, before the {} "
                               "already in the store (is it the same stream?)", options.name, position, options.already);
  return result;
}

}  // namespace graphso

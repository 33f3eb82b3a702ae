// Group commit of an edge stream (`ingest --input -`, docs/store.md "Streams"): a thread reads the
// stream as it comes and parses it; the caller's thread takes it in groups and commits each group
// durably, acknowledging it. A group closes when `batch` operations are waiting or its first one
// has waited `commit_every`, so a client writing small pieces is acknowledged within about that
// bound plus one commit, while the store persists large groups.
//
// The reader stays at most one group ahead of the committer (the pipe holds the rest): what a
// client has written is never far from durable, and memory is bounded.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/file.h"
#include "datasets/edge_stream.h"

namespace graphso {

namespace store {
class GraphStore;
}

// The stream's source: standard input ("-") or a path (a named pipe, opened here: this waits
// for its writer).
class StreamInput {
 public:
  StreamInput(const std::string& input, EdgeStreamParser parser, uint64_t max_queued);
  ~StreamInput();  // stops the reader, even one waiting for input
  StreamInput(const StreamInput&) = delete;
  StreamInput& operator=(const StreamInput&) = delete;

  struct Start {
    std::optional<EdgeStreamKind> kind;  // none: the stream ended (or failed) before its first insertion
    uint64_t max_id = 0;                 // the largest id among the insertions read so far
    bool any = false;                    // an operation was read
  };
  // Waits until the stream's kind is known (its binary header, or its first insertion), or it ended.
  Start wait_for_start();
  // Waits until a group is due and moves it (at most `batch` operations) into `group`. False when
  // the stream has ended, or failed, and every operation before the end was taken.
  bool next_group(std::vector<StreamOp>& group, uint64_t batch, std::chrono::nanoseconds commit_every);
  // After next_group returned false: why the stream stopped early (a parse or read error, one
  // line), empty at a clean end.
  std::string error() const;
  // The stream's kind, once known.
  std::optional<EdgeStreamKind> kind() const;

 private:
  using Clock = std::chrono::steady_clock;
  void read_loop(EdgeStreamParser parser);

  // An eventfd, owned: signalled, it wakes a reader waiting for input.
  class StopSignal {
   public:
    StopSignal();
    ~StopSignal();
    StopSignal(const StopSignal&) = delete;
    StopSignal& operator=(const StopSignal&) = delete;
    int fd() const { return fd_; }
    void raise() const;

   private:
    int fd_ = -1;
  };

  std::string name_;
  File pipe_;          // a named pipe's; standard input is not ours to close
  int input_fd_ = 0;
  StopSignal stop_;
  uint64_t max_queued_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<StreamOp> queue_;
  // (operations received when a piece arrived, its arrival): the oldest waiting operation's time.
  std::deque<std::pair<uint64_t, Clock::time_point>> arrivals_;
  uint64_t received_ = 0, taken_ = 0;
  std::optional<EdgeStreamKind> kind_;
  bool ended_ = false, stopping_ = false;
  std::string error_;
  std::thread reader_;
};

struct GroupCommitOptions {
  uint64_t batch = 16384;  // most operations in one group
  std::chrono::nanoseconds commit_every = std::chrono::milliseconds(10);
  uint64_t already = 0;  // the stream's operations already in the store
  bool resent = false;   // the stream starts again at its first operation: `already` are skipped, not logged twice
  std::string name;      // the stream, in error messages
  // Called once, before the stream's first insertion is committed, with its kind (weights or not,
  // real or integer); an Error from it stops the stream there, as a malformed line would.
  std::function<void(const EdgeStreamKind&)> before_insertions;
};

struct GroupCommitResult {
  uint64_t operations = 0;  // committed by this call
  uint64_t insertions = 0, deletions = 0;
  uint64_t groups = 0;
  std::vector<double> commit_seconds;  // each group's, from taking it to its acknowledgement
  // Why the stream stopped early (a parse or read error, a deletion naming a vertex past the
  // store's, a resent stream shorter than what the store holds), one line; empty at a clean end.
  // Everything before it is committed and acknowledged.
  std::string error;
};

// Commits the stream's groups in order (a group's runs of insertions and of deletions each one
// durable write), calling `acknowledged(n)` after each with the stream's operations now in the
// store (`already` included). The store's own errors are thrown.
GroupCommitResult commit_groups(store::GraphStore& store, StreamInput& input, const GroupCommitOptions& options,
                                const std::function<void(uint64_t)>& acknowledged);

}  // namespace graphso

#include "io/chunk_reader.h"

#include <omp.h>

#include <exception>

namespace graphso {
namespace {

constexpr uint64_t kParallelVerifyBytes = 16ull << 20;

}  // namespace

void ChunkReader::verify_with(std::shared_ptr<const PageSums> sums, int threads) {
  sums_ = std::move(sums);
  verify_threads_ = threads > 0 ? threads : omp_get_num_procs();
}

void ChunkReader::landed(const ReadRequest& piece) {
  if (sums_) landed_.push_back(piece);
}

bool ChunkReader::verify_one(const std::string& path) {
  if (landed_.empty()) return false;
  const ReadRequest piece = landed_.back();
  landed_.pop_back();
  sums_->verify(path, piece.offset, std::span<const std::byte>(piece.dest, piece.length));
  return true;
}

void ChunkReader::verify_landed(const std::string& path) {
  if (landed_.empty()) return;
  const std::vector<ReadRequest> pieces = std::move(landed_);
  landed_.clear();
  // An exception may not leave a parallel region: the first piece's (in file order of the
  // batch) is kept and thrown after it.
  std::vector<std::exception_ptr> errors(pieces.size());
  const int64_t count = static_cast<int64_t>(pieces.size());
  uint64_t bytes = 0;
  for (const ReadRequest& piece : pieces) bytes += piece.length;
  // Below a few milliseconds of checking, starting the threads costs more than it saves.
  const bool parallel = count > 1 && bytes >= kParallelVerifyBytes;
#pragma omp parallel for num_threads(verify_threads_) schedule(dynamic, 1) if (parallel)
  for (int64_t k = 0; k < count; ++k) {
    try {
      const ReadRequest& piece = pieces[static_cast<size_t>(k)];
      sums_->verify(path, piece.offset, std::span<const std::byte>(piece.dest, piece.length));
    } catch (...) {
      errors[static_cast<size_t>(k)] = std::current_exception();
    }
  }
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
}

}  // namespace graphso

// The store file mapped with libpmem: real PMEM or, as on machines without it, an ordinary file
// (is_pmem() false: persisting is pmem_msync). Created sparse, so regions cost disk space only
// once written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace graphso::store {

class PmemFile {
 public:
  // Creates a new file of `bytes` (an existing file is an error) and maps it.
  static PmemFile create(const std::string& path, uint64_t bytes);
  static PmemFile open(const std::string& path);

  PmemFile() = default;
  ~PmemFile();
  PmemFile(PmemFile&& other) noexcept;
  PmemFile& operator=(PmemFile&& other) noexcept;
  PmemFile(const PmemFile&) = delete;
  PmemFile& operator=(const PmemFile&) = delete;

  std::byte* base() const { return base_; }
  uint64_t size() const { return size_; }
  bool is_pmem() const { return is_pmem_; }
  const std::string& path() const { return path_; }

  template <typename T>
  T* at(uint64_t offset) const { return reinterpret_cast<T*>(base_ + offset); }

 private:
  PmemFile(std::string path, std::byte* base, uint64_t size, bool is_pmem)
      : path_(std::move(path)), base_(base), size_(size), is_pmem_(is_pmem) {}
  std::string path_;
  std::byte* base_ = nullptr;
  uint64_t size_ = 0;
  bool is_pmem_ = false;
};

// Renames temp over path and persists the rename (the directory is synced).
void publish_file(const std::string& temp, const std::string& path);

}  // namespace graphso::store

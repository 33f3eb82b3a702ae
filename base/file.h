// Owned file descriptors, exact reads/writes, aligned buffers and files that only appear when
// complete. Everything here throws graphso::Error with the path and the reason.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace graphso {

inline constexpr uint64_t kDirectAlignment = 4096;  // O_DIRECT offset/length/buffer alignment

inline constexpr uint64_t align_down(uint64_t x, uint64_t a) { return x / a * a; }
inline constexpr uint64_t align_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

class File {
 public:
  // WriteStream: an existing file (a device, pipe or standard stream) appended to, never created
  // or truncated.
  enum class Mode { Read, ReadDirect, Write, WriteDirect, ReadWrite, WriteStream };

  File() = default;
  File(const std::string& path, Mode mode);
  ~File();
  File(File&& other) noexcept;
  File& operator=(File&& other) noexcept;
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  uint64_t size() const;

  // Reads exactly bytes.size() bytes at offset; a short read is an error.
  void pread_exact(std::span<std::byte> bytes, uint64_t offset) const;
  // Reads up to bytes.size() bytes at offset, stopping only at the end of the file (an O_DIRECT
  // read of a file's last page returns what there is); returns how many were read.
  uint64_t pread_to_end(std::span<std::byte> bytes, uint64_t offset) const;
  void pwrite_all(std::span<const std::byte> bytes, uint64_t offset) const;
  // At the file's current position (pipes and terminals have no offsets).
  void write_all(std::span<const std::byte> bytes) const;
  void truncate(uint64_t size) const;
  void sync() const;

 private:
  int fd_ = -1;
  std::string path_;
};

// Memory aligned for O_DIRECT, zero-filled.
class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  explicit AlignedBuffer(uint64_t bytes);
  std::byte* data() const { return data_.get(); }
  uint64_t size() const { return size_; }

 private:
  struct Free {
    void operator()(std::byte* p) const;
  };
  std::unique_ptr<std::byte, Free> data_;
  uint64_t size_ = 0;
};

// Writes go to a temporary beside <path> named for this process (base/staging.h);
// commit() renames it over <path>. If the object dies uncommitted (an error was thrown), the
// temporary file is removed, so no partial output is ever left. "-", /dev/stdout and any <path>
// that is not a regular file (a terminal, a pipe) are written directly and never replaced; a
// symbolic link to a regular file keeps its link and has its file replaced.
class AtomicOutputFile {
 public:
  explicit AtomicOutputFile(std::string path);
  ~AtomicOutputFile();
  AtomicOutputFile(const AtomicOutputFile&) = delete;
  AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;

  const File& file() const { return file_; }
  // Appends at the current end.
  void append(std::span<const std::byte> bytes);
  void append(const std::string& text);
  uint64_t written() const { return written_; }
  void commit();

 private:
  std::string path_;
  std::string temp_path_;  // empty when writing straight to a non-regular file
  File file_;
  uint64_t written_ = 0;
  bool committed_ = false;
};

// Whole small file into memory (meta, tables).
std::string read_small_file(const std::string& path);
// Everything a stream (a pipe, standard input) gives until its end, at most `most` bytes (more is
// an error naming `name`).
std::string read_stream(int fd, const std::string& name, uint64_t most);
bool path_exists(const std::string& path);
// Both name one existing file (the same device and inode), whatever the spelling.
bool same_file(const std::string& a, const std::string& b);

template <typename T>
std::span<const std::byte> as_bytes_of(const T& value) {
  return std::as_bytes(std::span<const T, 1>(&value, 1));
}

}  // namespace graphso

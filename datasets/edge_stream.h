// An edge stream (docs/formats.md, "Edge streams"): what `ingest --input -` (or a named pipe)
// reads, insertions and deletions in one sequence of operations, as text lines or binary frames.
//
// Text: one operation a line, "SRC DST [WEIGHT]" inserts an edge, "- SRC DST [WEIGHT]" deletes one;
// '#' and '%' lines are comments. Every insertion has the column count of the first one.
// Binary: a 16-byte header ("GSOSTRM1", flags, CRC-32C), then frames: a word holding the record
// count and whether they are deletions, the CRC-32C of that word and the records, then the records
// (u32 src, u32 dst[, u32 weight]). A frame is checked whole before any of its records is handed
// out, so damage never becomes an edge.
//
// The parser takes the stream in whatever pieces the pipe gives and hands out whole operations; an
// error names the line (text) or frame and byte (binary), everything before it having been handed
// out already.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/types.h"

namespace graphso {

struct StreamOp {
  WeightedEdge edge;  // a deletion's weight is 1: it removes an occurrence whatever its weight
  bool deletion = false;
};

struct EdgeStreamKind {
  bool weighted = false;
  bool real_weights = false;  // binary32 in the weight words (base/types.h)
};

struct EdgeStreamOptions {
  std::string name;               // in error messages: "stdin", a pipe's path
  bool real_text_weights = false;  // a text stream's weights are reals, else integers
  uint64_t vertex_limit = kMaxVertexId + 1;  // every id below it
};

inline constexpr char kEdgeStreamMagic[8] = {'G', 'S', 'O', 'S', 'T', 'R', 'M', '1'};
inline constexpr uint64_t kEdgeStreamHeaderBytes = 16;
inline constexpr uint64_t kEdgeStreamFrameHeaderBytes = 8;
inline constexpr uint32_t kEdgeStreamMaxFrameRecords = 1u << 20;
inline constexpr uint32_t kEdgeStreamDeletionBit = 1u << 31;

class EdgeStreamParser {
 public:
  explicit EdgeStreamParser(EdgeStreamOptions options);
  // Parses the next piece of the stream, appending its whole operations to `out`; a partial line
  // or frame waits for the next piece. Throws Error at malformed input, after appending every
  // operation before it.
  void feed(std::span<const std::byte> bytes, std::vector<StreamOp>& out);
  // The stream ended: a last text line without a newline is parsed; a partial frame is an error.
  void finish(std::vector<StreamOp>& out);
  // Known from a binary header, or a text stream's first insertion.
  std::optional<EdgeStreamKind> kind() const { return kind_; }
  uint64_t operations() const { return operations_; }

 private:
  enum class Format { Unknown, Text, Binary };
  void parse_text(std::vector<StreamOp>& out, bool at_end);
  void parse_line(std::string_view line, std::vector<StreamOp>& out);
  void parse_binary(std::vector<StreamOp>& out);
  VertexId text_id(uint64_t id, const char* what) const;  // below options_.vertex_limit

  EdgeStreamOptions options_;
  Format format_ = Format::Unknown;
  std::optional<EdgeStreamKind> kind_;
  uint32_t text_columns_ = 0;  // of the first insertion line
  std::vector<std::byte> pending_;  // bytes not yet parsed (a partial line or frame)
  uint64_t consumed_ = 0;           // stream bytes before pending_
  uint64_t line_ = 0;               // text lines parsed
  uint64_t frames_ = 0;             // binary frames parsed
  uint64_t operations_ = 0;
};

// The binary form, for clients (tools/bench's stream client, the tests).
std::vector<std::byte> edge_stream_header(const EdgeStreamKind& kind);
// Appends frames of at most kEdgeStreamMaxFrameRecords records (weights written when
// kind.weighted).
void append_edge_stream_frames(std::span<const WeightedEdge> edges, bool deletions, const EdgeStreamKind& kind,
                               std::vector<std::byte>& out);

}  // namespace graphso

#include "datasets/edge_stream.h"

#include <algorithm>
#include <cstring>

#include "base/checksum.h"
#include "base/error.h"
#include "datasets/text_input.h"

namespace graphso {
namespace {

uint32_t load_u32(const std::byte* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

void store_u32(std::vector<std::byte>& out, uint32_t v) {
  const auto* p = reinterpret_cast<const std::byte*>(&v);
  out.insert(out.end(), p, p + 4);
}

constexpr uint32_t kWeightedFlag = 1;
constexpr uint32_t kRealWeightsFlag = 2;

}  // namespace

EdgeStreamParser::EdgeStreamParser(EdgeStreamOptions options) : options_(std::move(options)) {}

VertexId EdgeStreamParser::text_id(uint64_t id, const char* what) const {
  if (id >= options_.vertex_limit) {
    fail("{}:{}: {} {} is out of range (largest allowed id is {})", options_.name, line_, what, id,
         options_.vertex_limit - 1);
  }
  return static_cast<VertexId>(id);
}

void EdgeStreamParser::feed(std::span<const std::byte> bytes, std::vector<StreamOp>& out) {
  pending_.insert(pending_.end(), bytes.begin(), bytes.end());
  if (format_ == Format::Unknown) {
    const size_t n = std::min<size_t>(pending_.size(), sizeof kEdgeStreamMagic);
    if (std::memcmp(pending_.data(), kEdgeStreamMagic, n) != 0) format_ = Format::Text;
    else if (n == sizeof kEdgeStreamMagic) format_ = Format::Binary;
    else return;  // a prefix of the magic: wait for the rest
  }
  if (format_ == Format::Text) parse_text(out, false);
  else parse_binary(out);
}

void EdgeStreamParser::finish(std::vector<StreamOp>& out) {
  if (format_ == Format::Unknown && !pending_.empty()) format_ = Format::Text;
  if (format_ == Format::Text) {
    parse_text(out, true);
    return;
  }
  if (format_ == Format::Binary && !pending_.empty()) {
    if (!kind_)
      fail("{}: the stream ends inside its 16-byte header ({} bytes)", options_.name, pending_.size());
    fail("{}: the stream ends inside frame {} (byte {}): {} of its bytes arrived", options_.name, frames_ + 1,
         consumed_, pending_.size());
  }
}

void EdgeStreamParser::parse_text(std::vector<StreamOp>& out, bool at_end) {
  const char* begin = reinterpret_cast<const char*>(pending_.data());
  const char* end = begin + pending_.size();
  const char* p = begin;
  while (p < end) {
    const char* newline = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    if (!newline && !at_end) break;
    const char* stop = newline ? newline : end;
    std::string_view line(p, static_cast<size_t>(stop - p));
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++line_;
    p = newline ? newline + 1 : end;
    parse_line(line, out);
  }
  const auto used = static_cast<size_t>(p - begin);
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(used));
}

void EdgeStreamParser::parse_line(std::string_view line, std::vector<StreamOp>& out) {
  if (is_comment_or_blank(line)) return;
  const Located at{options_.name, line_};
  std::string_view tokens[5];
  uint32_t n = 0;
  Tokens split(line);
  std::string_view token;
  while (n < 5 && split.next(token)) tokens[n++] = token;
  const bool deletion = tokens[0] == "-";
  const uint32_t first = deletion ? 1 : 0;
  const uint32_t columns = n - first;
  if (columns < 2 || columns > 3)
    fail("{}:{}: expected '{}SRC DST [WEIGHT]', found {} columns", options_.name, line_, deletion ? "- " : "",
         columns);
  StreamOp op;
  op.deletion = deletion;
  op.edge.src = text_id(checked_id(parse_id(tokens[first], at, "source id"), at), "source id");
  op.edge.dst = text_id(checked_id(parse_id(tokens[first + 1], at, "destination id"), at), "destination id");
  op.edge.weight = 1;
  if (!deletion) {
    if (text_columns_ == 0) {
      text_columns_ = columns;
      kind_ = EdgeStreamKind{columns == 3, columns == 3 && options_.real_text_weights};
    } else if (columns != text_columns_) {
      fail("{}:{}: {} columns, where the stream's first edge has {}", options_.name, line_, columns, text_columns_);
    }
  }
  // A deletion's weight is read (it must be a number) and ignored: it removes the earliest
  // occurrence whatever its weight.
  if (columns == 3) {
    const Weight weight = parse_weight_of_kind(options_.real_text_weights, tokens[first + 2], at);
    if (!deletion) op.edge.weight = weight;
  }
  out.push_back(op);
  ++operations_;
}

void EdgeStreamParser::parse_binary(std::vector<StreamOp>& out) {
  size_t pos = 0;
  const std::byte* data = pending_.data();
  if (!kind_) {
    if (pending_.size() < kEdgeStreamHeaderBytes) return;
    const uint32_t flags = load_u32(data + 8);
    if (load_u32(data + 12) != crc32c_of(std::span(data, 12)))
      fail("{}: the stream header's checksum does not match (damaged header)", options_.name);
    if (flags & ~(kWeightedFlag | kRealWeightsFlag))
      fail("{}: the stream header has unknown flags {:#x}", options_.name, flags);
    if ((flags & kRealWeightsFlag) && !(flags & kWeightedFlag))
      fail("{}: the stream header says real weights for an unweighted stream", options_.name);
    kind_ = EdgeStreamKind{(flags & kWeightedFlag) != 0, (flags & kRealWeightsFlag) != 0};
    pos = kEdgeStreamHeaderBytes;
    consumed_ += kEdgeStreamHeaderBytes;
  }
  const uint64_t record_bytes = kind_->weighted ? 12 : 8;
  while (pending_.size() - pos >= kEdgeStreamFrameHeaderBytes) {
    const uint32_t word = load_u32(data + pos);
    const uint32_t count = word & ~kEdgeStreamDeletionBit;
    if (count == 0 || count > kEdgeStreamMaxFrameRecords)
      fail("{}: frame {} (byte {}) claims {} records (1 to {} allowed): damaged or not a frame", options_.name,
           frames_ + 1, consumed_, count, kEdgeStreamMaxFrameRecords);
    const uint64_t frame_bytes = kEdgeStreamFrameHeaderBytes + count * record_bytes;
    if (pending_.size() - pos < frame_bytes) break;
    const uint32_t crc = crc32c_of(std::span(data + pos + kEdgeStreamFrameHeaderBytes, count * record_bytes),
                                   crc32c_of(std::span(data + pos, 4)));
    if (crc != load_u32(data + pos + 4))
      fail("{}: frame {} (byte {}) does not match its checksum (damaged)", options_.name, frames_ + 1, consumed_);
    const bool deletion = (word & kEdgeStreamDeletionBit) != 0;
    const std::byte* r = data + pos + kEdgeStreamFrameHeaderBytes;
    // Checked whole before any record is handed out: a frame is taken or refused as one.
    const size_t before = out.size();
    for (uint32_t i = 0; i < count; ++i, r += record_bytes) {
      StreamOp op;
      op.deletion = deletion;
      op.edge.src = load_u32(r);
      op.edge.dst = load_u32(r + 4);
      op.edge.weight = kind_->weighted && !deletion ? load_u32(r + 8) : 1;
      if (op.edge.src >= options_.vertex_limit || op.edge.dst >= options_.vertex_limit) {
        out.resize(before);
        fail("{}: frame {} (byte {}), record {}: edge {} -> {} names an id past the largest allowed ({})",
             options_.name, frames_ + 1, consumed_, i + 1, op.edge.src, op.edge.dst, options_.vertex_limit - 1);
      }
      out.push_back(op);
    }
    operations_ += count;
    ++frames_;
    pos += frame_bytes;
    consumed_ += frame_bytes;
  }
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(pos));
}

std::vector<std::byte> edge_stream_header(const EdgeStreamKind& kind) {
  std::vector<std::byte> out(reinterpret_cast<const std::byte*>(kEdgeStreamMagic),
                             reinterpret_cast<const std::byte*>(kEdgeStreamMagic) + sizeof kEdgeStreamMagic);
  store_u32(out, (kind.weighted ? kWeightedFlag : 0) | (kind.weighted && kind.real_weights ? kRealWeightsFlag : 0));
  store_u32(out, crc32c_of(out));
  return out;
}

void append_edge_stream_frames(std::span<const WeightedEdge> edges, bool deletions, const EdgeStreamKind& kind,
                               std::vector<std::byte>& out) {
  for (size_t first = 0; first < edges.size(); first += kEdgeStreamMaxFrameRecords) {
    const auto count = static_cast<uint32_t>(std::min<size_t>(edges.size() - first, kEdgeStreamMaxFrameRecords));
    const size_t at = out.size();
    store_u32(out, count | (deletions ? kEdgeStreamDeletionBit : 0));
    store_u32(out, 0);  // the checksum, below
    for (uint32_t i = 0; i < count; ++i) {
      const WeightedEdge& e = edges[first + i];
      store_u32(out, e.src);
      store_u32(out, e.dst);
      if (kind.weighted) store_u32(out, e.weight);
    }
    const uint32_t crc = crc32c_of(std::span(out.data() + at + kEdgeStreamFrameHeaderBytes,
                                             out.size() - at - kEdgeStreamFrameHeaderBytes),
                                   crc32c_of(std::span(out.data() + at, 4)));
    std::memcpy(out.data() + at + 4, &crc, 4);
  }
}

}  // namespace graphso

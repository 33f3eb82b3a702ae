#!/usr/bin/env python3
"""Packs a prepared graph directory into one fuzz input for the graph_dir target
(tests/fuzz/fuzz_graph_dir.cc): records of (u8 file index, u32 length, bytes).

  python3 tests/fuzz/pack_graph_dir.py GRAPH_DIR OUT
"""
import os
import struct
import sys

# The order is the target's kFiles.
FILES = ["meta", "degrees", "order", "grid.row", "grid.col", "grid.row.sums", "grid.col.sums", "xstream.meta",
         "xstream.part.0", "xstream.part.1", "xstream.part.0.sums", "xstream.part.1.sums", "tchunk.4096",
         "tchunk.xstream.4096", "chunk_size"]


def main():
    graph_dir, out = sys.argv[1], sys.argv[2]
    packed = b""
    for index, name in enumerate(FILES):
        path = os.path.join(graph_dir, name)
        if os.path.exists(path):
            data = open(path, "rb").read()
            packed += struct.pack("<BI", index, len(data)) + data
    with open(out, "wb") as f:
        f.write(packed)


if __name__ == "__main__":
    main()

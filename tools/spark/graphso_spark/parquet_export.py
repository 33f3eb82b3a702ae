"""A graphso edge list (.bin) as a Parquet edge table in parts, with graphso.json beside them.

    python -m graphso_spark.parquet_export EDGES.bin OUT_DIR [--symmetric] [--part-edges N]

Run by `graphso export --format parquet` on the edge list it has just written in original ids;
pyarrow writes the Parquet. Columns src, dst (int64) and weight (int64, weighted graphs only; float64
holding the binary32 value when the weights are real), so Spark reads them as longs (doubles)
whatever the cluster; parts of --part-edges edges, so a cluster reads
them in parallel. The directory appears whole or not at all.
"""

import argparse
import json
import os
import shutil
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from graphso_spark import export_meta

HEADER_BYTES = 64  # datasets/edge_list.h


def main(argv=None):
    p = argparse.ArgumentParser(prog="parquet_export")
    p.add_argument("edges")
    p.add_argument("out")
    p.add_argument("--vertices", type=int, required=True)
    p.add_argument("--edges-count", type=int, required=True)
    p.add_argument("--weighted", action="store_true")
    p.add_argument("--real-weights", action="store_true")
    p.add_argument("--symmetric", action="store_true")
    p.add_argument("--part-edges", type=int, default=8 << 20)
    args = p.parse_args(argv)

    record = [("src", "<u4"), ("dst", "<u4")] + ([("weight", "<f4" if args.real_weights else "<u4")] if args.weighted else [])
    dtype = np.dtype(record)
    # Format 2 (the one graphso writes): the records, then a CRC-32C per block of block_records
    # records (header bytes 32-35). graphso wrote this file a moment ago and checks its own
    # blocks; here only the sizes are checked.
    with open(args.edges, "rb") as f:
        header = f.read(HEADER_BYTES)
    block_records = int.from_bytes(header[32:36], "little")
    blocks = -(-args.edges_count // block_records) if block_records else 0
    size = os.path.getsize(args.edges) - HEADER_BYTES - 4 * blocks
    if block_records == 0 or size != args.edges_count * dtype.itemsize:
        raise SystemExit(f"{args.edges}: {size} bytes of records for {args.edges_count} edges")
    records = np.memmap(args.edges, dtype=dtype, mode="r", offset=HEADER_BYTES, shape=(args.edges_count,))

    if os.path.exists(args.out) and (not os.path.isdir(args.out) or
                                     (os.listdir(args.out) and not os.path.exists(os.path.join(args.out, "graphso.json")))):
        raise SystemExit(f"{args.out}: exists and is not an earlier export (it would be replaced)")
    staging = args.out.rstrip("/") + ".tmp"
    shutil.rmtree(staging, ignore_errors=True)
    os.makedirs(staging)
    parts = []
    for first in range(0, max(args.edges_count, 1), args.part_edges):
        piece = records[first:first + args.part_edges]
        columns = {name: pa.array(piece[name].astype(np.float64 if kind == "<f4" else np.int64)) for name, kind in record}
        name = f"part-{len(parts):05d}.parquet"
        pq.write_table(pa.table(columns), os.path.join(staging, name), compression="snappy")
        parts.append(name)
    meta = {"format": export_meta.FORMAT, "version": export_meta.VERSION, "vertices": args.vertices,
            "edges": args.edges_count, "weighted": args.weighted, "real_weights": args.real_weights, "symmetric": args.symmetric,
            "ids": "original", "columns": [name for name, _ in record], "parts": parts}
    with open(os.path.join(staging, "graphso.json"), "w") as f:
        json.dump(meta, f, indent=2)
        f.write("\n")
    shutil.rmtree(args.out, ignore_errors=True)
    os.replace(staging, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

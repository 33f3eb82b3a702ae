#!/usr/bin/python3
"""Compare and plot graphso run reports (the JSON of `graphso run --report`).

  tools/plot_report.py --table independent.json partition.json chunk.json
  tools/plot_report.py --png rounds.png partition.json chunk.json

--table prints one row per report: time, bytes read, bytes from the cache, cache hits, the
active-edge ratio, and each mode's bytes and speed against the first report. --png plots, per
round, the bytes read from the device and the active-edge ratio of every report.
"""
import argparse
import json
import os
import sys


def human(b):
    for unit in ["B", "KiB", "MiB", "GiB", "TiB"]:
        if b < 1024 or unit == "TiB":
            return f"{b:.1f} {unit}"
        b /= 1024


def load(path):
    with open(path) as f:
        report = json.load(f)
    report["_label"] = report.get("mode", os.path.basename(path))
    if report.get("engine", "gridgraph") != "gridgraph":
        report["_label"] = f"{report['engine']} {report['_label']}"
    return report


def table(reports):
    base = reports[0]
    headers = ["engine/mode", "seconds", "bytes read", "from cache", "cache hits", "active-edge ratio",
               f"bytes vs {base['_label']}", f"speedup vs {base['_label']}"]
    rows = []
    for r in reports:
        rows.append([r["_label"], f"{r['wall_seconds']:.2f}", human(r["bytes_read"]), human(r.get("bytes_from_cache", 0)),
                     str(r.get("cache_hits", 0)), f"{r['active_edge_ratio']:.3f}",
                     f"{r['bytes_read'] / base['bytes_read']:.3f}" if base["bytes_read"] else "-",
                     f"{base['wall_seconds'] / r['wall_seconds']:.2f}x" if r["wall_seconds"] else "-"])
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(headers)]
    line = lambda cells: "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths)))
    print(line(headers))
    for row in rows:
        print(line(row))


def plot(reports, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 7), sharex=True)
    for r in reports:
        rounds = [x["round"] for x in r["rounds"]]
        top.plot(rounds, [x["bytes_read"] / 2**20 for x in r["rounds"]], label=r["_label"], linewidth=1)
        ratio = [x["active_edges_loaded"] / x["edges_loaded"] if x["edges_loaded"] else 0 for x in r["rounds"]]
        bottom.plot(rounds, ratio, label=r["_label"], linewidth=1)
    first = reports[0]
    jobs = ", ".join(j["algo"] for j in first["jobs"])
    top.set_title(f"{os.path.basename(first['graph'].rstrip('/'))}: {jobs}\n"
                  f"graph budget {human(first['graph_budget_bytes'])}, {first['threads']} threads")
    top.set_ylabel("MiB read from the device")
    bottom.set_ylabel("active-edge ratio")
    bottom.set_xlabel("round")
    top.legend()
    bottom.legend()
    top.grid(alpha=0.3)
    bottom.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reports", nargs="+")
    parser.add_argument("--table", action="store_true")
    parser.add_argument("--png")
    args = parser.parse_args()
    reports = [load(p) for p in args.reports]
    if args.table or not args.png:
        table(reports)
    if args.png:
        plot(reports, args.png)
        print(f"plot: {args.png}", file=sys.stderr)


if __name__ == "__main__":
    main()

"""PNG plots of the benchmark's experiments (matplotlib, Agg): one figure per experiment, each
titled with what it shows and the setting it ran in, axes with units, a legend for every series."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

GIB = 1024 ** 3
MODE_COLOURS = {"independent": "#999999", "partition": "#1f77b4", "chunk": "#d62728"}


def _finish(fig, title, setting, path):
    fig.suptitle(f"{title}\n{setting}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _log2_axes(axes_and_labels, x_label):
    """A log2 x axis, its label, each axis's y label and its legend."""
    for ax, label in axes_and_labels:
        ax.set_xscale("log", base=2)
        ax.set_xlabel(x_label)
        ax.set_ylabel(label)
        ax.legend(fontsize=7)


def _bars(ax, groups, series, values, ylabel, colours=None, reference=None, reference_label=None, log=False):
    """Grouped bars: values[s][g] for series s in each group g; headroom above them for the legend."""
    width = 0.8 / max(1, len(series))
    for k, s in enumerate(series):
        xs = [g + (k - (len(series) - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, values[k], width, label=s, color=(colours or {}).get(s))
    if reference is not None:
        for g, y in enumerate(reference):
            ax.hlines(y, g - 0.45, g + 0.45, colors="black", linestyles="dashed",
                      label=reference_label if g == 0 else None)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, fontsize=8)
    ax.set_ylabel(ylabel)
    if log:
        ax.set_yscale("log")
    low, high = ax.get_ylim()
    ax.set_ylim(low, high * (6 if log else 1.35))
    ax.legend(fontsize=7, loc="upper left", ncol=2)


def modes(rows, setting, path):
    """rows: [{graph, modes: {mode: {seconds, bytes, active_edge_ratio}}, min_bytes, limit_seconds}]"""
    groups = [r["graph"] for r in rows]
    series = ["independent", "partition", "chunk"]
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    get = lambda key, scale=1: [[r["modes"][s][key] / scale if s in r["modes"] else 0 for r in rows] for s in series]
    _bars(axes[0], groups, series, get("seconds"), "wall time (s)", MODE_COLOURS,
          [r["limit_seconds"] for r in rows], "limit: minimum bytes / disk bandwidth", log=True)
    _bars(axes[1], groups, series, get("bytes", GIB), "bytes read from the device (GiB)", MODE_COLOURS,
          [r["min_bytes"] / GIB for r in rows], "minimum: each active edge once per round", log=True)
    _bars(axes[2], groups, series, get("active_edge_ratio"), "active-edge ratio (active / loaded edges)", MODE_COLOURS)
    _finish(fig, "Batch W1 in the three sharing modes (paper Figs. 9, 11, 12)", setting, path)


def workloads(rows, setting, path):
    """rows: [{workload, partition: {seconds, bytes}, chunk: {...}}]"""
    groups = [r["workload"] for r in rows]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, key, label in [(axes[0], "seconds", "wall time, chunk / partition"),
                           (axes[1], "bytes", "bytes read, chunk / partition")]:
        ax.bar(range(len(groups)), [r["chunk"][key] / r["partition"][key] for r in rows], color=MODE_COLOURS["chunk"],
               label="chunk mode (GraphSO) relative to partition mode (GraphM)")
        ax.axhline(1.0, color="black", linestyle="dashed", linewidth=1, label="partition mode")
        ax.set_xticks(range(len(groups)))
        ax.set_xticklabels(groups)
        ax.set_ylabel(label)
        ax.legend(fontsize=7)
    _finish(fig, "Workloads W1-W8 (paper Table 3), chunk vs partition mode (paper Fig. 19)", setting, path)


def sweep(rows, x_key, x_label, setting, path, title, log_x=False, marker=None, marker_label=None):
    """rows: [{series, points: [{x, seconds, bytes}]}]: time and bytes against one parameter."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for r in rows:
        xs = [p[x_key] for p in r["points"]]
        axes[0].plot(xs, [p["seconds"] for p in r["points"]], marker="o", label=r["series"])
        axes[1].plot(xs, [p["bytes"] / GIB for p in r["points"]], marker="o", label=r["series"])
    for ax, label in [(axes[0], "wall time (s)"), (axes[1], "bytes read from the device (GiB)")]:
        if marker is not None:
            ax.axvline(marker, color="grey", linestyle="dotted", label=marker_label)
        if log_x:
            ax.set_xscale("log", base=2)
        ax.set_xlabel(x_label)
        ax.set_ylabel(label)
        ax.legend(fontsize=7)
    _finish(fig, title, setting, path)


def concurrency(rows, setting, path):
    """rows: [{series, points: [{jobs, jobs_per_hour, bytes_per_job}]}]"""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for r in rows:
        xs = [p["jobs"] for p in r["points"]]
        colour = MODE_COLOURS.get(r["series"])
        axes[0].plot(xs, [p["jobs_per_hour"] for p in r["points"]], marker="o", label=r["series"], color=colour)
        axes[1].plot(xs, [p["bytes_per_job"] / GIB for p in r["points"]], marker="o", label=r["series"], color=colour)
    _log2_axes([(axes[0], "throughput (jobs per hour)"), (axes[1], "bytes read per job (GiB)")], "concurrent jobs")
    _finish(fig, "Number of concurrent jobs", setting, path)


def orders(rows, setting, path):
    """rows: [{graph, variants: {label: bytes / partition natural}}]"""
    labels = list(rows[0]["variants"].keys())
    fig, ax = plt.subplots(figsize=(12, 4.5))
    _bars(ax, [r["graph"] for r in rows], labels, [[r["variants"][v] for r in rows] for v in labels],
          "bytes read / partition mode in natural order", log=True)
    ax.legend(fontsize=7, ncol=3, loc="upper left")
    _finish(fig, "Vertex orders and read granularity (prep --order, run --granularity)", setting, path)


def engines(rows, setting, path):
    """rows: [{group, modes: {mode: {seconds, bytes, update_bytes_written}}}]: one group per graph and engine."""
    groups = [r["group"] for r in rows]
    series = ["independent", "partition", "chunk"]
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.5))
    get = lambda key, scale=1: [[r["modes"][s][key] / scale for r in rows] for s in series]
    _bars(axes[0], groups, series, get("seconds"), "wall time (s)", MODE_COLOURS, log=True)
    _bars(axes[1], groups, series, get("bytes", GIB), "edge bytes read from the device (GiB)", MODE_COLOURS, log=True)
    _bars(axes[2], groups, series, get("update_bytes_written", GIB), "update bytes spilled to disk (GiB)", MODE_COLOURS)
    _finish(fig, "Batch W1 in both engines and the three sharing modes", setting, path)


def memory(rows, setting, path):
    """rows: [{series, points: [{fraction, mem, peak}]}]: one line per graph, engine and mode."""
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    for r in rows:
        xs = [p["fraction"] for p in r["points"]]
        axes[0].plot(xs, [p["peak"] / p["mem"] for p in r["points"]], marker="o", label=r["series"])
        axes[1].plot(xs, [(p["peak"] - p["mem"]) / 2 ** 20 for p in r["points"]], marker="o", label=r["series"])
    axes[0].axhline(1.0, color="black", linestyle="dashed", linewidth=1, label="peak RSS = --mem")
    _log2_axes([(axes[0], "peak RSS / --mem"), (axes[1], "peak RSS - --mem (MiB): the program itself")],
               "graph-data budget (fraction of the edge bytes)")
    _finish(fig, "Memory: peak RSS against the budget (vertex state + graph-data budget)", setting, path)


STORE_COLOURS = {"xpgraph": "#d62728", "naive": "#999999"}


def store(rows, setting, path):
    """rows: [{graph, modes: {mode: {edges_per_second, line_bytes_per_edge, device_bytes_per_edge}}}]"""
    groups = [r["graph"] for r in rows]
    series = ["xpgraph", "naive"]
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    get = lambda key, scale=1: [[r["modes"][s][key] / scale for r in rows] for s in series]
    _bars(axes[0], groups, series, get("edges_per_second", 1e6), "ingest rate (million edges/s)", STORE_COLOURS, log=True)
    _bars(axes[1], groups, series, get("line_bytes_per_edge"), "persisted bytes per edge (256-byte lines)", STORE_COLOURS,
          log=True)
    _bars(axes[2], groups, series, get("device_bytes_per_edge"), "bytes written to the PMEM file per edge", STORE_COLOURS,
          log=True)
    _finish(fig, "Evolving-graph ingest, durability on: XPGraph vs naive (GraphOne on PMEM)", setting, path)

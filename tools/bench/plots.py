"""PNG plots of the benchmark's experiments (matplotlib, Agg): one figure per experiment, each
titled with what it shows and the setting it ran in, axes with units, a legend for every series.
Every figure is checked before it is saved (check_layout): its text inside the figure, tick
labels apart, legends inside their panels and off their data, two labelled ticks on every log
axis."""
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import ticker  # noqa: E402

GIB = 1024 ** 3
MODE_COLOURS = {"independent": "#999999", "partition": "#1f77b4", "chunk": "#d62728"}


class LayoutError(ValueError):
    """A figure that would be saved unreadable."""


def _inside(inner, outer, slack=1.0):
    return (inner.x0 >= outer.x0 - slack and inner.y0 >= outer.y0 - slack and
            inner.x1 <= outer.x1 + slack and inner.y1 <= outer.y1 + slack)


def _overlap(a, b):
    return a.x0 < b.x1 - 0.5 and b.x0 < a.x1 - 0.5 and a.y0 < b.y1 - 0.5 and b.y0 < a.y1 - 0.5


def check_layout(fig):
    """Raises LayoutError naming what does not fit: text cut off at the figure's edges, tick labels
    drawn over each other, a legend outside its panel or over its data, a log axis with fewer
    than two labels."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    page = fig.bbox
    texts = [t for t in fig.texts if t.get_visible() and t.get_text()]
    if fig._suptitle is not None:
        texts.append(fig._suptitle)
    for ax in fig.axes:
        texts += [ax.title, ax.xaxis.label, ax.yaxis.label]
        for axis, name in [(ax.xaxis, "x"), (ax.yaxis, "y")]:
            low, high = sorted(axis.get_view_interval())
            ticks = [t for t in axis.get_major_ticks() + axis.get_minor_ticks()
                     if t.label1.get_visible() and t.label1.get_text() and low <= t.get_loc() <= high]
            labels = [t.label1 for t in ticks]
            texts += labels
            boxes = sorted((label.get_window_extent(renderer) for label in labels), key=lambda b: (b.x0, b.y0))
            for a, b in zip(boxes, boxes[1:]):
                if _overlap(a, b):
                    raise LayoutError(f"{name} tick labels overlap in the panel '{ax.get_ylabel()}'")
            if axis.get_scale() == "log" and len(labels) < 2:
                raise LayoutError(f"the log {name} axis of the panel '{ax.get_ylabel()}' has {len(labels)} labelled tick(s)")
        legend = ax.get_legend()
        if legend is not None:
            box = legend.get_window_extent(renderer)
            if not _inside(box, ax.bbox):
                raise LayoutError(f"the legend of the panel '{ax.get_ylabel()}' spills outside it")
            # It hides no data: no bar, no marked point (reference lines may pass behind it).
            for patch in ax.patches:
                if patch.get_height() and _overlap(patch.get_window_extent(renderer), box):
                    raise LayoutError(f"the legend of the panel '{ax.get_ylabel()}' covers a bar")
            for line in ax.get_lines():
                if line.get_marker() in (None, "None", ""):
                    continue
                for x, y in line.get_transform().transform(line.get_xydata()):
                    if box.x0 <= x <= box.x1 and box.y0 <= y <= box.y1:
                        raise LayoutError(f"the legend of the panel '{ax.get_ylabel()}' covers a point of "
                                          f"'{line.get_label()}'")
    for text in texts:
        if text.get_visible() and text.get_text() and not _inside(text.get_window_extent(renderer), page):
            raise LayoutError(f"'{text.get_text()[:60]}' is cut off at the figure's edge")


def _finish(fig, title, setting, path):
    # The setting is one long sentence: wrapped to the figure's width at the title's font size.
    width_chars = int(fig.get_figwidth() * 72 / (10 * 0.55))
    fig.suptitle(title + "\n" + "\n".join(textwrap.wrap(setting, width_chars)), fontsize=10)
    fig.tight_layout()
    check_layout(fig)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _log2_axes(axes_and_labels, x_label):
    """A log2 x axis, its label, each axis's y label and its legend."""
    for ax, label in axes_and_labels:
        ax.set_xscale("log", base=2)
        ax.set_xlabel(x_label)
        ax.set_ylabel(label)
        ax.legend(fontsize=7)


def _log_ticks(axis):
    """Labels at 1, 2 and 5 times each power of ten, so an axis spanning less than a decade still
    shows several values, written plainly (0.5, 20, 1000)."""
    axis.set_major_locator(ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(ticker.FuncFormatter(lambda y, _: f"{y:g}"))
    axis.set_minor_formatter(ticker.NullFormatter())


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
    # Group names wrapped to the room each group has (8-point characters are about 4.4 points wide).
    panel_points = ax.get_position().width * ax.figure.get_figwidth() * 72
    room = max(6, int(panel_points / max(1, len(groups)) / 4.6))
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(["\n".join(textwrap.wrap(g, room)) for g in groups], fontsize=8)
    ax.set_ylabel(ylabel)
    if log:
        ax.set_yscale("log")
        _log_ticks(ax.yaxis)
    _legend_on_top(ax, list(series) + ([reference_label] if reference is not None else []), log)


def _legend_on_top(ax, labels, log=False):
    """The legend in the top of the panel, the data's range shrunk to the space below it: one
    column when a label is long, rows of about 9% of the panel each."""
    columns = 1 if max(len(label) for label in labels) > 18 else 2
    share = min(0.6, 0.06 + 0.085 * -(-len(labels) // columns))
    low, high = ax.get_ylim()
    if log:
        ax.set_ylim(low, low * (high / low) ** (1 / (1 - share)))
    else:
        ax.set_ylim(low, low + (high - low) / (1 - share))
    ax.legend(fontsize=7, loc="upper left", ncol=columns)


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
        _legend_on_top(ax, ["chunk mode (GraphSO) relative to partition mode (GraphM)", "partition mode"])
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


def many_jobs(rows, mixed, setting, path):
    """rows: [{series, points: [{jobs, ratio}]}]: a batch of BFS jobs' time over one of them alone;
    mixed: {label: seconds} for the mixed batch."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for r in rows:
        xs = [p["jobs"] for p in r["points"]]
        axes[0].plot(xs, [p["ratio"] for p in r["points"]], marker="o" if "off" not in r["series"] else "x",
                     linestyle="dashed" if "off" in r["series"] else "solid", label=r["series"])
    axes[0].set_xscale("log", base=2)
    axes[0].set_yscale("log")
    _log_ticks(axes[0].yaxis)
    axes[0].set_xlabel("BFS jobs in one batch")
    axes[0].set_ylabel("time / one of them alone")
    _legend_on_top(axes[0], [r["series"] for r in rows], log=True)
    labels = list(mixed)
    _bars(axes[1], labels, ["seconds"], [[mixed[k] for k in labels]], "wall time (s)")
    _finish(fig, "Many jobs: BFS batches against one BFS alone, and a mixed batch of 64", setting, path)


def inmemory(rows, setting, path):
    """rows: [{graph, points: {job: {resident, packed, textbook}}}]: seconds of each job with the graph resident."""
    fig, axes = plt.subplots(1, len(rows), figsize=(4.2 * len(rows), 4.2), squeeze=False)
    for ax, r in zip(axes[0], rows):
        jobs = list(r["points"])
        values = [[r["points"][j][k] or 0.0 for j in jobs] for k in ("resident", "packed", "textbook")]
        _bars(ax, jobs, ["resident (default)", "packed cache", "textbook CSR"], values, "seconds")
        ax.set_title(r["graph"], fontsize=9)
        ax.tick_params(axis="x", labelrotation=30, labelsize=7)
        ax.legend(fontsize=7)
    _finish(fig, "A graph that fits: each job alone, resident, against textbook in-memory kernels", setting, path)


def orders(rows, setting, path):
    """rows: [{graph, variants: {label: bytes / partition natural}}]"""
    labels = list(rows[0]["variants"].keys())
    fig, ax = plt.subplots(figsize=(12, 4.5))
    _bars(ax, [r["graph"] for r in rows], labels, [[r["variants"][v] for r in rows] for v in labels],
          "bytes read / partition mode in natural order", log=True)
    ax.legend(fontsize=7, ncol=3, loc="upper left")
    _finish(fig, "Vertex orders and read granularity (prep --order, run --granularity)", setting, path)


def asynchronous(rows, workload_rows, setting, path):
    """rows: [{graph, variants: {label: ratio to synchronous rounds}}] (W1's settings);
    workload_rows: [{graph, bytes: {workload: ratio}, seconds: {workload: ratio}}] (--async on / off)."""
    labels = list(rows[0]["variants"].keys())
    fig, axes = plt.subplots(3, 1, figsize=(12, 13))
    _bars(axes[0], [r["graph"] for r in rows], labels, [[r["variants"][v] for r in rows] for v in labels],
          "W1: asynchronous / synchronous", reference=[1.0] * len(rows), reference_label="no change")
    workloads = list(workload_rows[0]["bytes"].keys())
    groups = [r["graph"] for r in workload_rows]
    for ax, key, label in [(axes[1], "bytes", "bytes read, --async on / off"), (axes[2], "seconds", "wall time, --async on / off")]:
        _bars(ax, groups, workloads, [[r[key][w] for r in workload_rows] for w in workloads], label,
              reference=[1.0] * len(groups), reference_label="no change")
    _finish(fig, "Asynchronous passes, re-entry and the late join vs --async off: W1's settings, then W1-W8 and k-core",
            setting, path)


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

"""tools/bench/plots.check_layout catches each way a plot was once unreadable, and passes a plot
that is fine: run by tests/e2e/test_bench.cc, prints 'ok' when every case behaves."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools", "bench"))
import plots  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import ticker  # noqa: E402


def refused(name, build, wanted):
    fig = build()
    try:
        plots.check_layout(fig)
    except plots.LayoutError as e:
        assert wanted in str(e), f"{name}: {e}"
        return
    finally:
        plt.close(fig)
    raise AssertionError(f"{name}: not refused")


def long_subtitle():
    fig, ax = plt.subplots(figsize=(6, 3))
    ax.plot([1, 2], [1, 2])
    fig.suptitle("title\n" + "a setting far too long to fit on one line of a six-inch figure " * 3, fontsize=10)
    fig.tight_layout()
    return fig


def crowded_ticks():
    fig, ax = plt.subplots(figsize=(3, 3))
    ax.bar(range(4), [1, 2, 3, 4])
    ax.set_xticks(range(4))
    ax.set_xticklabels(["R-MAT 14 gridgraph", "R-MAT 14 xstream", "road gridgraph", "road xstream"])
    return fig


def legend_outside():
    fig, ax = plt.subplots(figsize=(3, 3))
    ax.plot([1, 2], [1, 2], label="a label much wider than the panel it belongs to, spilling out")
    ax.legend(loc="upper left")
    return fig


def legend_over_bars():
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.bar(range(3), [3, 3, 3], label="bars")
    ax.legend(loc="upper left")
    return fig


def one_log_tick():
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.bar(range(2), [2, 3])
    ax.set_yscale("log")
    ax.set_ylim(0.5, 5)  # one power of ten inside, and no labels between powers
    ax.yaxis.set_minor_formatter(ticker.NullFormatter())
    fig.tight_layout()
    return fig


refused("subtitle", long_subtitle, "cut off at the figure's edge")
refused("ticks", crowded_ticks, "x tick labels overlap")
refused("legend outside", legend_outside, "spills outside it")
refused("legend over data", legend_over_bars, "covers a bar")
refused("log ticks", one_log_tick, "labelled tick(s)")

# The same figures made by plots.py's own helpers pass.
fig, ax = plt.subplots(figsize=(3, 3))
plots._bars(ax, ["R-MAT 14 gridgraph", "R-MAT 14 xstream", "road gridgraph", "road xstream"], ["a", "b"],
            [[1, 2, 3, 4], [2, 3, 4, 5]], "y", log=True)
fig.suptitle("title", fontsize=10)
fig.tight_layout()
plots.check_layout(fig)
plt.close(fig)
print("ok")

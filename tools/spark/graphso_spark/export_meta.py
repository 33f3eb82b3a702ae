"""The graphso.json beside a Parquet export (written by parquet_export.py): what the edge table is."""

import json
import os

FORMAT = "graphso-parquet-edges"
VERSION = 1


class ExportError(Exception):
    pass


def is_url(path):
    return "://" in path


def read(directory, meta_path=None):
    """directory: a local path, or a URL Spark reads (then meta_path is a local copy of its graphso.json)."""
    path = meta_path or os.path.join(directory, "graphso.json")
    try:
        with open(path) as f:
            meta = json.load(f)
    except FileNotFoundError:
        raise ExportError(f"{directory}: no graphso.json; write it with graphso export GRAPH --format parquet -o {directory}")
    except (OSError, ValueError) as e:
        raise ExportError(f"{path}: unreadable ({e})")
    if meta.get("format") != FORMAT or meta.get("version") != VERSION:
        raise ExportError(f"{path}: not a graphso Parquet export of version {VERSION}")
    for key, kind in (("vertices", int), ("edges", int), ("weighted", bool), ("symmetric", bool), ("parts", list)):
        if not isinstance(meta.get(key), kind):
            raise ExportError(f"{path}: {key} is missing or not a {kind.__name__}")
    for part in meta["parts"] if not is_url(directory) else []:
        if not os.path.exists(os.path.join(directory, part)):
            raise ExportError(f"{directory}: {part} is missing (graphso.json names it)")
    return meta


def part_paths(directory, meta):
    return [directory.rstrip("/") + "/" + part for part in meta["parts"]]

"""spark-submit entry point: spark-submit tools/spark/run.py EXPORT_DIR --jobs JOBS.toml --out DIR."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from graphso_spark.batch import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())

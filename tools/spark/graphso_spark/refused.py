"""graphso's algorithms that do not run on Spark, and why: refused before a session starts."""

REFUSED = {
    "kcore": "k-core peels the vertices of least degree first, one core after another, an order with no "
             "cheap DataFrame form; run it with graphso run",
}

"""graphso job files on Apache Spark (README: "Beyond one machine")."""

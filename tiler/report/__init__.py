"""Reports for people: `explain` (the analysis records, shown), the program in
the design note's tiled notation, and readable dumps of any stage's IR."""

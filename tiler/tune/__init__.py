"""Tuning a program's schedule: the sizes and inputs it is measured at
(`workload`: a program's `.toml`, also used by run, bench and fuzz), the
search over plan parameters on the GPU (`autotune`, `tiler tune`), and the
`PROG.tuning` file that keeps what it found (`tuning`), which compile,
explain and bench read.
"""

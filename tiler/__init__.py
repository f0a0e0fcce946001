"""tiler: finds tiling opportunities in GPU kernel programs and writes tiled CUDA."""

__version__ = "0.1.0"

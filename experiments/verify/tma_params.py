"""What a kernel receives of tiler's TMA maps passed by pycuda (twenty-ninth session's debugging); each case in
its own process (an illegal access ends the context)."""
import subprocess
import sys

import numpy as np

CASES = {
    "map,dst": ("const __grid_constant__ m a, unsigned long long* dst", "for (int i = 0; i < 16; ++i) dst[i] = a.bits[i];"),
    "dst,map": ("unsigned long long* dst, const __grid_constant__ m a", "for (int i = 0; i < 16; ++i) dst[i] = a.bits[i];"),
    "int,dst": ("int x, unsigned long long* dst", "dst[0] = x;"),
    "map,int,dst": ("const __grid_constant__ m a, int x, unsigned long long* dst", "dst[0] = x; dst[1] = a.bits[0];"),
}


def case(name: str) -> None:
    import pycuda.autoinit  # noqa: F401
    import pycuda.driver as drv
    from pycuda.compiler import SourceModule

    sig, body = CASES[name]
    src = "struct alignas(64) m { unsigned long long bits[16]; };\n" \
          f'extern "C" __global__ void k({sig}) {{ {body} }}\n'
    f = SourceModule(src, no_extern_c=True, arch="sm_90a").get_function("k")
    dst = drv.mem_alloc(16 * 8)
    drv.memset_d8(dst, 0, 16 * 8)
    bits = np.arange(16, dtype=np.uint64) + 100
    void = np.frombuffer(bits.tobytes(), dtype=np.dtype((np.void, 128)))[0]
    args = {"map,dst": (void, dst), "dst,map": (dst, void), "int,dst": (np.int32(7), dst),
            "map,int,dst": (void, np.int32(7), dst)}[name]
    from pycuda._pvt_struct import pack
    buf = pack("128sP", bytes(memoryview(void)), 5)
    print(name, "pack 128sP:", len(buf), "bytes; P at", buf.find((5).to_bytes(8, "little")))
    f(*args, block=(1, 1, 1), grid=(1, 1))
    host = np.zeros(16, dtype=np.uint64)
    drv.memcpy_dtoh(host, dst)
    print(name, "received", host[:4])


if len(sys.argv) > 1:
    case(sys.argv[1])
else:
    for name in CASES:
        r = subprocess.run([sys.executable, __file__, name], capture_output=True, text=True)
        print((r.stdout + r.stderr.strip().splitlines()[-1:][0] if r.returncode else r.stdout).strip())

"""CUDA facts in one place: type spellings, sizes, literals, math functions, limits."""
from __future__ import annotations

CTYPE = {"f32": "float", "f64": "double", "i32": "int", "i64": "long long", "bool": "bool"}
SIZEOF = {"float": 4, "double": 8, "int": 4, "long long": 8, "bool": 1}
MAX_THREADS_PER_BLOCK = 1024
STATIC_SHARED_LIMIT = 48 * 1024  # beyond it, shared memory is dynamic and the launch raises the limit
SHARED_LIMIT_ANY_GPU = 227 * 1024  # the most a block can have (Hopper, Ampere A100: 227 KiB)
MAX_GRID = {"x": 2**31 - 1, "y": 65535, "z": 65535}

# the same functions in the tiled and the untiled kernel, so they compare exactly
MATH = {
    "float": {"sqrt": "sqrtf", "rsqrt": "rsqrtf", "exp": "expf", "log": "logf", "sin": "sinf", "cos": "cosf",
              "floor": "floorf", "abs": "fabsf", "pow": "powf", "min": "fminf", "max": "fmaxf", "%": "fmodf"},
    "double": {"sqrt": "sqrt", "rsqrt": "rsqrt", "exp": "exp", "log": "log", "sin": "sin", "cos": "cos",
               "floor": "floor", "abs": "fabs", "pow": "pow", "min": "fmin", "max": "fmax", "%": "fmod"},
    "int": {"abs": "abs", "min": "min", "max": "max"},
    "long long": {"abs": "llabs", "min": "min", "max": "max"},
}


def literal(value, ctype: str) -> str:
    if ctype == "bool":
        return "true" if value else "false"
    if ctype in ("float", "double"):
        text = repr(float(value))
        if text in ("inf", "-inf", "nan"):
            return {"inf": "INFINITY", "-inf": "(-INFINITY)", "nan": "NAN"}[text]
        if "e" not in text and "." not in text:
            text += ".0"
        return text + ("f" if ctype == "float" else "")
    if ctype == "long long":
        return f"{int(value)}LL"
    return str(int(value))

"""Kernel-IR statements as CUDA lines: one function per statement type.

The module template lays out a kernel and calls `statements(body, pad)` for
its body. A statement type with no function here is a defect of tiler's
(CompilerBug), never CUDA with the statement left out. Every CUDA spelling
comes from `tiler.target`; expressions are printed by `cexpr.c`.
"""
from __future__ import annotations

from collections.abc import Callable

from .. import kir, target, tma
from ..errors import CompilerBug
from .cexpr import c

MAX_INDENT = 80  # spaces: past 40 levels, statements stay at this depth (the text grows linearly, not as a square)


def statements(body, pad: str) -> str:
    """The statements, each on its own lines, indented by `pad`."""
    return "".join(statement(s, pad) for s in body)


def statement(s, pad: str) -> str:
    write = WRITERS.get(type(s))
    if write is None:
        raise CompilerBug(f"the CUDA renderer cannot write a {type(s).__name__} statement", stage="render")
    return write(s, pad)


def deeper(pad: str) -> str:
    """The indentation of a nested block."""
    return pad + "  " if len(pad) < MAX_INDENT else pad


def cite(span) -> str:
    """Where a statement comes from in the program, as a line comment ("" for none)."""
    return f"  // {span.file.rsplit('/', 1)[-1]}:{span.line}" if span else ""


def _decl(s: kir.Decl, pad: str) -> str:
    init = "" if s.init is None else f" = {c(s.init)}"
    return f"{pad}{'const ' if s.const else ''}{s.ctype} {s.name}{init};{cite(s.span)}\n"


def _array_decl(s: kir.ArrayDecl, pad: str) -> str:
    return f"{pad}{s.ctype} {s.name}[{s.elems}];{cite(s.span)}\n"


def _assign(s: kir.Assign, pad: str) -> str:
    return f"{pad}{s.name} = {c(s.value)};\n"


def _store(s: kir.Store, pad: str) -> str:
    return f"{pad}{s.buffer}[{c(s.index)}] = {c(s.value)};{cite(s.span)}\n"


def _vec_store(s: kir.VecStore, pad: str) -> str:
    vector = target.vector_type(s.ctype, s.width)
    values = ", ".join(c(v) for v in s.values)
    return (f"{pad}*reinterpret_cast<{vector}*>(&{s.buffer}[{c(s.index)}]) = "
            f"{target.make_vector(s.ctype, s.width)}({values});{cite(s.span)}\n")


def _for(s: kir.For, pad: str) -> str:
    unroll = "" if s.unroll is None else f"{pad}{target.UNROLL}\n" if s.unroll == kir.FULL else \
        f"{pad}{target.UNROLL} {s.unroll}\n"
    comment = f"  // {s.note}" if s.note else cite(s.span)
    head = f"{pad}for (int {s.var} = {c(s.start)}; {s.var} < {c(s.stop)}; {s.var} += {c(s.step)}) {{{comment}\n"
    return unroll + head + statements(s.body, deeper(pad)) + f"{pad}}}\n"


def _if(s: kir.If, pad: str) -> str:
    out = f"{pad}if ({c(s.cond)}) {{{cite(s.span)}\n" + statements(s.then, deeper(pad))
    if s.else_:
        out += f"{pad}}} else {{\n" + statements(s.else_, deeper(pad))
    return out + f"{pad}}}\n"


def _barrier(s: kir.Barrier, pad: str) -> str:
    fence = f"{pad}{target.PROXY_FENCE};  // the shared writes before it, to the warp groups' instructions\n" \
        if s.proxy else ""
    return f"{fence}{pad}{target.BARRIER};  // {s.why}\n"


def _comment(s: kir.Comment, pad: str) -> str:
    return f"{pad}// {s.text}{cite(s.span)}\n"


def _async_copy(s: kir.AsyncCopy, pad: str) -> str:
    valid = "true" if s.valid is None else c(s.valid)
    return (f"{pad}{target.ASYNC_COPY}<{s.bytes}>(&{s.shared}[{c(s.dst_index)}], &{s.src}[{c(s.src_index)}], "
            f"{valid});\n")


def _async_commit(s: kir.AsyncCommit, pad: str) -> str:
    return f"{pad}{target.ASYNC_COMMIT}();\n"


def _async_wait(s: kir.AsyncWait, pad: str) -> str:
    return f"{pad}{target.ASYNC_WAIT}<{s.pending}>();\n"


def _matrix_zero(s: kir.MatrixZero, pad: str) -> str:
    sh = s.shape
    if sh.warp_group:
        tile = f"{target.WGMMA_TILE}<{sh.inputs}, {sh.n}, {sh.fragments[0]}, {sh.fragments[1]}>"
        whose = "the warp group's accumulator fragments, this thread's share"
    else:
        tile = f"{target.MATRIX_TILE}<{sh.inputs}, {sh.accumulator}, {sh.m}, {sh.n}, {sh.k}, {sh.fragments[0]}, " \
               f"{sh.fragments[1]}>"
        whose = "the warp's accumulator fragments"
    return f"{pad}{tile} {s.name};  // {whose}\n{pad}{target.MATRIX_ZERO}({s.name});\n"


def _wgmma_operand(sh: kir.MatrixShape, op: kir.MatrixOperand, a: bool) -> str:
    """A swizzled operand's template arguments: whether its sides run along
    its lines (wgmma's transposed operand), elements to its next fragment
    and its next instruction, and its descriptor's leading byte offset (from
    one block of lines across to the next; unused where the lines run along
    the chunk)."""
    nxt, step = kir.fragment_steps(sh, op, a)
    transposed = not kir.operand_lines(op, a)
    lead = op.block * target.SIZEOF[sh.inputs] if transposed else target.WGMMA_UNIT_BYTES
    return f"{int(transposed)}, {nxt}, {step}, {lead}"


def _matrix_chunk(s: kir.MatrixChunk, pad: str) -> str:
    sh, a, b = s.shape, s.a, s.b
    if sh.warp_group and a.registers:  # (A's elements from the thread's own first: along its rows, positions)
        along_row, along_k = kir.operand_strides(a, True)
        a_next, a_step = kir.fragment_steps(sh, a, True)
        args = f"{s.steps}, {along_row}, {along_k}, {a_next}, {a_step}, {_wgmma_operand(sh, b, False)}"
        return f"{pad}{target.WGMMA_CHUNK_REGISTERS}<{args}>({s.name}, &{c(a.first)}, &{c(b.first)});  // the " \
               f"chunk on the warp groups' matrix instructions, A from registers\n"
    if sh.warp_group:
        args = f"{s.steps}, {_wgmma_operand(sh, a, True)}, {_wgmma_operand(sh, b, False)}" + \
            (f", {s.pending}" if s.pending else "")
        left = ", left running while the next chunk is waited for" if s.pending else ""
        return f"{pad}{target.WGMMA_CHUNK}<{args}>({s.name}, &{c(a.first)}, &{c(b.first)});  // the chunk on the " \
               f"warp groups' matrix instructions{left}\n"
    # where fragment i (a warp's next M rows, or N columns) and instruction s (the next K positions) start
    (a_next, a_step), (b_next, b_step) = kir.fragment_steps(sh, a, True), kir.fragment_steps(sh, b, False)
    args = (f"{s.steps}, {target.MATRIX_LAYOUT[a.row_major]}, {target.MATRIX_LAYOUT[b.row_major]}, {a.ld}, {b.ld}, "
            f"{a_next}, {a_step}, {b_next}, {b_step}")
    return f"{pad}{target.MATRIX_CHUNK}<{args}>({s.name}, &{c(a.first)}, &{c(b.first)});  // the chunk on the " \
           f"matrix units\n"


def _matrix_store(s: kir.MatrixStore, pad: str) -> str:
    store = target.WGMMA_STORE if s.shape.warp_group else target.MATRIX_STORE
    flag = ", 1" if s.shape.transposed else ""  # (the transposed product's accumulators: rows stored as columns)
    return f"{pad}{store}<{s.ld}{flag}>({s.name}, &{s.buffer}[{c(s.index)}]);\n"


def _matrix_wait(s: kir.MatrixWait, pad: str) -> str:
    return f"{pad}{tma.MATRIX_WAIT}({s.name});  // every chunk's instructions done\n"


def _tma_barriers(s: kir.TmaBarriers, pad: str) -> str:
    if not s.consumers:  # (the block's barrier frees a buffer: no `empty` mbarriers)
        return (f"{pad}{tma.BARRIER_ARRAYS} {tma.FULL}[{s.stages}];  // each buffer's: its copies landed\n"
                f"{pad}{tma.BARRIERS}<{s.stages}>({tma.FULL}, nullptr, 0);\n")
    return (f"{pad}{tma.BARRIER_ARRAYS} {tma.FULL}[{s.stages}], {tma.EMPTY}[{s.stages}];"
            f"  // each buffer's: its copies landed, its readers done\n"
            f"{pad}{tma.BARRIERS}<{s.stages}>({tma.FULL}, {tma.EMPTY}, {s.consumers});\n")


def _tma_issue(s: kir.TmaIssue, pad: str) -> str:
    inner = deeper(pad)
    stage = _at(s.stage)
    lines = [f"{pad}if ({tma.ISSUER}) {{  // one thread copies the chunk's tiles into buffer {stage}\n"]
    if s.freed is not None:
        lines.append(f"{inner}{tma.WAIT}(&{tma.EMPTY}[{stage}], {c(s.freed)});  // its last chunk's readers are done\n")
    lines.append(f"{inner}{tma.ISSUE}(&{tma.FULL}[{stage}], {s.bytes});\n")
    for x in s.copies:
        coords = ", ".join(c(v) for v in x.coords)
        lines.append(f"{inner}{tma.COPY}(&{x.shared}[{_at(x.offset)}], &{x.map}, {coords}, &{tma.FULL}[{stage}]);\n")
    return "".join(lines) + f"{pad}}}\n"


def _tma_wait(s: kir.TmaWait, pad: str) -> str:
    stage = _at(s.stage)
    return f"{pad}{tma.WAIT}(&{tma.FULL}[{stage}], {c(s.parity)});  // buffer {stage}'s tiles have landed\n"


def _at(x) -> str:
    """A buffer's index or an element offset: a number, or an expression (a ring's tile picked at run time)."""
    return str(x) if isinstance(x, int) else c(x)


def _tma_release(s: kir.TmaRelease, pad: str) -> str:
    return f"{pad}{tma.RELEASE}(&{tma.EMPTY}[{s.stage}]);  // this warp group is done with buffer {s.stage}\n"


def _tma_done(s: kir.TmaDone, pad: str) -> str:
    done = f"{pad}// every chunk copied was waited for: {', '.join(s.tiles)} hold no copy in flight\n"
    if not s.invalidate:
        return done
    return done + f"{pad}{tma.INVALIDATE}<{s.invalidate}>({tma.FULL});  // initialised again by the next tile's\n"


WRITERS: dict[type, Callable[..., str]] = {
    kir.Decl: _decl, kir.ArrayDecl: _array_decl, kir.Assign: _assign, kir.Store: _store, kir.VecStore: _vec_store,
    kir.For: _for, kir.If: _if, kir.Barrier: _barrier, kir.Comment: _comment, kir.AsyncCopy: _async_copy,
    kir.AsyncCommit: _async_commit, kir.AsyncWait: _async_wait, kir.MatrixZero: _matrix_zero,
    kir.MatrixChunk: _matrix_chunk, kir.MatrixStore: _matrix_store, kir.MatrixWait: _matrix_wait,
    kir.TmaBarriers: _tma_barriers, kir.TmaIssue: _tma_issue, kir.TmaWait: _tma_wait, kir.TmaRelease: _tma_release,
    kir.TmaDone: _tma_done,
}

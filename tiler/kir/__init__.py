"""The kernel IR (stage `lower` gives it, `render` prints it): imperative,
C-level, frozen, and complete: the CUDA says nothing the IR does not.

Expressions: `Const`, `Ref` (a local or parameter), `ThreadIdx` and
`BlockIdx` (per axis), `Bin`, `Un`, `Call`, `Cast`, `Select`, `Load` (from
global or shared memory, or from a per-thread register array), `VecLoad` (one
64- or 128-bit load of 2 or 4 elements) and `Lane` (one element of a vector).

Statements: `Decl`, `Assign`, `Store`, `VecStore`, `ArrayDecl` (a per-thread
array: a register tile), `For` (with an unroll mark), `If`, `Barrier`,
`Comment`, and the asynchronous global-to-shared copies `AsyncCopy`,
`AsyncCommit`, `AsyncWait`; the matrix units' `MatrixZero`, `MatrixChunk`,
`MatrixWait` and `MatrixStore` (a warp's fragments of a product tile); a
TMA pipeline's `TmaBarriers`, `TmaIssue` (of `TmaCopy` boxes), `TmaWait`,
`TmaRelease` and `TmaDone`; `PointMap` (statements for each point of a
thread's micro-tile) lives only between register tiling's rewrites.

A `Kernel` carries its parameters, shared allocations, block and grid; a
`Module` holds one or more kernels of the same program, each a `Version`
with the launch condition that selects it. Statements may carry a source
span, so the CUDA cites its origin.

The nodes are defined in `nodes`, kernels, versions and modules in
`kernel`, and the walks over trees in `walkers`; every name is used from
here, as `kir.X`.
"""
from __future__ import annotations

from .kernel import SCRATCH, TENSOR_MAP, Kernel, Module, Param, Scratch, SharedAlloc, Version, stage_name
from .nodes import (
    BODIES,
    CLAMP,
    FULL,
    GLOBAL,
    LOCAL,
    MINMAX,
    SHARED,
    ArrayDecl,
    Assign,
    AsyncCommit,
    AsyncCopy,
    AsyncWait,
    Barrier,
    Bin,
    BlockIdx,
    Call,
    Cast,
    Comment,
    Const,
    Decl,
    Expr,
    For,
    If,
    Lane,
    Load,
    MatrixChunk,
    MatrixOperand,
    MatrixShape,
    MatrixStore,
    MatrixWait,
    MatrixZero,
    PointMap,
    Ref,
    Select,
    Stmt,
    Store,
    ThreadIdx,
    TmaBarriers,
    TmaCopy,
    TmaDone,
    TmaIssue,
    TmaRelease,
    TmaWait,
    Un,
    VecLoad,
    VecStore,
    fragment_steps,
    lane,
    operand_lines,
    operand_strides,
)
from .walkers import as_loops, blocks_mapped, c_div, evaluate, has_barrier, statements, walk

__all__ = [
    "Const", "Ref", "ThreadIdx", "BlockIdx", "Bin", "Un", "CLAMP", "MINMAX", "Call", "Cast", "Select", "GLOBAL",
    "SHARED", "LOCAL", "Load", "VecLoad", "Lane", "Expr", "Decl", "ArrayDecl", "Assign", "Store", "VecStore", "FULL",
    "For", "If", "Barrier", "Comment", "AsyncCopy", "AsyncCommit", "AsyncWait", "Stmt", "BODIES", "Param", "SCRATCH",
    "Scratch", "SharedAlloc", "Kernel", "stage_name", "Version", "Module", "evaluate", "c_div", "walk", "statements", "has_barrier",
    "blocks_mapped", "as_loops", "PointMap", "lane", "MatrixShape", "MatrixOperand", "MatrixZero", "MatrixChunk",
    "MatrixStore", "fragment_steps", "operand_lines", "operand_strides", "MatrixWait", "TmaCopy", "TmaBarriers",
    "TmaIssue", "TmaWait", "TmaRelease", "TmaDone", "TENSOR_MAP",
]

"""The kernel IR's newer nodes (register arrays, unrolled loops, vector
accesses, asynchronous copies, modules of versions): rendered, verified,
compiled by nvcc, and the verifier catching their misuse."""
from __future__ import annotations

import dataclasses

import pytest

from tiler import kir
from tiler.kir.verify import Fault, verify
from tiler.render import launch, render
from tiler.runtime.nvcc import nvcc_path, ptxas_reports


def c(v):
    return kir.Const(v, "int")


def ref(name):
    return kir.Ref(name)


def add(a, b):
    return kir.Bin("+", a, b)


def mul(a, b):
    return kir.Bin("*", a, b)


PARAMS = (kir.Param("x", "float", "input", "x", ("n",)), kir.Param("out0", "float", "output", "out0", ("n",)),
          kir.Param("n", "int", "size", "n"))


def staged_sum(body_edit=None, divisible=(("n", 4),)) -> kir.Kernel:
    """Each of 64 threads sums 4 x 64 elements: a float4 load per step into a
    4-element register array, the 64-element chunk copied to shared memory
    asynchronously, 16 bytes a thread."""
    tid = kir.ThreadIdx("x")
    row = mul(kir.BlockIdx("x"), ref("n"))  # a multiple of 4 only if n is
    chunk = (
        kir.AsyncCopy("tile", mul(tid, c(4)), "x", add(row, add(ref("kk"), mul(tid, c(4)))), "float", 4),
        kir.AsyncCommit(),
        kir.AsyncWait(0),
        kir.Barrier("the tile is written"),
        kir.For("j", c(0), c(4), c(1), (
            kir.Store("acc", ref("j"), kir.Bin("+", kir.Load("acc", ref("j"), kir.LOCAL),
                                               kir.Load("tile", add(mul(tid, c(4)), ref("j")), kir.SHARED)),
                      kir.LOCAL),), unroll=kir.FULL),
        kir.Decl("v", "float4", kir.VecLoad("x", add(row, add(ref("kk"), mul(tid, c(4)))), 4, "float"), True),
        kir.For("j2", c(0), c(4), c(1), (
            kir.Store("acc", ref("j2"), kir.Bin("+", kir.Load("acc", ref("j2"), kir.LOCAL),
                                                kir.Lane(ref("v"), 0)), kir.LOCAL),), unroll=kir.FULL),
        kir.Barrier("the tile is read"),
    )
    if body_edit:
        chunk = body_edit(chunk)
    body = (
        kir.ArrayDecl("acc", "float", 4),
        kir.For("i", c(0), c(4), c(1), (kir.Store("acc", ref("i"), kir.Const(0.0, "float"), kir.LOCAL),),
                unroll=kir.FULL),
        kir.For("kk", c(0), kir.Bin("-", ref("n"), c(255)), c(256), chunk),
        kir.Store("out0", tid, add(add(kir.Load("acc", c(0), kir.LOCAL), kir.Load("acc", c(1), kir.LOCAL)),
                                   add(kir.Load("acc", c(2), kir.LOCAL), kir.Load("acc", c(3), kir.LOCAL)))),
    )
    return kir.Kernel("tiler_test_sum", PARAMS, (kir.SharedAlloc("tile", "float", 256),), body, (64, 1, 1),
                      (("n", 64), None, None), True, "test", ("a hand-built kernel",), divisible=divisible)


def test_the_new_nodes_render_and_verify():
    k = staged_sum()
    assert verify(k) == []
    cuda = render(kir.Module("test", (kir.Version(k),)))
    assert "float acc[4];" in cuda and "#pragma unroll\n" in cuda
    assert "*reinterpret_cast<const float4*>(&x[blockIdx.x * n + (kk + threadIdx.x * 4)])" in cuda and "v.x" in cuda
    assert "tiler_cp_async<16>(&tile[threadIdx.x * 4], &x[blockIdx.x * n + (kk + threadIdx.x * 4)], true);" in cuda
    assert "tiler_cp_async_commit();" in cuda and "tiler_cp_async_wait<0>();" in cuda


@pytest.mark.skipif(nvcc_path() is None, reason="nvcc is not on PATH")
def test_the_new_nodes_compile_to_registers_without_spills():
    k = staged_sum()
    reports = ptxas_reports(render(kir.Module("test", (kir.Version(k),))))
    r = reports["tiler_test_sum"]
    assert r.ok and r.spill_stores == 0 and r.shared_bytes == 1024, r.log
    assert "bytes stack frame" not in r.log or "0 bytes stack frame" in r.log  # acc lives in registers


def test_a_register_array_indexed_at_run_time_is_caught():
    def runtime_index(chunk):
        return tuple(dataclasses.replace(s, unroll=None) if isinstance(s, kir.For) else s for s in chunk)

    problems = verify(staged_sum(runtime_index))
    assert any("per-thread array acc is indexed at run time" in str(p) and p.fault is Fault.LOCAL_ARRAY
               for p in problems)


def test_a_register_array_indexed_past_its_elements_is_caught():
    def one_too_far(chunk):
        return tuple(dataclasses.replace(s, stop=c(5)) if isinstance(s, kir.For) and s.var == "j" else s
                     for s in chunk)

    problems = verify(staged_sum(one_too_far))
    assert [str(p) for p in problems if p.fault is Fault.PAST_ARRAY] == \
        ["per-thread array acc of 4 elements is indexed from 0 to 4"]  # (its load and its store: one problem)
    assert not [p for p in verify(staged_sum()) if p.fault is Fault.PAST_ARRAY]


def test_a_vector_access_must_be_provably_aligned():
    problems = verify(staged_sum(divisible=()))  # n % 4 unknown: a row's start need not be a multiple of 4
    assert any("not provably a multiple of 4" in str(p) and p.fault is Fault.UNALIGNED for p in problems)
    assert verify(staged_sum(divisible=(("n", 8),))) == []


def test_only_an_unaligned_vector_access_is_an_expected_problem():
    """lower answers an unaligned vector access with the scalar kernel; any
    other problem is a compiler bug naming the kernel (a barrier defect must
    never show up as a slower kernel)."""
    from tiler.errors import CompilerBug
    from tiler.kir.verify import check

    unaligned = staged_sum(divisible=())
    assert check(unaligned, frozenset({Fault.UNALIGNED})) is False
    with pytest.raises(CompilerBug, match="failed verification"):
        check(unaligned)
    no_wait = staged_sum(lambda chunk: tuple(s for s in chunk if not isinstance(s, kir.AsyncWait)))
    with pytest.raises(CompilerBug, match=r"kernel \w+ failed verification: .*may be in flight"):
        check(no_wait, frozenset({Fault.UNALIGNED}))


def test_reading_a_tile_before_its_asynchronous_copy_is_waited_for_is_caught():
    def no_wait(chunk):
        return tuple(s for s in chunk if not isinstance(s, kir.AsyncWait))

    def no_commit(chunk):
        return tuple(s for s in chunk if not isinstance(s, kir.AsyncCommit))

    assert any("may be in flight" in str(p) for p in verify(staged_sum(no_wait)))
    assert any("not yet committed" in str(p) for p in verify(staged_sum(no_commit)))


def test_waiting_for_all_but_one_group_keeps_the_newest_in_flight():
    def pending_one(chunk):
        return tuple(kir.AsyncWait(1) if isinstance(s, kir.AsyncWait) else s for s in chunk)

    assert any("may be in flight" in str(p) for p in verify(staged_sum(pending_one)))


def test_a_module_selects_its_version_by_the_launch_sizes():
    tiled = staged_sum()
    fallback = dataclasses.replace(tiled, name="tiler_test_sum_small", tiled=False)
    cond = kir.Bin(">=", kir.Ref("n"), c(512))
    m = kir.Module("test", (kir.Version(tiled, cond, "large"), kir.Version(fallback, None, "small")))
    assert m.select({"n": 4096}) is tiled and m.select({"n": 100}) is fallback
    described = launch(m)
    assert [v["condition"] for v in described["versions"]] == ["n >= 512", None]
    assert described["versions"][0]["grid_formula"] == ["ceil(n / 64)", "1", "1"]
    assert tiled.grid_dims({"n": 4097}) == (65, 1, 1)
    cuda = render(m)
    assert "tiler_test_sum: when n >= 512 (large)" in cuda and "tiler_test_sum_small: otherwise (small)" in cuda


def test_prune_drops_what_reaches_no_store_to_global_memory():
    """A carried value that only feeds itself, a shared array written and
    never read (with its allocation and the barrier after its store), and
    the loop left empty all go; what the output reads, and the shared array
    it reads through, stay."""
    from tiler.transform.prune import prune

    tid = kir.ThreadIdx("x")
    body = (
        kir.Decl("dead", "float", kir.Const(0.0, "float"), const=False),
        kir.Decl("kept", "float", kir.Const(0.0, "float"), const=False),
        kir.For("i", c(0), ref("n"), c(1), (
            kir.Assign("dead", add(ref("dead"), kir.Load("x", ref("i")))),
            kir.Assign("kept", add(ref("kept"), c(1))),
        )),
        kir.Store("unread", tid, ref("dead"), kir.SHARED),
        kir.Barrier("the unread array is written"),
        kir.Store("tile", tid, ref("kept"), kir.SHARED),
        kir.Barrier("the tile is written"),
        kir.Store("out0", tid, kir.Load("tile", c(0), kir.SHARED)),
    )
    k = kir.Kernel("tiler_test_prune", PARAMS, (kir.SharedAlloc("tile", "float", 64),
                                               kir.SharedAlloc("unread", "float", 64)), body, (64, 1, 1),
                   (("n", 64), None, None), True, "test", ("a hand-built kernel",))
    pruned = prune(k)
    assert [a.name for a in pruned.shared] == ["tile"]
    assert pruned.body == (
        kir.Decl("kept", "float", kir.Const(0.0, "float"), const=False),
        kir.For("i", c(0), ref("n"), c(1), (kir.Assign("kept", add(ref("kept"), c(1))),)),
        kir.Store("tile", tid, ref("kept"), kir.SHARED),
        kir.Barrier("the tile is written"),
        kir.Store("out0", tid, kir.Load("tile", c(0), kir.SHARED)),
    )
    assert prune(pruned) == pruned  # nothing more to drop


def test_prune_knows_a_statement_by_its_place():
    """The same node in two loops counts in each (a statement known by its
    identity and one parent kept only the last loop, and lost the output
    written over `n`), and an assignment to a loop's own variable counts
    with the loop."""
    from tiler.transform.prune import prune

    tid = kir.ThreadIdx("x")
    store = kir.Store("out0", tid, kir.Load("x", ref("i")))
    body = (kir.For("i", c(0), ref("n"), c(1), (store,)),
            kir.For("i", c(0), c(4), c(1), (store, kir.Assign("i", add(ref("i"), c(1))))))
    k = kir.Kernel("tiler_test_places", PARAMS, (), body, (64, 1, 1), (("n", 64), None, None), True, "test",
                   ("a hand-built kernel",))
    assert prune(k).body == body


# ---- allocations that share their bytes (SharedAlloc.over) ------------------------------------------------------


def shared_over(after_sum) -> kir.Kernel:
    """staged_sum whose `stage` (64 floats) takes the bytes of its `tile`
    after the loop: `after_sum` are the statements between the loop and the
    stage's write, which a thread then reads back at another's index."""
    k = staged_sum()
    tid = kir.ThreadIdx("x")
    stage = (kir.Store("stage", tid, kir.Load("acc", c(0), kir.LOCAL), kir.SHARED),
             kir.Barrier("the stage is written"),
             kir.Store("out0", tid, kir.Load("stage", kir.Bin("%", add(tid, c(1)), c(64)), kir.SHARED)))
    body = k.body[:3] + tuple(after_sum) + stage
    shared = k.shared + (kir.SharedAlloc("stage", "float", 64, over=("tile",)),)
    return dataclasses.replace(k, body=body, shared=shared)


def test_an_allocation_over_another_starts_where_it_does_and_the_buffer_is_the_longer():
    k = shared_over(())
    assert [(a.name, offset) for a, offset in k.shared_offsets()] == [("tile", 0), ("stage", 0)]
    assert k.shared_bytes == 1024 and k.dynamic_shared  # (static arrays cannot share bytes)
    longer = dataclasses.replace(k, shared=(kir.SharedAlloc("other", "float", 8),
                                            kir.SharedAlloc("tile", "float", 256),
                                            kir.SharedAlloc("stage", "float", 512, over=("tile",))))
    assert dict((a.name, o) for a, o in longer.shared_offsets()) == {"tile": 0, "stage": 0, "other": 2048}
    assert longer.shared_bytes == 2048 + 32


def test_a_write_over_bytes_another_allocation_was_read_from_needs_a_barrier_first():
    """The loop ends with a barrier after its last read of `tile`, so the
    stage may take its bytes; a read of `tile` after that barrier (and no
    barrier before the stage's write) is caught, as is a read of the stage
    while a copy into `tile` is in flight."""
    assert verify(shared_over(())) == []
    late = kir.Store("out0", c(0), kir.Load("tile", c(5), kir.SHARED))
    problems = verify(shared_over((late,)))
    assert any(p.fault is Fault.OVERWRITE and "through stage" in str(p) for p in problems), problems
    assert verify(shared_over((late, kir.Barrier("the tile is read")))) == []
    copy = (kir.AsyncCopy("tile", c(0), "x", c(0), "float", 1), kir.AsyncCommit())
    k = shared_over(copy)
    k = dataclasses.replace(k, body=k.body[:-3] + (kir.Barrier("b"),) + k.body[-1:])  # the stage's write gone
    assert any(p.fault is Fault.STALE_READ and "stage" in str(p) for p in verify(k))


def test_waiting_for_every_copy_completes_each_whichever_group_a_merge_kept():
    """Two paths commit one group each, into different buffers; the merge
    keeps one path's groups, and a wait for every copy still completes
    both buffers' copies."""
    both = (kir.If(kir.Bin("<", kir.ThreadIdx("x"), c(0)),
                   (kir.AsyncCopy("tile", c(0), "x", c(0), "float", 1), kir.AsyncCommit()),
                   (kir.AsyncCopy("other", c(0), "x", c(0), "float", 1), kir.AsyncCommit())),
            kir.AsyncWait(0), kir.Barrier("the copies are done"),
            kir.Store("out0", c(0), add(kir.Load("tile", c(0), kir.SHARED), kir.Load("other", c(0), kir.SHARED))))
    k = dataclasses.replace(staged_sum(), body=both,
                            shared=(kir.SharedAlloc("tile", "float", 256), kir.SharedAlloc("other", "float", 4)))
    assert [p for p in verify(k) if p.fault is not Fault.DIVERGENT_BARRIER] == []


def test_index_ranges_over_the_block_and_constant_loops():
    """kir/bounds.py, which bounds the matrix units' fragments: threadIdx,
    constant loops, min/max and selects; nothing past 32-bit integers or
    through a narrowing cast."""
    from tiler.kir import Bin, Call, Cast, Const, For, Ref, Select, ThreadIdx
    from tiler.kir.bounds import value_range

    def c(v):
        return Const(v, "int")

    t, block = ThreadIdx("x"), (256, 2, 1)
    loops = {"i": For("i", c(0), c(4), c(1), ())}
    assert value_range(Bin("+", Bin("*", ThreadIdx("y"), c(100)), Ref("i")), block, loops, {}) == (0, 103)
    assert value_range(Bin("%", Bin("/", t, c(32)), c(4)), block, {}, {}) == (0, 3)
    assert value_range(Call("min", (Bin("*", t, c(4)), c(100))), block, {}, {}) == (0, 100)
    assert value_range(Select(Ref("p"), t, c(-3)), block, {}, {}) == (-3, 255)
    assert value_range(Bin("*", t, c(1 << 30)), block, {}, {}) is None
    assert value_range(Cast("short", t), block, {}, {}) is None
    assert value_range(Ref("n"), block, {}, {}) is None  # a size: not known at compile time

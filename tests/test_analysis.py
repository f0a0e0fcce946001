"""The analysis: variance by dataflow and tiling decisions with reasons.

Programs under tests/programs/analysis carry their expectations:
  -- block: 1,0                        dims the block spans, threadIdx.x first
  -- stream: L:C tiled KIND | untiled  the stream starting at L:C
  -- input: L:C NAME invariant=0,1 shared|global
  -- reason: L:C NAME text            a part of that input's reason
  -- transpose: NAME yes|no text       whether the launch transposes that array; a part of the reason
  -- join: L:C yes|no text             whether the loop around that stream joins its rows; a part of the reason
  -- rows: N                           map levels run by a warp or block that share their reductions
  -- columns: yes|no                   those rows side by side, a block's 32 along x and each row's threads along y
  -- reduction: L:C split OPS | not text   the loop at L:C: a reduction split by OPS, or a part of why not
  -- fission: yes | no text             the fold over rows fissioned, or a part of why not
"""
from __future__ import annotations

import re

import pytest
from conftest import BENCHMARKS, PROGRAMS, gathered_row, header, header_options

from tiler import target
from tiler.analyse import DEFAULT, Context, Options
from tiler.analyse.blocks import stream_kind
from tiler.analyse.registers import expected_registers
from tiler.analyse.schedule import Coalesce, Coalescing, Copy, CopyAxis, Layout, Reads, Refusal, describe_copy
from tiler.analyse.transposes import MIN_ROW, ROWS_PER_SM
from tiler.errors import PlainError
from tiler.pipeline import run_to
from tiler.versions import FissionPlan, versions_of

ANALYSIS = sorted((PROGRAMS / "analysis").glob("*.fut"))


def analysed(path, options=DEFAULT, device=target.DEFAULT_DEVICE):
    return run_to("analyse", path.read_text(), path.name, options, device)


def streams_by_position(a):
    return {f"{s.site.span.line}:{s.site.span.col}": s for s in a.streams}


@pytest.mark.parametrize("path", ANALYSIS, ids=lambda p: p.stem)
def test_program_expectations(path):
    want, a = header(path), analysed(path, header_options(path))
    assert want.get("stream") or want.get("transpose") or want.get("reduction") or want.get("fission"), \
        f"{path.name} states no expectation"
    for line in want.get("fission", []):
        verdict, *text = line.split(maxsplit=1)
        fission = versions_of(a, path.name).fission
        assert (verdict == "yes") == isinstance(fission, FissionPlan), getattr(fission, "reason", None)
        assert not text or text[0] in fission.reason, fission.reason
    streams = streams_by_position(a)
    for line in want.get("block", []):
        assert list(a.block.spans) == [int(d) for d in line.split(",")]
    for line in want.get("stream", []):
        pos, state, *kind = line.split(maxsplit=2)
        s = streams[pos]
        assert s.tiled == (state == "tiled"), (pos, s.reason)
        if kind:
            assert stream_kind(s, a.block) == kind[0]
    for line in want.get("input", []):
        pos, name, inv, where = re.match(r"(\S+) (\S+) invariant=(\S*) (shared|global)", line).groups()
        p = next(i for i in streams[pos].inputs if i.name == name)
        assert sorted(p.invariant_to) == [int(d) for d in inv.split(",") if d], (name, p.invariant_to)
        assert p.staged == (where == "shared"), (name, p.reason)
    for line in want.get("reason", []):
        pos, name, text = line.split(maxsplit=2)
        p = next(i for i in streams[pos].inputs if i.name == name)
        assert text in p.reason, p.reason
    for line in want.get("transpose", []):  # NAME yes|no, then words of the reason (a launch condition)
        name, verdict, *text = line.split(maxsplit=2)
        t = next(t for t in a.schedule.transposes if t.array == name)
        assert t.chosen == (verdict == "yes"), t.reason
        assert not text or text[0] in t.reason, t.reason
    for line in want.get("rows", []):
        assert a.plan.split.rows == int(line)
    for line in want.get("columns", []):
        assert a.plan.split.columns == (line == "yes")
    loops = {f"{r.span.line}:{r.span.col}": r for r in a.plan.split.reductions + a.plan.split.others} \
        if a.plan.split else {}
    for line in want.get("reduction", []):
        pos, verdict, text = line.split(maxsplit=2)
        r = loops[pos]
        if verdict == "split":
            assert r.split and ",".join(op.value for op in r.operators) == text, r
        else:
            assert not getattr(r, "split", False) and text in r.reason, r
    for line in want.get("join", []):
        pos, verdict, text = line.split(maxsplit=2)
        join = streams[pos].join
        assert join is not None and join.joined == (verdict == "yes") and text in join.reason, join


def test_analysis_programs_cover_the_issue():
    names = {p.stem for p in ANALYSIS}
    assert {"matvec", "aat", "interchange", "coulomb", "own_row", "branch", "loop_bound", "indirect2",
            "helper", "nested"} <= names


def plan_of(name, options=DEFAULT, device=target.DEFAULT_DEVICE):
    return analysed(BENCHMARKS / f"{name}.fut", options, device)


def test_nbody_is_1d_with_bodies_shared():
    a = plan_of("nbody", Options(no_register_tile=True))
    (s,) = a.streams
    assert a.block.spans == (0,) and a.block.extents == (256,)
    assert s.tiled and stream_kind(s, a.block) == "1-D" and s.chunk == 256 and s.shared_bytes == 1024
    assert s.inputs[0].staged and s.inputs[0].invariant_to == {0}


def test_mm_is_2d_with_a_coalesced_transposed_b():
    a = plan_of("mm", Options(no_register_tile=True))
    (s,) = a.streams
    assert a.block.spans == (1, 0) and a.block.extents == (32, 32)
    assert stream_kind(s, a.block) == "2-D" and s.chunk == 32 and s.shared_bytes == 8192
    ac, bc = s.inputs
    a_st, b_st = ac.staging, bc.staging
    assert ac.invariant_to == {1} and a_st.layout is Layout.ROW_MAJOR and a_st.reads is Reads.BROADCAST
    assert bc.invariant_to == {0} and b_st.layout is Layout.TRANSPOSED and b_st.reads is Reads.UNIT_STRIDE
    assert a_st.copy == Copy(CopyAxis.CHUNK, Coalescing.COALESCED)
    assert b_st.copy == Copy(CopyAxis.ROWS, Coalescing.COALESCED, unit_dim=1)
    assert "through the transpose" in describe_copy(b_st.copy)


def test_mm_with_b_given_transposed_pads_its_tile(tmp_path):
    path = tmp_path / "mm_bt.fut"
    path.write_text((BENCHMARKS / "mm.fut").read_text().replace("let B = transpose(B0) in", "")
                    .replace("[[f32, q], n] B0", "[[f32, n], q] B"))
    (s,) = analysed(path, Options(no_register_tile=True)).streams
    b = s.inputs[1]
    assert b.staged and b.staging.copy == Copy(CopyAxis.CHUNK, Coalescing.COALESCED)
    # read one row per thread along x, but copied along the chunk: transposed and padded
    st = b.staging
    assert st.layout is Layout.TRANSPOSED and st.padding == 1 and st.bytes == 32 * 33 * 4 and st.pitch == 33


def test_mm_is_register_tiled_8_by_8():
    a = plan_of("mm", Options(no_tma=True))  # (the plan copying by cp.async; by TMA: the next test)
    b, (s,) = a.block, a.streams
    assert b.extents == (16, 16) and b.register.sizes == (8, 8) and b.register.group == 4
    assert [b.points(d) for d in (0, 1)] == [128, 128] and b.register.accumulators == 64
    assert b.register.registers == 128 and not b.register.double_buffer and b.register.asynchronous
    assert s.chunk == 16
    for p in s.inputs:  # both transposed (a micro-tile column is one vector read), 3 chunks deep by cp.async
        st = p.staging
        assert st.layout is Layout.TRANSPOSED and st.buffers == 3 and st.asynchronous and st.reuse == 128
    a_c, b_c = (p.staging for p in s.inputs)
    assert a_c.vector == 1 and b_c.vector == 4  # a_c's copy runs across its lines: cp.async element by element
    assert a_c.padding == 4 and b_c.padding == 0
    assert b.shared_bytes == 3 * (16 * 132 + 16 * 128) * 4 > 48 * 1024  # past static shared memory: dynamic
    assert "a_c is read once for the 8 points along dim 1" in b.register_reason


def test_mm_tiles_are_copied_by_tma_from_a_transposed_copy():
    """On sm_90 the f32 product's tiles are boxes TMA copies (core_tma.py):
    A's once the launch transposes it, where q >= 2048; chunks of 32 (TMA_CHUNK),
    three buffers, unpadded lines; explain's estimate a quarter of the
    accumulators below cp.async's. Not at sizes too small for A's copy."""
    a = plan_of("mm")
    (s,) = a.streams
    assert a.schedule.tma.used and s.chunk == 32 and a.block.register.asynchronous
    assert all(p.staging.layout is Layout.TRANSPOSED and p.staging.buffers == 3 and not p.staging.padding
               for p in s.inputs)
    (t,) = a.schedule.transposed
    assert t.array == "A" and t.units and t.units_tests == ((("q",), ">=", 2048),)
    assert expected_registers(a.schedule, a.variance) == 128 - 64 // 4
    assert plan_of("mm", Options(no_tma=True)).schedule.tma is None  # (--no-tma: not asked)
    small = plan_of("mm", Options(sizes=(("m", 1024), ("n", 1024), ("q", 1024))))
    assert not small.schedule.transposed and not small.schedule.tma.used  # (q < 2048: A read in place)


def test_a_loops_row_indices_are_no_registers_a_point():
    """The loop form (`s + A[i, q] * B[q, j]`, read as a stream over A[i] and
    B's column j) expects mm's registers: the rows' indices i and j feed the
    block's copies of the staged rows, not the points' arithmetic."""
    counts = [expected_registers(a.schedule, a.variance) for a in (analysed(BENCHMARKS / "mm.fut"),
                                                                    analysed(PROGRAMS / "analysis" / "loop_matmul.fut"))]
    assert counts == [112, 112]  # (both tiles copied by TMA: no copies' addresses, registers.TMA_SAVED)


def test_mm_without_cp_async_prefetches_nothing_and_keeps_one_buffer():
    b, (s,) = (lambda a: (a.block, a.streams))(plan_of("mm", Options(no_async=True)))
    assert not b.register.asynchronous and not b.register.double_buffer  # prefetching would pass the budget
    assert all(p.staging.buffers == 1 and p.staging.vector == 4 and not p.staging.asynchronous for p in s.inputs)
    assert b.shared_bytes == (16 * 132 + 16 * 128) * 4


def test_cp_async_stages_give_way_before_the_chunk_shrinks():
    a = plan_of("mm", Options(max_shared=48 * 1024, no_tma=True))  # three stages need 49,920 bytes
    (s,) = a.streams
    assert not a.block.register.asynchronous and s.chunk == 16 and a.block.shared_bytes <= 48 * 1024
    assert all(p.staging.buffers == 1 for p in s.inputs)
    wide = plan_of("mm", Options(max_shared=60_000, no_tma=True))
    assert wide.block.register.asynchronous and wide.streams[0].chunk == 16


def test_interior_blocks_are_a_register_tiles_parameter_off_unless_asked():
    from tiler.analyse.interior import CLAMPED, COALESCING, NO_REGISTER_TILE, UNCLAMPED, UNTILED_INTERIOR

    assert (plan_of("mm").block.interior, plan_of("mm").block.interior_reason) == (False, CLAMPED)
    for name, given in (("mm", ()), ("nbody3d", (2,))):  # a 2-D register tile, a coarsened 1-D block
        b = plan_of(name, Options(interior=True, register_tile=given)).block
        assert b.register is not None and b.interior and b.interior_reason == UNCLAMPED
        assert b.min_blocks == 1 and "two bodies" in b.min_blocks_reason  # explain says why, as the kernel asks
    # --min-blocks is the user's, interior blocks or not
    assert plan_of("mm", Options(interior=True, min_blocks=2)).block.min_blocks == 2
    # rows staged to coalesce spill unclamped; one point a thread has one clamp; untiled, none
    assert plan_of("rowsum", Options(interior=True)).block.interior_reason in (COALESCING, NO_REGISTER_TILE)
    assert plan_of("matvec", Options(interior=True)).block.interior is False
    assert plan_of("mm", Options(interior=True, no_register_tile=True)).block.interior_reason == NO_REGISTER_TILE
    untiled = plan_of("mm", Options(interior=True, no_tile=True)).block
    assert not untiled.interior and untiled.interior_reason == UNTILED_INTERIOR


def test_register_tile_ablations_and_override():
    assert plan_of("mm", Options(no_register_tile=True)).block.register is None
    assert "--no-register-tile" in plan_of("mm", Options(no_register_tile=True)).block.register_reason
    a = plan_of("mm", Options(register_tile=(4, 2)))
    assert a.block.register.sizes == (4, 2) and a.block.register.group == 2
    (s,) = plan_of("mm", Options(no_vector=True, double_buffer=True)).streams
    assert all(p.staging.vector == 1 and p.staging.buffers == 2 for p in s.inputs)
    assert not plan_of("mm", Options(register_tile=(4, 4))).block.register.double_buffer  # cp.async instead
    small = plan_of("mm", Options(register_tile=(4, 4), no_async=True))  # 16 accumulators: prefetching fits
    assert small.block.register.double_buffer and small.streams[0].inputs[0].staging.buffers == 2
    assert not plan_of("mm", Options(register_tile=(4, 4), single_buffer=True)).block.register.double_buffer


def test_a_1d_block_whose_threads_share_its_tiles_is_coarsened():
    a = plan_of("nbody")  # 2 operations a staged element read: a light body, 4 points a thread
    assert a.block.register.sizes == (4,) and a.block.extents == (256,) and "a light body" in a.block.register_reason
    heavy = plan_of("nbody3d")  # its arithmetic (a square root, a division) is the work: one point a thread
    assert heavy.block.register is None and "5.5 operations a staged element read" in heavy.block.register_reason
    given = plan_of("nbody3d", Options(register_tile=(2,)))
    # a stream staged double-buffered, its copies prefetched through registers, as a 2-D register tile's
    assert given.block.register.sizes == (2,) and given.streams[0].inputs[0].staging.buffers == 2


def test_coarsening_keeps_the_grid_full_and_its_points_in_range():
    few = plan_of("nbody", Options(sizes=(("n", 65536),)))  # 4 a thread: 64 blocks, 2: 128, for 132 SMs
    assert few.block.register is None and "fewer than the GPU's 132 multiprocessors" in few.block.register_reason
    assert plan_of("nbody", Options(sizes=(("n", 65536),)), target.Device(multiprocessors=100)).block.register.sizes \
        == (2,)
    # its grid known only at launch: 4 a thread, and a version of one a thread for grids of fewer blocks
    launch = plan_of("nbody")
    assert launch.plan.schedule.block.register.sizes == (4,) and launch.plan.fewer.block.register is None
    # a box of 512 particles, 4 points a thread: 128 threads cover it
    box = plan_of("lavamd", Options(sizes=(("m", 512), ("n", 4000), ("p", 27))))
    assert box.block.register.sizes == (1, 4) and box.block.extents == (1, 128)
    # a heavier body: not coarsened
    rodinia = plan_of("lavamd_rodinia", Options(sizes=(("b", 27000), ("p", 100))))
    assert rodinia.block.register is None and "operations a staged element read" in rodinia.block.register_reason
    # its own rows staged to coalesce: more points a thread would only grow the tile
    assert plan_of("matvec").block.register is None


def test_pack_interleaves_inputs_read_at_one_index():
    a = plan_of("nbody3d", Options(pack=True))
    packs = [p.staging.pack for p in a.streams[0].inputs]
    assert {p.array for p in packs} == {"xc_yc_zc_mc"} and [p.lane for p in packs] == [0, 1, 2, 3]
    assert all(p.width == 4 for p in packs) and "one 128-bit read fetches them all" in a.streams[0].inputs[0].reason
    assert all(p.staging.pack is None for p in plan_of("nbody3d").streams[0].inputs)  # not by default


def test_more_accumulators_make_a_smaller_micro_tile(tmp_path):
    path = tmp_path / "two.fut"
    path.write_text((BENCHMARKS / "mm.fut").read_text()
                    .replace("fun [[f32, q], m] main", "fun ([[f32, q], m], [[f32, q], m]) main")
                    .replace("map(fn [f32, q] ([f32, n] a)", "map(fn ([f32, q], [f32, q]) ([f32, n] a)")
                    .replace("map(fn f32 ([f32, n] b)", "map(fn (f32, f32) ([f32, n] b)")
                    .replace("streamSeq(fn f32 (int kk, [f32, chunk] a_c, [f32, chunk] b_c, f32 acc)",
                             "streamSeq(fn (f32, f32) (int kk, [f32, chunk] a_c, [f32, chunk] b_c, f32 acc, f32 mx)")
                    .replace("loop (acc) = for k < chunk do\n                            acc + a_c[k] * b_c[k]",
                             "loop (acc, mx) = for k < chunk do\n                            "
                             "(acc + a_c[k] * b_c[k], max(mx, a_c[k] - b_c[k]))")
                    .replace("in acc", "in (acc, mx)").replace(", a, b, 0f32)", ", a, b, 0f32, 0f32)"))
    b = analysed(path).block
    assert b.register.points * 2 <= 64 and b.register.accumulators <= 64


def test_a_streamed_column_is_an_uncoalesced_copy(tmp_path):
    path = tmp_path / "column.fut"
    path.write_text("fun [f32, n] main([f32, n] xs, [[f32, w], m] M) =\n"
                    "  let Mt = transpose(M) in\n"
                    "  map(fn f32 (f32 x) => streamSeq(fn f32 (int kk, [f32, c] col, f32 acc) =>\n"
                    "    loop (acc) = for k < c do acc + x * col[k] in acc, Mt[0], 0f32), xs)\n")
    (s,) = analysed(path).streams
    assert s.inputs[0].staged and s.inputs[0].staging.copy.coalescing is Coalescing.UNCOALESCED


def test_lavamd_rows_by_indirect_index_are_invariant_to_dim_1():
    a = plan_of("lavamd")
    outer, inner = a.streams
    assert not outer.tiled and "iota" in outer.inputs[0].reason and outer.inputs[0].refusal is Refusal.COMPUTED
    assert inner.tiled and stream_kind(inner, a.block) == "1-D block in a 2-D grid" and a.block.spans == (1,)
    assert inner.inputs[0].varies_with == {0}
    assert [g.kind for g in inner.site.guards] == ["stream length", "loop bound"]
    (limit,) = a.plan.thresholds
    assert limit.size == "m" and limit.dim == 1 and 1 < limit.value <= 256 and not limit.overridden


def test_rodinia_lavamd_neighbour_loop_is_uniform_over_particles():
    a = plan_of("lavamd_rodinia")
    (s,) = a.streams
    assert a.block.spans == (1,) and s.tiled and all(p.staged for p in s.inputs)
    assert [sorted(g.variance) for g in s.site.guards] == [[0]]  # the loop over neighbours: dim 0 only


def test_a_block_spanning_an_unsafe_dimension_is_not_chosen():
    # Rodinia's neighbour loop varies with dim 0, so a 2-D block would be unsafe there
    a = plan_of("lavamd_rodinia", Options(tile=(32, 32)))
    assert 0 not in a.block.spans


def test_variance_table_follows_dataflow():
    a = plan_of("lavamd")
    by_name = {b.name: v for b, v in a.variance.table.items()}
    assert by_name["i"] == {0} and by_name["a"] == {0, 1}
    assert by_name["ind"] == {0} and by_name["invar_AArow"] == {0}
    assert by_name["k1"] == frozenset() and by_name["AA"] == frozenset()


def test_loop_variance_is_a_fixpoint():
    path = PROGRAMS / "analysis" / "loop_carry.fut"
    a = analysed(path)
    by_name = {(b.name, b.kind): v for b, v in a.variance.table.items()}
    assert by_name[("t", "loop")] == {0}  # starts uniform, picks up dim 0 through `u` on a later iteration


def test_no_tile_and_tile_sizes_and_shared_limit():
    a = plan_of("nbody", Options(no_tile=True))
    assert not a.tiled and "--no-tile" in a.streams[0].reason
    a = plan_of("nbody", Options(tile=(128,)))
    assert a.block.extents == (128,) and a.streams[0].chunk == 128
    a = plan_of("mm", Options(max_shared=4096))
    assert not a.tiled or a.block.shared_bytes <= 4096
    assert any("limit" in p.reason for s in a.streams for p in s.inputs) or a.block.shared_bytes <= 4096


def test_rows_picked_through_an_input_are_staged_in_a_2d_block():
    """`A[p]`, `p` an element of `perm`: the copy reads `perm` at the other
    threads' indices, so a 2-D block stages the rows of all its threads."""
    a = analysed(PROGRAMS / "analysis" / "rows_by_data.fut")
    uc, vc = a.streams[0].inputs
    assert a.block.spans == (1, 0) and uc.staged and uc.staging.rows == (0,) and vc.staged


@pytest.mark.parametrize("row, staged", [("A[i]", True), ("A[idx[j]]", True), ("A[t]", True),
                                         ("A[(i + 1) % r]", True), ("A[idx[j] * 0 + i]", True),
                                         ("A[min(max(idx[j] - 3, 0), r - 1)]", True), ("A[(t * 7 % r + r) % r]", True),
                                         ("A[idx[idx[j]]]", True),
                                         ("A[if i > 2 then i - 1 else i]", False),
                                         ("A[loop (p = i) = for q < 2 do (p + q) % r in p]", False)])
def test_a_row_picked_through_data_is_staged_only_where_it_is_an_inputs_element(tmp_path, row, staged):
    """Another thread's row can be computed by the block's copy where its
    index is built from that thread's index alone: inputs read at it (a
    map's element of `idx`, `idx[j]` with `j` the thread's index), through
    lets, sizes, literals, arithmetic and builtins (a clamp, a wrap, a
    table read at such an index); an index the thread chose by an `if` or
    computed by a loop is not staged (the reason says why)."""
    path = write(tmp_path, gathered_row(row))
    (rc,) = analysed(path).streams[0].inputs
    assert rc.staged is staged and rc.uncoalesced
    assert staged and rc.for_coalescing or "through data" in rc.reason


@pytest.mark.parametrize("column, adjacent", [("Tt[4 * i % r]", False), ("Tt[4 * i]", False),
                                              ("Tt[(i * 7) % r]", False), ("Tt[min(max(i - 1, 0), r - 1)]", False),
                                              ("Tt[r - 1 - i]", False), ("Tt[i]", True), ("Tt[i + 3]", True),
                                              ("Tt[ii]", True)])
def test_a_column_is_copied_in_vectors_only_where_neighbouring_points_read_neighbouring_columns(column, adjacent):
    """A column at an index computed from the point's own one is staged and
    copied along the points (each thread computes a point's index), but
    moves neighbours' columns as one vector (coalesced) only where they lie
    side by side: `i` plus what is alike along the dim, through lets, a map
    level's too (a cold review found `4 * i` copied as if they did)."""
    text = (PROGRAMS / "analysis" / "columns_by_computed_index.fut").read_text()
    text = text.replace("map(fn f32 ([f32, n] v) =>", "let ii = i + 1 in\n        map(fn f32 ([f32, n] v) =>")
    a = run_to("analyse", text.replace("Tt[4 * i % r]", column), "col.fut")
    uc = a.streams[0].inputs[0]
    copy = uc.staging.copy
    assert uc.staged and copy.axis is CopyAxis.ROWS
    assert (copy.coalescing is Coalescing.COALESCED) == adjacent and (uc.staging.vector > 1 or not adjacent)
    assert ("coalesced" in describe_copy(copy)) and (("uncoalesced" in describe_copy(copy)) != adjacent)


def test_tile_sizes_that_overflow_a_block_are_skipped():
    a = plan_of("mm", Options(tile=(128,)))  # 128 x 128 would be 16384 threads: a 1-D block of 128 instead
    assert a.block.threads <= 1024 and a.block.spans in ((1,), (0,))
    a = plan_of("mm", Options(tile=(2048,)))
    assert not a.tiled and "more than 1024 threads" in a.streams[0].reason


def test_tile_sizes_given_per_dimension_are_the_users_block():
    with pytest.raises(PlainError, match="a block of 64 x 64 threads has 4,096; a block has at most 1,024"):
        plan_of("mm", Options(tile=(64, 64)))
    with pytest.raises(PlainError, match="4 sizes for a kernel of 1 dimension"):
        plan_of("nbody", Options(tile=(1, 2, 3, 4)))
    with pytest.raises(PlainError, match="--register-tile 1,2,3: 3 sizes for a kernel of 2 dimensions"):
        plan_of("mm", Options(register_tile=(1, 2, 3)))


def test_a_block_fits_a_dimension_whose_size_is_known():
    a = plan_of("lavamd_rodinia", Options(sizes=(("p", 100),)))
    assert a.block.extents == (1, 128)  # 100 particles a box: 128 threads, not 256
    assert plan_of("lavamd_rodinia").block.extents == (1, 256)
    assert plan_of("nbody", Options(sizes=(("n", 100000),))).block.extents == (256,)


# ---- coalescing: rows each thread walks alone ---------------------------------------


def write(tmp_path, text: str):
    path = tmp_path / "p.fut"
    path.write_text(text)
    return path


MATVEC_T = """fun [f32, n] main([[f32, n], m] At, [f32, m] x) =
  let A = transpose(At) in
  map(fn f32 ([f32, m] a) =>
        streamSeq(fn f32 (int kk, [f32, c] ac, [f32, c] xc, f32 acc) =>
                    loop (acc) = for k < c do acc + ac[k] * xc[k] in acc
                 , a, x, 0f32)
     , A)
"""


def test_a_row_each_thread_walks_is_staged_to_coalesce():
    a = plan_of("matvec")
    (s,) = a.streams
    ac, xc = s.inputs
    assert ac.staged and ac.uncoalesced and ac.for_coalescing and ac.coalesce.value == "shared"
    # copied by cp.async, 3 chunks deep: row-major, so each 128-bit copy lands whole, its lines
    # padded by 16 bytes, which keeps them aligned and spreads the threads' reads over the banks
    assert ac.staging.reuse == 1 and ac.staging.layout is Layout.ROW_MAJOR and ac.staging.padding == 4
    assert ac.staging.copy == Copy(CopyAxis.CHUNK, Coalescing.COALESCED) and ac.staging.reads is Reads.STRIDED
    assert ac.staging.asynchronous and xc.staging.asynchronous and ac.staging.buffers == xc.staging.buffers == 3
    assert xc.staged and not xc.for_coalescing and xc.coalesce.value == "none"
    # one thread a row: a narrow block and a chunk long enough for 16 vector loads a thread
    assert a.block.extents == (16,) and s.chunk == 64 and ac.staging.vector == 4
    assert ac.staging.bytes == 3 * 16 * 68 * 4 and "narrow" in a.block.reason and "row apart along threadIdx.x" in ac.reason


def test_without_cp_async_a_row_tile_is_transposed_and_prefetched_through_registers():
    """--no-async (and --single-buffer): the pipeline before cp.async, kept
    for the ablation and for GPUs before sm_80's copies."""
    a = plan_of("matvec", Options(no_async=True))
    ac, xc = a.streams[0].inputs
    assert not ac.staging.asynchronous and ac.staging.layout is Layout.TRANSPOSED and ac.staging.padding == 1
    assert ac.staging.reads is Reads.UNIT_STRIDE and ac.staging.buffers == 2 and ac.staging.vector == 4
    one = plan_of("matvec", Options(single_buffer=True)).streams[0].inputs[0].staging
    assert not one.asynchronous and one.buffers == 1


def test_no_coalesce_leaves_the_row_in_global_memory_and_says_so():
    a = plan_of("matvec", Options(no_coalesce=True))
    ac, xc = a.streams[0].inputs
    assert not ac.staged and ac.uncoalesced and "--no-coalesce" in ac.reason and xc.staged
    assert ac.refusal is Refusal.COALESCING_OFF and xc.refusal is None
    assert a.block.extents == (256,)  # nothing to narrow the block for


def test_rows_that_already_coalesce_are_left_in_place(tmp_path):
    """The rows of a transposed array: thread i reads column i, so neighbouring
    threads read neighbouring addresses; nothing to remedy."""
    a = analysed(write(tmp_path, MATVEC_T))
    ac, xc = a.streams[0].inputs
    assert not ac.staged and not ac.uncoalesced and ac.coalesce.value == "none" and xc.staged


def test_the_untiled_kernel_counts_its_uncoalesced_reads():
    """The cost model charges a row read a row apart more than a coalesced
    one, so staging it pays from short rows on (the launch's threshold)."""
    a = plan_of("rowsum")
    (p,) = a.plan.untiled.streams[0].inputs
    assert p.uncoalesced and a.plan.untiled.cost == 8.0 and a.schedule.cost == 1.0
    assert [(t.size, t.value) for t in a.plan.thresholds] == [("m", 2)]


def test_a_row_under_a_thread_dependent_branch_is_not_staged(tmp_path):
    a = analysed(write(tmp_path, """fun [f32, n] main([[f32, m], n] A, [int, n] on) =
  map(fn f32 ([f32, m] r, int o) =>
        if o > 0 then streamSeq(fn f32 (int kk, [f32, c] rc, f32 acc) =>
                                  loop (acc) = for k < c do acc + rc[k] in acc
                               , r, 0f32)
        else 0f32
     , zip(A, on))
"""))
    (p,) = a.streams[0].inputs
    assert not p.staged and p.uncoalesced
    assert "row apart along threadIdx.x, but the stream is under a branch" in p.reason


def test_a_row_that_varies_along_both_block_dims_is_not_staged(tmp_path):
    a = analysed(write(tmp_path, """fun [[f32, m], n] main([[[f32, k], m], n] X, [f32, k] w) =
  map(fn [f32, m] ([[f32, k], m] Xi) =>
        map(fn f32 ([f32, k] r) =>
              streamSeq(fn f32 (int kk, [f32, c] rc, [f32, c] wc, f32 acc) =>
                          loop (acc) = for t < c do acc + rc[t] * wc[t] in acc
                       , r, w, 0f32)
           , Xi)
     , X)
"""))
    (two_d,) = [c for c in a.plan.candidates if c.block.spans == (1, 0)]
    rc, wc = two_d.streams[0].inputs
    assert not rc.staged and rc.uncoalesced and wc.staged and "both dimensions the block spans" in rc.reason
    assert rc.refusal is Refusal.ROWS_ALONG_BOTH
    rc, wc = a.streams[0].inputs  # the plan's own block spans one of them, and stages rc there
    assert len(a.block.spans) == 1 and rc.for_coalescing


def test_chunk_option_sets_the_chunk_and_is_halved_to_fit():
    a = plan_of("matvec", Options(chunk=128))
    assert a.streams[0].chunk == 128
    a = plan_of("matvec", Options(chunk=512, tile=(256,)))  # 256 x 512 floats, twice, cannot fit 48 KiB
    assert a.streams[0].chunk < 512 and "chunk" in a.streams[0].reason and a.block.shared_bytes <= 48 * 1024


def test_chunk_option_is_checked():
    from tiler.analyse import make_options

    for bad in (0, -3, 5000):
        with pytest.raises(PlainError, match="a chunk is between 1 and 4096"):
            make_options(chunk=bad)


# ---- chunks of rows, and rows read whole outside a stream (k-means) -------------------

KMEANS_SIZES = (("d", 34), ("k", 16), ("n", 1 << 20))


def test_a_chunk_of_rows_every_thread_reads_is_a_2d_tile():
    a = plan_of("kmeans", Options(sizes=KMEANS_SIZES))
    (cc,) = a.streams[0].inputs
    st = cc.staging
    # 16 centres of 34 features: one chunk holds them all, row-major as in global memory
    assert cc.element == 34 and a.streams[0].chunk == 16 and st.tile == (16,) and st.shape == (16, 34)
    assert st.copy == Copy(CopyAxis.CHUNK, Coalescing.COALESCED) and st.reads is Reads.BROADCAST
    assert st.bytes == 16 * 34 * 4 * st.buffers and "16 rows of 34" in cc.reason


def test_a_row_each_thread_reads_in_a_loop_is_staged_and_the_block_narrowed_to_fit():
    a = plan_of("kmeans", Options(sizes=KMEANS_SIZES, register_tile=(2,)))
    (p,) = a.schedule.slabs
    # 2 points a thread: 256 threads would need 512 rows (72 KB); 128 threads' 256 rows fit
    assert p.staged and p.name == "p" and p.points == 256 and p.pitch == 34 and p.bytes == 256 * 34 * 4
    assert a.block.extents == (128,) and a.block.register.sizes == (2,) and "fit in shared memory" in a.block.reason
    assert a.block.shared_bytes == p.bytes + a.streams[0].shared_bytes
    off = plan_of("kmeans", Options(sizes=KMEANS_SIZES, no_coalesce=True))
    assert not off.schedule.slabs[0].staged and "--no-coalesce" in off.schedule.slabs[0].reason
    assert off.block.extents == (256,)


def test_a_row_passed_to_a_helper_by_name_is_staged_as_its_reads_say(tmp_path):
    """A helper given the thread's row reads it by element through its
    parameter (`let a = p` once inlined): those are the row's reads, so the
    row is staged as where the body reads `p[t]` itself; the helper given a
    row it takes whole (a stream over it) leaves it in place."""
    a = analysed(PROGRAMS / "analysis" / "own_row_by_helper.fut", Options())
    (p,) = a.schedule.slabs
    assert p.staged and p.name == "p" and p.pitch in (34, 35)
    (tmp_path / "whole.fut").write_text("""
fun f32 total([f32, d] a) = streamSeq(fn f32 (int k0, [f32, c] ac, f32 s) =>
                                        loop (s) = for t < c do s + ac[t] in s, a, 0f32)
fun [f32, n] main([[f32, d], n] X, [f32, m] w) =
  map(fn f32 ([f32, d] x) => total(x) + streamSeq(fn f32 (int j0, [f32, c] wc, f32 s) =>
                                                   loop (s) = for j < c do s + wc[j] in s, w, 0f32), X)""")
    assert not analysed(tmp_path / "whole.fut").schedule.slabs
    # through two helpers (`outer` passes its parameter, a row of the chunk, on to `inner`): the chunk is staged
    (tmp_path / "twice.fut").write_text("""
fun f32 inner([f32, d] a, [f32, d] b) = loop (s = 0f32) = for t < d do s + a[t] * b[t] in s
fun f32 outer([f32, d] a, [f32, d] b) = inner(a, b)
fun [f32, n] main([[f32, d], n] X, [[f32, d], k] C) =
  map(fn f32 ([f32, d] x) =>
        streamSeq(fn f32 (int c0, [[f32, d], c] cs, f32 acc) =>
                    loop (acc) = for j < c do acc + outer(x, cs[j]) in acc, C, 0f32), X)""")
    assert analysed(tmp_path / "twice.fut").streams[0].inputs[0].staged


@pytest.mark.parametrize("length, run, pitch, why", [
    (34, True, 34, "reads at most 2-way bank conflicted"),  # k-means: lines of 34, read 2-way conflicted at most
    (5, True, 5, "conflict-free reads"),
    (8, False, 9, "lines of 8 would leave reads 8-way bank conflicted"),
    (36, False, 37, "4-way")])
def test_rows_one_after_another_are_copied_as_one_run_where_reads_stay_nearly_conflict_free(length, run, pitch, why):
    """The block's points' rows lie one after another in `points`: where
    lines of their own length leave a warp's reads at one index at most
    2-way conflicted, the shared array keeps that length and the copy is one
    flat run of vectors by cp.async; else each line is padded to an odd pitch."""
    (p,) = plan_of("kmeans", Options(sizes=(("d", length), ("k", 16), ("n", 1 << 20)))).schedule.slabs
    assert p.staged and p.run == run and p.pitch == pitch and why in p.reason
    assert (p.vector, p.asynchronous) == ((4, True) if run else (1, False))
    assert p.bytes == p.points * pitch * 4


def test_a_run_of_rows_is_copied_as_the_options_say():
    sizes = (("d", 34), ("k", 16), ("n", 1 << 20))
    (p,) = plan_of("kmeans", Options(sizes=sizes, no_async=True)).schedule.slabs
    assert p.run and p.vector == 4 and not p.asynchronous and "through registers" in p.reason
    (p,) = plan_of("kmeans", Options(sizes=sizes, no_vector=True)).schedule.slabs
    assert p.run and p.vector == 1 and p.asynchronous


def test_rows_that_are_not_one_after_another_keep_the_padded_copy():
    """Rows apart in their array (a 3-D input's rows under an outer index,
    rows picked through data) are copied row by row into odd lines."""
    from tiler.analyse.slabs import _layout

    layout = _layout(34, 256, 4, "the rows do not lie one after another in an input", Context(Options()))
    assert (layout.pitch, layout.run, layout.vector) == (35, False, 1) and "one after another" in layout.why
    assert _layout(34, 256, 8, "", Context(Options())).vector == 2  # 16 bytes a copy: two 8-byte elements


def test_rows_of_a_length_known_only_at_launch_are_staged_for_a_bound():
    """d known only at launch: the plan stages k-means' centres and points
    in lines of ROW_BOUND elements (no run: shorter rows are not that far
    apart; scalar copies: a vector could pass a row's end); the plan without
    the bound, which stages nothing, is kept for longer rows."""
    from tiler.analyse.plan import ROW_BOUND

    a = plan_of("kmeans")
    assert a.schedule.bounds == {"d": ROW_BOUND} and a.schedule.fixed == {}
    (cc,) = a.streams[0].inputs
    assert cc.staged and cc.element == ROW_BOUND and cc.staging.vector == 1 and f"at most {ROW_BOUND}" in cc.reason
    (p,) = a.schedule.slabs
    assert p.staged and not p.run and p.pitch == ROW_BOUND + 1 and f"at most {ROW_BOUND}" in p.reason
    past = a.plan.unbounded
    assert not past.schedule.tiled and "--size d=N" in past.schedule.streams[0].inputs[0].reason
    # a size given when compiling needs no bound
    assert plan_of("kmeans", Options(sizes=KMEANS_SIZES)).plan.unbounded is None


def test_chunks_shrink_before_the_block_narrows_for_its_threads_rows():
    """k-means with d known only at launch: 128 threads' rows of at most 64
    (33,280 bytes) and centres in chunks of 128 or 64 pass 48 KiB. Halving
    the chunk keeps every centre's reuse by 128 threads; halving the block
    would double the centres' global loads (0.227 -> 0.148 ms at 16 centres,
    2^20 points, d = 34 on an H200). A --chunk given is kept."""
    a = plan_of("kmeans")
    (p,) = a.schedule.slabs
    assert a.block.extents == (128,) and a.streams[0].chunk == 32 and p.points == 128
    assert a.block.shared_bytes == p.bytes + a.streams[0].shared_bytes <= 48 * 1024
    assert "chunk 32, not 128" in a.streams[0].reason and "rows its points read whole" in a.streams[0].reason
    given = plan_of("kmeans", Options(chunk=64))
    assert given.streams[0].chunk == 64 and given.block.extents == (64,)
    # a chunk that is not a power of two never halves below MIN_CHUNK (184 threads' 184 -> 92 -> 46 -> 23 -> 11
    # -> 5 would): the block narrows instead
    odd = plan_of("kmeans", Options(tile=(184,)))
    assert odd.block.extents == (92,) and odd.streams[0].chunk == 92


def test_a_chunk_of_rows_that_differ_between_threads_is_not_staged(tmp_path):
    path = write(tmp_path, """fun [[f32, m], n] main([[[f32, d], k], n] R, [f32, m] w) =
  map(fn [f32, m] ([[f32, d], k] rows) =>
        map(fn f32 (f32 x) =>
              streamSeq(fn f32 (int kk, [[f32, d], c] rc, f32 acc) =>
                          loop (acc) = for j < c do acc + rc[j, 0] * x in acc
                       , rows, 0f32)
           , w)
     , R)
""")
    a = analysed(path, Options(sizes=(("d", 8),)))
    both = next(c for c in a.plan.candidates if len(c.block.spans) == 2)
    (rc,) = both.streams[0].inputs
    assert not rc.staged and "differ along dimension 0" in rc.reason
    # a block along dim 1 alone: every thread reads the same rows
    assert a.block.spans == (1,) and a.streams[0].inputs[0].staged


def test_a_kernel_whose_tiles_hold_rows_runs_only_at_their_length():
    from tiler.pipeline import run_all

    text = (BENCHMARKS / "kmeans.fut").read_text()
    module = run_all(text, "kmeans.fut", Options(sizes=KMEANS_SIZES))["verify"]
    tiled = [k for k in module.kernels if k.tiled]
    assert tiled and all(k.fixed == (("d", 34),) for k in tiled)
    sizes = {"n": 1000, "k": 21, "d": 34}
    assert module.select(sizes).tiled and not module.select(dict(sizes, d=35)).tiled
    assert not tiled[0].runs_at(dict(sizes, d=35))


@pytest.mark.parametrize("length, sizes, vector", [("34", (), 1), ("36", (), 4), ("m", (("m", 34),), 1),
                                                   ("m", (), 4)])
def test_rows_copied_by_vectors_only_where_every_row_starts_aligned(tmp_path, length, sizes, vector):
    """A vector copy of a thread's own row needs each row to start on 16
    bytes: where the row length is known (a literal, or --size) and not a
    multiple of 4 no launch can guarantee it, so the copy is scalar (the
    fuzzer found a literal 34 planned as vectors, refused by the verifier)."""
    from tiler.pipeline import run_all

    text = f"""fun [f32, n] main([[f32, {length}], n] M, [f32, {length}] w) =
  map(fn f32 ([f32, {length}] row) =>
        streamSeq(fn f32 (int kk, [f32, c] rc, [f32, c] wc, f32 acc) =>
                    loop (acc) = for j < c do acc + rc[j] * wc[j] in acc
                 , row, w, 0f32)
     , M)
"""
    a = analysed(write(tmp_path, text), Options(sizes=sizes))
    rc = a.streams[0].inputs[0]
    assert rc.for_coalescing and rc.staging.vector == vector
    main = next(k for k in run_all(text, "rows.fut", Options(sizes=sizes))["verify"].kernels if not k.lanes)
    assert main.tiled and main.divisible == ((("m", 4),) if length == "m" and vector == 4 else ())


def test_rows_walked_alone_are_transposed_by_the_launch_where_they_cannot_be_staged():
    """row_steps' loop over each thread's row (to m - 1: no stream) stages
    nothing: the launch transposes A, from a row length on where it is
    known only at launch."""
    a = row_steps()
    (t,) = a.schedule.transposes
    assert t.chosen and (t.array, t.rows, t.length, t.min_length) == ("A", "n", "m", MIN_ROW)
    assert t.launch_tests() == ((("m",), ">=", MIN_ROW), (("n",), "<=", ROWS_PER_SM * 132))
    assert a.schedule.slabs[0].transposed and a.schedule.transposed_block.extents == (32,)
    (t,) = row_steps(Options(sizes=(("m", 4096), ("n", 1000)))).schedule.transposes
    assert t.chosen and t.launch_tests() == ()  # known long and few: always
    (t,) = row_steps(Options(sizes=(("n", 100_000),))).schedule.transposes
    assert not t.chosen and "rows, more than 128 an SM" in t.reason
    (t,) = row_steps(Options(sizes=(("m", 34),))).schedule.transposes
    assert not t.chosen and "34 elements long" in t.reason
    for options, words in ((Options(transpose=False), "--no-transpose"), (Options(no_coalesce=True), "--no-coalesce")):
        (t,) = row_steps(options).schedule.transposes
        assert not t.chosen and words in t.reason
    assert not row_steps(Options(no_tile=True)).schedule.transposes  # the untiled baseline stays as written


def row_steps(options=DEFAULT):
    return analysed(PROGRAMS / "analysis" / "row_steps.fut", options)


def test_staged_rows_are_not_transposed_unless_asked():
    """matvec stages its rows (the first remedy); --transpose picks the second."""
    assert not plan_of("matvec").schedule.transposes
    a = plan_of("matvec", Options(transpose=True))
    (t,) = a.schedule.transposed
    ac, xc = a.streams[0].inputs
    assert t.array == "A" and not ac.staged and ac.coalesce is Coalesce.TRANSPOSE and xc.staged
    assert "--transpose chose the other remedy" in ac.reason and not a.schedule.transposed_block  # tiled: kept


def test_the_launch_transposes_only_where_it_pays():
    """row_steps: the transposed kernel first, for long rows and few of them,
    the same kernel in place after it; the launch's parameters as given
    (without the versions that split rows of 256 and more among threads)."""
    path = PROGRAMS / "analysis" / "row_steps.fut"
    module = run_to("verify", path.read_text(), path.name, Options(no_split=True))
    first, plain, wide = module.versions
    (p,) = first.kernel.transposes
    assert (p.name, p.source, p.shape, p.source_shape) == ("A_t", "A", ("m", "n"), ("n", "m"))
    assert first.kernel.block == (32, 1, 1) and plain.kernel.block == (256, 1, 1)
    assert module.select({"n": 1000, "m": 4096}) is first.kernel
    assert module.select({"n": 1000, "m": 1000}) is plain.kernel  # short rows
    assert module.select({"n": 20000, "m": 4096}) is plain.kernel  # many rows
    assert not plain.kernel.transposes and not wide.kernel.transposes
    assert [q.name for q in module.params] == ["A", "out0", "n", "m"]


def test_a_transposition_at_every_size_keeps_the_untiled_fallback():
    """matvec --transpose transposes at any size (no launch test); below its
    thresholds the launch still runs the 32-bit untiled kernel, in place."""
    module = run_to("verify", (BENCHMARKS / "matvec.fut").read_text(), "matvec.fut", Options(transpose=True))
    assert module.versions[0].kernel.transposes
    small = module.select({"n": 10, "m": 5})  # m below its threshold of 9
    assert small.name == "tiler_matvec_untiled" and not small.transposes


# ---- a loop's rows streamed end to end (analyse/joins.py) -------------------------------


def test_lavamd_rodinia_joins_its_neighbour_rows():
    """The loop over neighbour boxes and the stream over each box's rows are
    one stream, in chunks of two elements a thread; --no-join-rows and
    --chunk are obeyed; rows that are whole chunks are left apart."""
    (s,) = plan_of("lavamd_rodinia", Options(sizes=(("p", 100),))).streams
    assert s.join.joined and s.join.sound and s.join.length.name == "p" and s.chunk == 2 * 128
    assert all(p.staging.vector == 1 for p in s.inputs)
    (apart,) = plan_of("lavamd_rodinia", Options(sizes=(("p", 100),), join_rows=False)).streams
    assert not apart.join.joined and apart.join.sound and "--no-join-rows" in apart.join.reason and apart.chunk == 128
    (given,) = plan_of("lavamd_rodinia", Options(sizes=(("p", 100),), chunk=64)).streams
    assert given.join.joined and given.chunk == 64
    (whole,) = plan_of("lavamd_rodinia", Options(sizes=(("p", 256),))).streams
    assert not whole.join.joined and "whole chunks" in whole.join.reason
    (forced,) = plan_of("lavamd_rodinia", Options(sizes=(("p", 256),), join_rows=True)).streams
    assert forced.join.joined


JOIN_REFUSALS = {
    "its own start value": ("streamSeq(fn f32 (int kk, [f32, c] qs, f32 a) => loop (a) = for j < c do a + qs[j] "
                            "in a, Q[row], 0f32)", "does not carry the loop's accumulators"),
    "the loop's index": ("streamSeq(fn f32 (int kk, [f32, c] qs, f32 a) => loop (a) = for j < c do a + qs[j] "
                         "* f32(k) in a, Q[row], s)", "`k`, the loop's index"),
    "the row": ("streamSeq(fn f32 (int kk, [f32, c] qs, f32 a) => loop (a) = for j < c do a + qs[j] * f32(row) "
                "in a, Q[row], s)", "`row`, a value the loop computes"),
    "rows picked by the accumulator": ("streamSeq(fn (f32, int) (int kk, [f32, c] qs, f32 a, int w) => loop (a, w) "
                                       "= for j < c do (a + qs[j], w) in (a, w), Q[w], s, w)",
                                       "picked with `w`, the loop's accumulator", "s = 0f32, w = 0"),
    "the loop's accumulator": ("streamSeq(fn f32 (int kk, [f32, c] qs, f32 a) => loop (a) = for j < c do "
                               "a + qs[j] * s in a, Q[row], s)", "`s`, the loop's accumulator"),
}


@pytest.mark.parametrize("case", JOIN_REFUSALS)
def test_rows_the_stream_needs_to_tell_apart_stay_apart(case):
    stream, why, *accs = JOIN_REFUSALS[case]
    text = ("fun [[f32, p], g] main([[int, q], g] nb, [[f32, m], r] Q, [[f32, p], g] X) =\n"
            "  map(fn [f32, p] (int gi, [f32, p] xs) =>\n"
            "        map(fn f32 (f32 x) =>\n"
            f"              loop ({accs[0] if accs else 's = 0f32'}) = for k < q do\n"
            f"                let row = nb[gi, k] in {stream}\n"
            "              in s * x\n"
            "           , xs)\n"
            "     , zip(iota(g), X))\n")
    (s,) = run_to("analyse", text, "join.fut", Options(join_rows=True)).streams
    assert s.tiled and not s.join.joined and not s.join.sound and why in s.join.reason, s.join.reason


def test_a_stream_that_is_not_a_loops_body_has_no_join():
    (s,) = plan_of("nbody3d").streams
    assert s.join is None


def test_a_block_is_narrowed_for_its_rows_before_its_tiles_must_fit():
    """Two f64 rows a thread: at 256 threads no chunk fits; narrowed first
    (16 threads), chunks of 32 f64 (256 bytes a row, the line the copies
    need) fit in 26,112 bytes, where chunks of 64 would not (50,688)."""
    a = analysed(PROGRAMS / "analysis" / "own_rows_f64.fut", Options(no_split=True))
    (s,) = a.streams
    assert s.tiled and s.chunk == 32 and a.block.extents == (16,)
    assert a.block.shared_bytes == 26112 and all(p.staged for p in s.inputs)


@pytest.mark.parametrize("inner, given, block", [
    ("3", (), (4, 64)),  # a point of 3 outputs: 4 lanes a point, not 32 with 29 idle
    ("q", (("q", 5),), (8, 32)),  # a size given when compiling is known as well
    ("q", (), (32, 8)),  # known only at launch: as wide as a warp
    ("48", (), (32, 8)),  # wider than a warp: as it was
])
def test_an_untiled_block_is_no_wider_along_x_than_a_literal_inner_dimension(inner, given, block):
    text = f"""fun [[f32, {inner}], n] main([[f32, {inner}], n] P) =
  map(fn [f32, {inner}] ([f32, {inner}] p) => map(fn f32 (f32 x) => x * 2f32, p), P)
"""
    a = run_to("analyse", text, "narrow.fut", Options(sizes=given)).plan.untiled
    assert tuple(a.block.extents[d] for d in a.block.spans) == block

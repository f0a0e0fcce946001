"""16-bit products on sm_90a's warp-group instructions (wgmma): the plan
takes them only where the code is built for sm_90a, the tiles are swizzled
as the instruction's 128-byte mode reads them, every element each warp
group's descriptors reach is the element the program's point reads there,
the warps' shares of each fragment land where their points read them back,
and nvcc builds every version for sm_90a with no spills. The GPU runs are in
test_gpu.py (the tensor-core programs under the GPU's own architecture)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from conftest import BENCHMARKS, PROGRAMS, chunk_loop_reads, tiler

from tiler import kir, target
from tiler.analyse import Options
from tiler.kir.build import rewrite, swizzled_index
from tiler.pipeline import run_all
from tiler.render import rename_module
from tiler.runtime.nvcc import nvcc_path

SM90A = target.device_for_arch(target.WGMMA_ARCH)
DEFAULT, TENSOR_CORES = Options(), Options(tensor_cores=True)
# each product, and how the warp groups read the instruction's A and B: along their lines (K-major), across
# them, or (TF32's B tile, its columns adjacent) into each thread's registers as the instruction's A, the
# product then computed transposed: 16-bit ones in every layout, TF32 ones (under --tensor-cores) so, A's tile
# copied across its lines where it has its rows adjacent
K, MN, REGISTERS = "K-major", "MN-major", "registers"
PRODUCTS = {BENCHMARKS / "mm_bf16.fut": (K, MN),
            PROGRAMS / "tensor_cores" / "mm_f16_f32.fut": (K, MN),
            PROGRAMS / "tensor_cores" / "mm_abt_bf16.fut": (K, K),
            PROGRAMS / "tensor_cores" / "mm_atb_f16.fut": (MN, MN),
            PROGRAMS / "tensor_cores" / "mm_atbt_bf16.fut": (MN, K),
            BENCHMARKS / "mm.fut": (REGISTERS, K),
            BENCHMARKS / "aat.fut": (K, K),
            PROGRAMS / "tensor_cores" / "mm_atb_f32.fut": (REGISTERS, K),
            PROGRAMS / "tensor_cores" / "mm_bias.fut": (REGISTERS, K)}
TF32 = {BENCHMARKS / "mm.fut", BENCHMARKS / "aat.fut", PROGRAMS / "tensor_cores" / "mm_atb_f32.fut", PROGRAMS / "tensor_cores" / "mm_bias.fut"}
LINE, STRIDE = target.WGMMA_LINE_BYTES, target.WGMMA_ALIGN  # a line's bytes; 8 lines' (the descriptors' stride)


def options_of(path) -> Options:
    return TENSOR_CORES if path in TF32 else DEFAULT


def module_of(path) -> kir.Module:
    return run_all(path.read_text(), path.name, options_of(path), until="verify", device=SM90A)["verify"]


def chunks(k: kir.Kernel) -> list:
    return [s for s in kir.statements(k.body) if isinstance(s, kir.MatrixChunk)]


def test_only_code_built_for_sm_90a_runs_them_and_explain_says_so():
    for arch in ("sm_90", "sm_86", "sm_100"):
        units = _units("mm_bf16.fut", DEFAULT, target.device_for_arch(arch))
        assert units.used and not units.shape.warp_group and units.lines == (), arch
    units = _units("mm_bf16.fut", DEFAULT)
    assert units.used and units.shape.warp_group and (units.shape.m, units.shape.n, units.shape.k) == (64, 128, 16)
    assert units.shape.warps == (2, 1) and units.shape.fragments == (1, 1) and units.lines == (128, 64)
    assert target.native_arch(9, 0) == "sm_90a" and target.native_arch(8, 0) == "sm_80"
    assert target.native_arch(10, 0) == "sm_100"
    out = tiler("explain", "benchmarks/mm_bf16.fut", "--arch", "sm_90a").stdout
    assert "64 x 128 x 16 bf16 instructions, 2 x 1 warp groups of 1 x 1 fragments (wgmma" in " ".join(out.split())
    # f32 products go to them as TF32 under --tensor-cores (k of 8: 32 bytes), f64 ones stay on mma.sync
    for name, group in (("mm.fut", True), ("mm_f64.fut", False)):
        units = _units(name)
        assert units.used and units.shape.warp_group == group, name
    tf32 = _units("mm.fut")
    assert tf32.shape.k == 8 and "the low 13 bits ignored" in tf32.reason


def _units(name: str, options: Options = TENSOR_CORES, device=SM90A):
    return run_all(BENCHMARKS.joinpath(name).read_text(), name, options, until="analyse",
                   device=device)["analyse"].plan.schedule.matrix_units


@pytest.mark.parametrize("path", sorted(PRODUCTS), ids=lambda p: p.stem)
def test_the_tiles_are_swizzled_unpadded_and_on_1024_byte_boundaries(path):
    for k in module_of(path).kernels:
        if not chunks(k):
            continue
        tiles = {op.first.buffer for c in chunks(k) for op in (c.a, c.b)}
        offsets = dict((a.name, off) for a, off in k.shared_offsets())
        assert all(offsets[t] % target.WGMMA_ALIGN == 0 for t in tiles), k.name
        assert k.dynamic_shared and k.shared_align == target.WGMMA_ALIGN
        assert target.ALIGNED_SHARED_BUFFER in k.dynamic_shared_declaration and k.shared_base == target.ALIGNED_SHARED_BUFFER
        assert k.dynamic_shared_bytes == k.shared_bytes + target.WGMMA_ALIGN - target.DYNAMIC_SHARED_ALIGN
        # the last barrier before each chunk (after its tiles' writes) fenced for the async proxy
        last = None
        for s in kir.statements(k.body):
            if isinstance(s, kir.Barrier):
                last = s
            elif isinstance(s, kir.MatrixChunk):
                assert last is not None and last.proxy, k.name


def _at(e, tid: int, threads_x: int = 16) -> int:
    fixed = rewrite(e, lambda x: kir.Const({"x": tid % threads_x, "y": tid // threads_x}[x.axis], "int")
                    if isinstance(x, kir.ThreadIdx) else None)
    return kir.evaluate(fixed, {})


def _swizzle(byte: int) -> int:
    """The 128-byte swizzle as the instruction applies it to a tile on a 1,024-byte boundary: the 16-byte unit
    bits (4-6) XOR-ed with the line's bits (7-9)."""
    return byte ^ ((byte >> 7) & 7) << 4


def _descriptor_element(start: int, lead: int, kmajor: bool, side: int, kk: int, size: int) -> int:
    """The element a descriptor reaches for row `side` (A) or column (B) and position `kk` of the instruction:
    K-major, each side's positions a line, 8 lines STRIDE apart; else each position a line of 64 sides, blocks of
    64 sides `lead` apart (PTX ISA, wgmma's shared memory matrix layouts, 128-byte swizzle)."""
    per_line = LINE // size
    if kmajor:
        byte = start + side // 8 * STRIDE + side % 8 * LINE + kk * size
    else:
        byte = start + side // per_line * lead + kk // 8 * STRIDE + kk % 8 * LINE + side % per_line * size
    return _swizzle(byte) // size


def _layout(op, a: bool) -> str:
    return REGISTERS if op.registers else K if kir.operand_lines(op, a) else MN


def _register_elements(first: int, op, sh, f: int, s: int) -> dict:
    """The elements a thread's registers hold of fragment `f`, instruction `s`, from its own first element, by
    (row, position) within its share (tiler_wgmma_chunk_rs: the second row 8 on, the second position 4 on)."""
    along_row, along_k = kir.operand_strides(op, True)
    nxt, step = kir.fragment_steps(sh, op, True)
    base = first + f * nxt + s * step
    return {(r, q): base + r * along_row + q * along_k
            for r in (0, target.WGMMA_REGISTER_ROWS) for q in (0, target.WGMMA_REGISTER_POSITIONS)}


@pytest.mark.parametrize("path", sorted(PRODUCTS), ids=lambda p: p.stem)
def test_each_warp_group_reads_the_elements_its_points_read_and_stores_each_sum_once(path):
    """The copies write element (line, across) of the plain tile at its
    swizzled place (lower/streams.py); the descriptors the template builds
    from each group's first element and the rendered steps reach, for every
    row, column and position of every instruction, the place holding the
    element the one-point loop reads for that point at that position; a
    tile read into registers gives thread t of a warp group rows 16 (t / 32
    % 4) + t % 32 / 4 and 8 more of each fragment, positions t % 4 and 4
    more, the element the loop reads for each; the accumulators (thread t's
    value v of a fragment: row 16 (t / 32 % 4) + t % 32 / 4 + 8 (v / 2 % 2),
    column 8 (v / 4) + 2 (t % 4) + v % 2, a product computed transposed
    stored row for column) land where each point reads its sum back, every
    point once."""
    k = next(k for k in module_of(path).kernels if chunks(k))
    (_, one_point), (_, rewritten) = k.trace[0], k.trace[1]
    var, load_a, load_b = chunk_loop_reads(one_point)
    chunk = chunks(k)[0]
    store = next(s for s in kir.statements(rewritten) if isinstance(s, kir.MatrixStore))
    sh = chunk.shape
    size = target.SIZEOF[sh.inputs]
    assert (_layout(chunk.a, True), _layout(chunk.b, False)) == PRODUCTS[path]
    assert sh.transposed == (PRODUCTS[path][0] == REGISTERS)
    # the instruction's A and B: the one-point loop's loads and the points they vary with
    (load_a, pa), (load_b, pb) = ((load_b, "P1_"), (load_a, "P0_")) if sh.transposed else \
        ((load_a, "P0_"), (load_b, "P1_"))
    plain = {}  # each tile's pitch before the swizzle: the one-point loop's step along its point or position
    for op, load, p in ((chunk.a, load_a, pa), (chunk.b, load_b, pb)):
        base = kir.evaluate(load.index, {p: 0, var: 0})
        plain[op.first.buffer] = max(kir.evaluate(load.index, {p: 1, var: 0}) - base,
                                     kir.evaluate(load.index, {p: 0, var: 1}) - base)

    def held(op, unswizzled: int) -> int:
        """Where the copy put the element the plain tile holds at `unswizzled`."""
        if op.registers:
            return unswizzled
        line, across = divmod(unswizzled, plain[op.first.buffer])
        return kir.evaluate(swizzled_index(kir.Const(line, "int"), kir.Const(across, "int"), op.lines, op.ld), {})

    rows, cols = sh.warp_tile
    steps = {True: kir.fragment_steps(sh, chunk.a, True), False: kir.fragment_steps(sh, chunk.b, False)}
    leads = {a: op.block * size if not kir.operand_lines(op, a) else target.WGMMA_UNIT_BYTES
             for op, a in ((chunk.a, True), (chunk.b, False))}
    covered = set()
    for group in range(sh.warps[0] * sh.warps[1]):
        tid = group * sh.group
        grow, gcol = group // sh.warps[1] * rows, group % sh.warps[1] * cols
        if chunk.a.registers:
            reached = set()
            for t in range(sh.group):
                first = _at(chunk.a.first.index, tid + t)
                row = 16 * (t // 32) + t % 32 // 4
                for s in range(chunk.steps):
                    for f in range(sh.fragments[0]):
                        for (r, q), got in _register_elements(first, chunk.a, sh, f, s).items():
                            side, kk = row + r, t % 4 + q
                            want = kir.evaluate(load_a.index, {pa: grow + f * sh.m + side, var: s * sh.k + kk})
                            assert got == want, (path.stem, group, t, s, f, r, q)
                            reached.add((f, s, side, kk))
            assert len(reached) == sh.fragments[0] * chunk.steps * sh.m * sh.k
        for op, a, load, p, first_side, count, side_len in (
                (chunk.a, True, load_a, pa, grow, sh.fragments[0], sh.m),
                (chunk.b, False, load_b, pb, gcol, sh.fragments[1], sh.n)):
            if op.registers:
                continue
            start0 = _at(op.first.index, tid) * size
            nxt, step = steps[a]
            for s in range(chunk.steps):
                for f in range(count):
                    start = start0 + (f * nxt + s * step) * size
                    for side in range(side_len):
                        for kk in range(sh.k):
                            got = _descriptor_element(start, leads[a], kir.operand_lines(op, a), side, kk, size)
                            want = kir.evaluate(load.index, {p: first_side + f * side_len + side, var: s * sh.k + kk})
                            assert got == held(op, want), (path.stem, a, group, s, f, side, kk)
        for warp in range(sh.group // 32):
            out = _at(store.index, tid + warp * 32)
            for lane in range(32):
                for i in range(sh.fragments[0]):
                    for j in range(sh.fragments[1]):
                        for v in range(sh.n // 2):
                            r = i * sh.m + 16 * warp + lane // 4 + 8 * (v // 2 % 2)
                            c = j * sh.n + 8 * (v // 4) + 2 * (lane % 4) + v % 2
                            # tiler_wgmma_store's place for it, from this warp's first row (the transposed
                            # store's, from its first column)
                            mine = (i * sh.m + lane // 4 + 8 * (v // 2 % 2), j * sh.n + 8 * (v // 4) +
                                    2 * (lane % 4) + v % 2)
                            point = (grow + r, gcol + c)
                            if sh.transposed:
                                mine, point = mine[::-1], point[::-1]
                            assert out + mine[0] * store.ld + mine[1] == point[0] * store.ld + point[1]
                            covered.add(point)
    tile = (sh.warps[0] * rows, sh.warps[1] * cols)
    if sh.transposed:
        tile = tile[::-1]
    assert covered == {(r, c) for r in range(tile[0]) for c in range(tile[1])}


@pytest.mark.parametrize("path", sorted(PRODUCTS), ids=lambda p: p.stem)
def test_the_rendered_instructions_transpose_exactly_the_operands_whose_lines_cross_the_chunk(path):
    """The template's flags against the programs' layouts as written down
    here (not as the plan derives them): an operand is wgmma's transposed
    one where its tile's lines run across the chunk's positions; its leading
    byte offset is then a block of 64 lines across, else one 16-byte unit."""
    cuda = run_all(path.read_text(), path.name, options_of(path), device=SM90A)["render"]
    calls = re.findall(r"tiler_wgmma_chunk<([\d, ]+)>", cuda)
    a_layout, b_layout = PRODUCTS[path]
    if a_layout == REGISTERS:  # (A's steps from a thread's own element: along its rows, its positions, ...)
        assert not calls, path.stem
        calls = ["0, 0, 0, 0, 0, " + ", ".join(call.split(",")[5:])
                 for call in re.findall(r"tiler_wgmma_chunk_rs<([\d, ]+)>", cuda)]
    assert calls, path.stem
    for call in calls:
        _, ta, _, _, a_lead, tb, _, _, b_lead = map(int, call.split(","))
        assert tb == int(b_layout == MN) and (a_layout == REGISTERS or ta == int(a_layout == MN)), (path.stem, call)
        for layout, lead in ((a_layout, a_lead), (b_layout, b_lead)):
            if layout != REGISTERS:
                assert lead == target.WGMMA_UNIT_BYTES if layout == K else lead % target.WGMMA_ALIGN == 0, \
                    (path.stem, call)


def test_a_copy_that_writes_past_its_swizzled_tile_is_a_verifier_fault(monkeypatch):
    """A swizzled copy's index with its tile's lines miscounted (8 more) reaches past B's tile (two blocks across): the
    verifier bounds a shared store's or copy's elements over every thread where no `if` guards them."""
    from tiler.errors import CompilerBug
    from tiler.lower import streams

    path = BENCHMARKS / "mm_bf16.fut"
    assert module_of(path)
    monkeypatch.setattr(streams, "swizzled_index", lambda line, across, lines, width, **kw:
                        swizzled_index(line, across, lines + 8, width, **kw))
    with pytest.raises(CompilerBug, match=r"a store writes elements 0 to \d+ of shared sh_b_c, which holds 8192"):
        module_of(path)


def test_the_templates_register_loads_and_transposed_store_follow_the_ptx_layouts():
    """tiler_wgmma_chunk_rs's four loads and tiler_wgmma_store's transposed
    four stores, read from the template and evaluated, against the PTX
    ISA's layouts (the lane test's model): register v of a thread holds A's
    row + 8 (v % 2), position + 4 (v / 2); accumulator v is at row + 8 (v /
    2 % 2), column + v % 2, which the transposed store writes at the staging
    tile's row column + v % 2, column row + 8 (v / 2 % 2)."""
    text = (Path(__file__).parent.parent / "templates" / "mma.cuh").read_text()
    rows, positions = (int(re.search(rf"\b{n} = (\d+);", text).group(1)) for n in ("ROWS", "POSITIONS"))
    assert (rows, positions) == (target.WGMMA_REGISTER_ROWS, target.WGMMA_REGISTER_POSITIONS)
    wide = 1000  # an offset's rows (or the staging tile's) in its thousands, positions (columns) in its units

    def evaluated(expr: str, names: dict) -> tuple[int, int]:
        expr = expr.replace("tiler_wgmma_registers::ROWS", str(rows)).replace(
            "tiler_wgmma_registers::POSITIONS", str(positions))
        return divmod(eval(expr, {}, names), wide)  # noqa: S307 - the template's own index arithmetic

    chunk = text[text.index("void tiler_wgmma_chunk_rs("):]
    loads = re.findall(r"r\[s\]\[i\]\[(\d)\] = __float_as_uint\(p\[(.*?)\]\);", chunk)
    assert {int(v): evaluated(e, {"A_ROW": wide, "A_POS": 1}) for v, e in loads} == \
        {v: (8 * (v % 2), 4 * (v // 2)) for v in range(4)}
    store = text[text.index("if (TRANSPOSED)", text.index("void tiler_wgmma_store(")):]
    stores = re.findall(r"p\[(.*?)\] = t\.c\[i\]\[j\]\[4 \* q(?: \+ (\d))?\];", store)
    assert {int(v or 0): evaluated(e, {"LD": wide}) for e, v in stores} == \
        {v: (v % 2, 8 * (v // 2 % 2)) for v in range(4)}


def test_the_swizzled_copy_index_permutes_each_lines_units():
    """Element (line, across) of a tile of 64 lines of 128 (two blocks of 64 across), 16-bit: blocks first, each
    line 64 elements, its 16-byte units XOR-ed with the line's index mod 8; every place taken once."""
    places = {kir.evaluate(swizzled_index(kir.Const(line, "int"), kir.Const(x, "int"), 64, 64), {})
              for line in range(64) for x in range(128)}
    assert places == set(range(64 * 128))
    at = kir.evaluate(swizzled_index(kir.Const(3, "int"), kir.Const(64 + 9, "int"), 64, 64), {})
    assert at == 64 * 64 + 3 * 64 + ((9 // 8) ^ 3) * 8 + 9 % 8


@pytest.mark.nvcc
@pytest.mark.skipif(nvcc_path() is None, reason="nvcc is not on PATH")
def test_nvcc_builds_every_version_for_sm_90a_with_no_spills_and_the_planned_shared_memory(tmp_path):
    units, planned = [], {}
    for i, path in enumerate(sorted(PRODUCTS)):
        values = run_all(path.read_text(), path.name, options_of(path), device=SM90A)
        cuda, kernels = rename_module(values["render"], values["verify"], f"tiler_wg{i}")
        assert re.search(r"tiler_wgmma_chunk(_rs)?<\d", cuda) and not re.search(r"tiler_mma_chunk<\d", cuda), path.stem
        units.append(cuda)
        planned |= {s.name: s.static_shared_bytes for k in kernels for s in k.launches}
    source = tmp_path / "wgmma.cu"
    source.write_text("\n".join(units))
    done = subprocess.run([nvcc_path(), f"-arch={target.WGMMA_ARCH}", "-cubin", "-Xptxas", "-v", "-o",
                           str(tmp_path / "wgmma.cubin"), str(source)], capture_output=True, text=True, timeout=900)
    log = done.stdout + done.stderr
    assert done.returncode == 0, log[-3000:]
    assert "wgmma" not in log.lower() or "serializ" not in log.lower(), log[-3000:]  # no serialised instructions
    reports = {block.split("'")[1]: block for block in log.split("ptxas info    : Compiling entry function ")[1:]}
    for name, shared in planned.items():
        report = reports[name]
        assert "0 bytes spill stores" in report and "0 bytes spill loads" in report, (name, report)
        smem = re.search(r"(\d+) bytes smem", report)
        assert (int(smem.group(1)) if smem else 0) == shared, (name, report)

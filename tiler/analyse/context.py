"""What a plan is made under, three things kept apart: the user's options
(options.py: what was asked), the GPU (target.Device: what the device is),
and the planner's own constraints (`Constraints`: what the planner fixes
when it plans a schedule again, for a bound on a row's length, one point a
thread, or a loop's rows joined). The planner reads them through `Context`
and never writes into the user's options."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from .. import target
from .options import Options


@dataclass(frozen=True)
class Constraints:
    # (size name, N): row lengths known only at launch the plan takes as at most N (plan._bounded); its
    # kernel runs only where the launch finds them so
    bounds: tuple = ()
    # one point a thread: the schedule for launches whose grid the micro-tile would leave short of SMs
    # (plan._fewer_points)
    one_point: bool = False
    # a stream joined with its loop's iterations (joins.py): chunks of this many elements, copied one element
    # at a time (rows of several lengths end anywhere in them)
    join_chunk: int | None = None
    # points a thread takes along a dim with reuse, where not registers.MICRO: the split-K version's smaller
    # micro-tile (plan._few_outputs)
    micro: int | None = None
    # the register tile's product runs on the matrix units (plan._completed, tensor_cores.py): its tiles are
    # laid out for them (lines contiguous along the copy, a 16-byte pad), in chunks of MATRIX_CHUNK_BYTES
    # a line, and cp.async moves 2-byte elements in whole vectors
    matrix: bool = False
    # and the warp groups' instructions read them (sm_90a's wgmma): lines of target.WGMMA_LINE_BYTES, no
    # padding, swizzled (Staging.swizzled)
    swizzle: bool = False
    # and its block walks its rows along grid y or z in a loop (blocks.folded_dims: a size known only at
    # launch): the chunk is then at least the block's, not sm_90's f64 chunk (target.matrix_chunk)
    grid_loop: bool = False
    # points a thread along each dim, as --register-tile gives them: the plan's wider tile for products the warp
    # groups compute with TMA copies (plan._wider)
    register_tile: tuple = ()
    # the matrix units' operands read in place, never from the launch's transposed copies: the plan for the
    # launches too small to pay for the copies (operand_transposes.py, Plan.in_place)
    units_in_place: bool = False
    # a product on the CUDA cores whose tiles TMA copies (core_tma.py): chunks of core_tma.CHUNK at least
    core_tma: bool = False
    # an f64 product may take the matrix units without --tensor-cores where they round as its loop does
    # (tensor_cores._exact); off for the split-K version's plan (Plan.k_schedule)
    exact_units: bool = True


@dataclass(frozen=True)
class Context:
    options: Options
    device: target.Device = target.DEFAULT_DEVICE
    constraints: Constraints = field(default_factory=Constraints)

    def constrained(self, **changes) -> "Context":
        """The same, planning again under more constraints."""
        return dataclasses.replace(self, constraints=dataclasses.replace(self.constraints, **changes))

    @property
    def chunk(self) -> int | None:
        """The chunk asked for: a joined stream's, else --chunk, else None (the plan's choice)."""
        c = self.constraints.join_chunk
        return c if c is not None else self.options.chunk

    @property
    def no_vector(self) -> bool:
        return self.options.no_vector or self.constraints.join_chunk is not None

    @property
    def no_register_tile(self) -> bool:
        return self.options.no_register_tile or self.constraints.one_point

    @property
    def register_sizes(self) -> tuple:
        """Points a thread along each dim that the plan must take as given (--register-tile's, else a constraint's)."""
        return self.options.register_tile or self.constraints.register_tile

    def known_size(self, size) -> int | None:
        return self.options.known_size(size)

    def shared_limit(self, pipelined: bool = False) -> int:
        """The shared memory a block may use: --max-shared's (within what the
        GPU allows), else 48 KiB (static shared memory, on every GPU), but up
        to the GPU's opt-in limit for a register tile copied by cp.async: its
        stages are what hides the loads, and two stages do worse than no
        cp.async at all."""
        if self.options.max_shared is not None:
            return min(self.options.max_shared, self.device.shared_optin)
        return self.device.shared_optin if pipelined else min(target.STATIC_SHARED_LIMIT, self.device.shared_optin)

    def bounded(self, size) -> bool:
        """Whether the plan takes a bound for this size (known only at launch)."""
        return self.known_size(size) is None and self.row_length(size) is not None

    def row_length(self, size) -> int | None:
        """A row's length as a shared tile is sized: known (`known_size`),
        else the bound the plan assumes for it, else None."""
        known = self.known_size(size)
        return known if known is not None else dict(self.constraints.bounds).get(getattr(size, "name", None))
